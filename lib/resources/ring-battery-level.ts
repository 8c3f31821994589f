import { defineResource } from "@/lib/resources/define";

/** PublicRingBatteryLevelRow: the ring's battery level over time. Stored like heart rate (packed per UTC day). */
export const ringBatteryLevel = defineResource({
  name: "ring_battery_level",
  openapiModel: "PublicRingBatteryLevelRow",
  kind: "time_series",
  label: "Ring battery",
  color: "var(--warn)",
  sharedLabel: "The ring's battery level",
  scope: "daily",
  window: { param: "datetime", start: "inclusive", end: "inclusive", maxDays: 30 },
  schema: (k) =>
    k.z.looseObject({ timestamp: k.text, timestamp_unix: k.optNum, level: k.num, charging: k.z.boolean().nullish(), in_charger: k.z.boolean().nullish() }),
  sample: {
    fields: [
      { name: "level", type: "int" },
      { name: "charging", type: "bool" },
      { name: "in_charger", type: "bool" },
    ],
    key: [],
  },
  columns: [],
  metrics: {},
});
