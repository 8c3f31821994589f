import { defineResource } from "@/lib/resources/define";

/** PublicDailySpO2: blood oxygen during the night (its own scope). */
export const dailySpo2 = defineResource({
  name: "daily_spo2",
  openapiModel: "PublicDailySpO2",
  kind: "daily",
  label: "Blood oxygen",
  color: "var(--spo2)",
  sharedLabel: "Blood oxygen (SpO2)",
  scope: "spo2Daily",
  schema: (k) =>
    k.document({
      spo2_percentage: k.z.looseObject({ average: k.optNum }).nullish(),
      breathing_disturbance_index: k.optNum,
    }),
  columns: [
    { name: "spo2_average", type: "float", from: "spo2_percentage.average" },
    { name: "breathing_disturbance_index", type: "int" },
  ],
  metrics: {
    "spo2.spo2_average": {
      from: { column: "spo2_average" },
      label: "SpO₂ average",
      short: "SpO₂",
      group: "Blood oxygen",
      unit: "%",
      direction: "higher",
      kind: "measure",
      decimals: 1,
      isHeadline: true,
    },
    "spo2.breathing_disturbance_index": {
      from: { column: "breathing_disturbance_index" },
      label: "Breathing disturbance index",
      short: "BDI",
      group: "Blood oxygen",
      unit: "count",
      direction: "lower",
      kind: "count",
      isHeadline: true,
      description: "Breathing disturbances per hour of sleep.",
    },
  },
});
