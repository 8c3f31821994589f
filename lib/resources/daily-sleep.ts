import { contributorMetrics, defineResource, nestedInts } from "@/lib/resources/define";

const CONTRIBUTORS = ["deep_sleep", "efficiency", "latency", "rem_sleep", "restfulness", "timing", "total_sleep"] as const;

/** PublicDailySleep: the day's sleep score and its contributors. */
export const dailySleep = defineResource({
  name: "daily_sleep",
  openapiModel: "PublicDailySleep",
  kind: "daily",
  label: "Sleep",
  color: "var(--sleep)",
  sharedLabel: "Sleep score",
  scope: "daily",
  schema: (k) =>
    k.document({
      timestamp: k.text,
      contributors: k.optNumbers(CONTRIBUTORS),
      score: k.optNum,
    }),
  columns: [{ name: "timestamp", type: "text" }, { name: "score", type: "int" }, ...nestedInts("contributors", CONTRIBUTORS)],
  metrics: {
    "sleep.score": {
      from: { column: "score" },
      label: "Sleep score",
      short: "Sleep",
      group: "Sleep",
      unit: "score",
      direction: "higher",
      kind: "score",
      isHeadline: true,
    },
    ...contributorMetrics("sleep", "Sleep contributors", [
      ["total_sleep", "Total sleep (contributor)"],
      ["efficiency", "Efficiency (contributor)"],
      ["restfulness", "Restfulness"],
      ["rem_sleep", "REM sleep (contributor)"],
      ["deep_sleep", "Deep sleep (contributor)"],
      ["latency", "Latency (contributor)"],
      ["timing", "Timing"],
    ]),
  },
});
