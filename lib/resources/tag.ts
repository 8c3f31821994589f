import { defineResource } from "@/lib/resources/define";

/**
 * TagModel, the deprecated notes of the ring's app (its `tags` and `text`), superseded by
 * enhanced_tag. Stored and exported as sent; the pages show the enhanced tags. Its table is
 * `ring_tag`: `tag` is the person's own Ringside tags.
 */
export const ringTag = defineResource({
  name: "tag",
  openapiModel: "TagModel",
  table: "ring_tag",
  kind: "event",
  label: "Notes from the ring app (old)",
  color: "var(--chart-tag)",
  sharedLabel: "Notes of the ring's app (the older tag format)",
  scope: "tag",
  schema: (k) => k.document({ timestamp: k.text, text: k.optText, tags: k.z.array(k.z.string()).nullish() }),
  columns: [
    { name: "timestamp", type: "text" },
    { name: "text", type: "text" },
  ],
  metrics: {},
});
