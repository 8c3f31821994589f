import { defineResource } from "@/lib/resources/define";

/** PublicVO2Max: an estimate of VO2 max (about weekly). The webhook says `vo2_max`, the path `vO2_max` (facts §6.1). */
export const vo2Max = defineResource({
  name: "vO2_max",
  openapiModel: "PublicVO2Max",
  table: "vo2_max",
  kind: "daily",
  label: "VO2 max",
  color: "var(--fitness)",
  sharedLabel: "VO2 max estimates",
  scope: "daily",
  webhookDataType: "vo2_max",
  // filtered on the estimate's timestamp (its time of day): a date-only end misses its own day
  window: { param: "date", start: "inclusive", end: "exclusive" },
  schema: (k) => k.document({ timestamp: k.text, vo2_max: k.optNum }),
  columns: [
    { name: "timestamp", type: "text" },
    { name: "vo2_max", type: "int" },
  ],
  metrics: {
    "vo2max.vo2_max": {
      from: { column: "vo2_max" },
      label: "VO2 max",
      group: "Fitness",
      unit: "ml/kg/min",
      direction: "higher",
      kind: "measure",
      description: "The ring's estimate of your maximal oxygen uptake (about weekly).",
    },
  },
});
