import { defineResource } from "@/lib/resources/define";

/** PublicDailyStress. `day_summary` is one of a closed list the service extends over time. */
export const dailyStress = defineResource({
  name: "daily_stress",
  kind: "daily",
  label: "Stress",
  sharedLabel: "Stress",
  scope: "daily",
  webhookDataType: "daily_stress",
  window: { param: "date", start: "inclusive", end: "inclusive" },
  key: "documentId",
  schema: (k) =>
    k.z.looseObject({
      id: k.id,
      day: k.day,
      stress_high: k.optNum,
      recovery_high: k.optNum,
      day_summary: k.openEnum,
    }),
  columns: [
    { name: "stress_high", type: "int" },
    { name: "recovery_high", type: "int" },
    {
      name: "day_summary",
      type: "text",
      categories: [
        { value: "stressful", label: "Stressful", color: "var(--cat-stressful)" },
        { value: "normal", label: "Normal", color: "var(--cat-normal)" },
        { value: "restored", label: "Restored", color: "var(--cat-restored)" },
      ],
    },
  ],
  metrics: {
    "stress.stress_high": {
      from: { column: "stress_high" },
      label: "Time in high stress",
      short: "Stress",
      group: "Stress",
      unit: "s",
      direction: "lower",
      kind: "duration",
      durationIn: "min",
      isHeadline: true,
    },
    "stress.recovery_high": {
      from: { column: "recovery_high" },
      label: "Time in high recovery",
      short: "Recovery",
      group: "Stress",
      unit: "s",
      direction: "higher",
      kind: "duration",
      durationIn: "min",
      isHeadline: true,
    },
    "stress.day_summary": {
      from: { column: "day_summary" },
      label: "Stress day summary",
      short: "Day summary",
      group: "Stress",
      unit: "count",
      direction: "higher",
      kind: "category",
    },
  },
});
