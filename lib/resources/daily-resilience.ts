import { closedList, defineResource } from "@/lib/resources/define";

/**
 * DailyResilienceModel. `level` is required and non-null in the spec; it is read tolerantly (a
 * missing or new level is stored as unknown).
 */
export const dailyResilience = defineResource({
  name: "daily_resilience",
  openapiModel: "DailyResilienceModel",
  kind: "daily",
  label: "Resilience",
  color: "var(--resilience)",
  sharedLabel: "Resilience",
  scope: "daily",
  schema: (k) =>
    k.document({
      level: k.openEnum,
      contributors: k.z.looseObject({ sleep_recovery: k.num, daytime_recovery: k.num, stress: k.num }),
    }),
  columns: [
    {
      name: "level",
      type: "text",
      categories: closedList(
        [
          ["limited", "Limited"],
          ["adequate", "Adequate"],
          ["solid", "Solid"],
          ["strong", "Strong"],
          ["exceptional", "Exceptional"],
        ],
        { colored: true },
      ),
    },
    { name: "sleep_recovery", type: "float", from: "contributors.sleep_recovery" },
    { name: "daytime_recovery", type: "float", from: "contributors.daytime_recovery" },
    { name: "stress", type: "float", from: "contributors.stress" },
  ],
  metrics: {
    "resilience.level": {
      from: { column: "level" },
      label: "Resilience level",
      short: "Resilience",
      group: "Resilience",
      unit: "count",
      direction: "higher",
      kind: "category",
    },
    "resilience.sleep_recovery": {
      from: { column: "sleep_recovery" },
      label: "Sleep recovery",
      group: "Resilience",
      unit: "score",
      direction: "higher",
      kind: "score",
      decimals: 1,
      isContributor: true,
    },
    "resilience.daytime_recovery": {
      from: { column: "daytime_recovery" },
      label: "Daytime recovery",
      group: "Resilience",
      unit: "score",
      direction: "higher",
      kind: "score",
      decimals: 1,
      isContributor: true,
    },
    "resilience.stress": {
      from: { column: "stress" },
      label: "Stress balance",
      group: "Resilience",
      unit: "score",
      direction: "higher",
      kind: "score",
      decimals: 1,
      isContributor: true,
    },
  },
});
