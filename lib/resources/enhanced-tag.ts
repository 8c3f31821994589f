import { defineResource } from "@/lib/resources/define";

/**
 * EnhancedTagModel: a tag entered in the ring's own app (alcohol, caffeine, a custom tag …), on
 * its `start_day`. Shown in Notes & tags as a read-only tag "from the ring" (lib/metrics/ring-tags.ts).
 */
export const enhancedTag = defineResource({
  name: "enhanced_tag",
  openapiModel: "EnhancedTagModel",
  kind: "event",
  label: "Tags from the ring app",
  color: "var(--chart-tag)",
  sharedLabel: "Tags you enter in the ring's app (alcohol, caffeine, custom tags …)",
  scope: "tag",
  dayField: "start_day",
  schema: (k) =>
    k.z.looseObject({
      id: k.id,
      start_day: k.day,
      start_time: k.text,
      tag_type_code: k.optText,
      end_time: k.optText,
      end_day: k.day.nullish(),
      comment: k.optText,
      custom_name: k.optText,
    }),
  columns: [
    { name: "tag_type_code", type: "text" },
    { name: "custom_name", type: "text" },
    { name: "start_time", type: "text" },
    { name: "end_time", type: "text" },
    { name: "end_day", type: "text" },
    { name: "comment", type: "text" },
  ],
  metrics: {},
});
