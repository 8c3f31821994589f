import { defineResource } from "@/lib/resources/define";

/** PublicRingConfiguration: one ring (hardware, design, firmware). Listed without a date window and of no day. */
export const ringConfiguration = defineResource({
  name: "ring_configuration",
  openapiModel: "PublicRingConfiguration",
  kind: "event",
  label: "Ring",
  color: "var(--chart-cursor)",
  sharedLabel: "The ring's model and firmware",
  scope: "daily",
  window: { param: "none" },
  dayField: null,
  schema: (k) =>
    k.z.looseObject({
      id: k.id,
      color: k.openEnum,
      design: k.openEnum,
      firmware_version: k.optText,
      hardware_type: k.openEnum,
      set_up_at: k.optText,
      size: k.optNum,
    }),
  columns: [
    { name: "hardware_type", type: "text" },
    { name: "design", type: "text" },
    { name: "color", type: "text" },
    { name: "size", type: "int" },
    { name: "firmware_version", type: "text" },
    { name: "set_up_at", type: "text" },
  ],
  metrics: {},
});
