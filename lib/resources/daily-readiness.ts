import { contributorMetrics, defineResource, nestedInts } from "@/lib/resources/define";

/** The readiness contributors (also inside each sleep period's `readiness`). */
export const READINESS_CONTRIBUTORS = [
  "activity_balance",
  "body_temperature",
  "hrv_balance",
  "previous_day_activity",
  "previous_night",
  "recovery_index",
  "resting_heart_rate",
  "sleep_balance",
  "sleep_regularity",
] as const;

/**
 * PublicDailyReadiness. `sleep_regularity` is missing from some real responses (facts §3), so
 * every contributor is optional.
 */
export const dailyReadiness = defineResource({
  name: "daily_readiness",
  openapiModel: "PublicDailyReadiness",
  kind: "daily",
  label: "Readiness",
  color: "var(--readiness)",
  sharedLabel: "Readiness",
  scope: "daily",
  schema: (k) =>
    k.document({
      timestamp: k.text,
      contributors: k.optNumbers(READINESS_CONTRIBUTORS),
      score: k.optNum,
      temperature_deviation: k.optNum,
      temperature_trend_deviation: k.optNum,
    }),
  columns: [
    { name: "timestamp", type: "text" },
    { name: "score", type: "int" },
    { name: "temperature_deviation", type: "float" },
    { name: "temperature_trend_deviation", type: "float" },
    ...nestedInts("contributors", READINESS_CONTRIBUTORS),
  ],
  metrics: {
    "readiness.score": {
      from: { column: "score" },
      label: "Readiness score",
      short: "Readiness",
      group: "Readiness",
      unit: "score",
      direction: "higher",
      kind: "score",
      isHeadline: true,
    },
    "readiness.temperature_deviation": {
      from: { column: "temperature_deviation" },
      label: "Temperature deviation",
      short: "Temp. dev.",
      group: "Readiness",
      unit: "°C",
      direction: "neutral",
      kind: "temperature_deviation",
      decimals: 2,
      isHeadline: true,
      description: "Body temperature against your long-term norm.",
    },
    "readiness.temperature_trend_deviation": {
      from: { column: "temperature_trend_deviation" },
      label: "Temperature trend deviation",
      short: "Temp. trend",
      group: "Readiness",
      unit: "°C",
      direction: "neutral",
      kind: "temperature_deviation",
      decimals: 2,
    },
    ...contributorMetrics("readiness", "Readiness contributors", [
      ["previous_night", "Previous night"],
      ["sleep_balance", "Sleep balance"],
      ["sleep_regularity", "Sleep regularity"],
      ["previous_day_activity", "Previous day activity"],
      ["activity_balance", "Activity balance"],
      ["body_temperature", "Body temperature"],
      ["resting_heart_rate", "Resting heart rate (contributor)"],
      ["hrv_balance", "HRV balance"],
      ["recovery_index", "Recovery index"],
    ]),
  },
});
