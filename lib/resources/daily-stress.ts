import { closedList, defineResource } from "@/lib/resources/define";

/** PublicDailyStress. `day_summary` is one of a closed list the service extends over time. */
export const dailyStress = defineResource({
  name: "daily_stress",
  openapiModel: "PublicDailyStress",
  kind: "daily",
  label: "Stress",
  color: "var(--stress)",
  sharedLabel: "Stress",
  scope: "daily",
  schema: (k) =>
    k.document({
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
      categories: closedList(
        [
          ["stressful", "Stressful"],
          ["normal", "Normal"],
          ["restored", "Restored"],
        ],
        { colored: true },
      ),
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
