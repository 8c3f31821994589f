import { closedList, defineResource } from "@/lib/resources/define";

/**
 * PublicHeartRateRow: the heart-rate time series (about 300 samples a day, 5-second bursts in
 * workouts and sessions). Stored packed, one row per person and UTC day (lib/db/sample-codec.ts).
 */
export const heartRate = defineResource({
  name: "heartrate",
  openapiModel: "PublicHeartRateRow",
  table: "heart_rate",
  kind: "time_series",
  label: "Heart rate",
  color: "var(--heart)",
  sharedLabel: "Heart rate through the day and night",
  scope: "heartrate",
  window: { param: "datetime", start: "inclusive", end: "inclusive", maxDays: 30 },
  schema: (k) => k.z.looseObject({ timestamp: k.text, timestamp_unix: k.optNum, bpm: k.num, source: k.openEnum }),
  sample: {
    fields: [
      { name: "bpm", type: "int" },
      {
        name: "source",
        type: "text",
        categories: closedList(
          [
            ["sleep", "Sleep"],
            ["rest", "Rest"],
            ["awake", "Awake"],
            ["session", "Session"],
            ["workout", "Workout"],
            ["live", "Live"],
          ],
          { colored: true },
        ),
      },
    ],
    // one real response held one instant twice with different sources (facts Addendum)
    key: ["source"],
  },
  columns: [],
  metrics: {
    "heartrate.daytime_mean": {
      from: { samples: "mean", field: "bpm", only: { field: "source", values: ["awake"] } },
      label: "Daytime heart rate",
      short: "Day HR",
      group: "Heart rate",
      unit: "bpm",
      direction: "lower",
      kind: "measure",
      decimals: 1,
      description: "Mean of the day's awake samples (sleep, rest, workouts and sessions left out), your local day.",
    },
    "heartrate.daytime_min": {
      from: { samples: "min", field: "bpm", only: { field: "source", values: ["awake"] } },
      label: "Lowest daytime heart rate",
      short: "Day HR min",
      group: "Heart rate",
      unit: "bpm",
      direction: "lower",
      kind: "measure",
      description: "Lowest of the day's awake samples, your local day.",
    },
  },
});
