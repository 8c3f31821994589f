import { defineResource } from "@/lib/resources/define";

/**
 * PublicRestModePeriod: rest mode switched on (from `start_day`) and off (`end_day`; null while
 * it lasts). Most real rows are zero-length toggles (facts Addendum).
 */
export const restModePeriod = defineResource({
  name: "rest_mode_period",
  openapiModel: "PublicRestModePeriod",
  kind: "event",
  label: "Rest mode",
  color: "var(--readiness)",
  sharedLabel: "Rest mode periods",
  scope: "daily",
  dayField: "start_day",
  schema: (k) =>
    k.z.looseObject({
      id: k.id,
      start_day: k.day,
      end_day: k.day.nullish(),
      start_time: k.optText,
      end_time: k.optText,
      episodes: k.z.array(k.z.unknown()).nullish(),
    }),
  columns: [
    { name: "end_day", type: "text" },
    { name: "start_time", type: "text" },
    { name: "end_time", type: "text" },
  ],
  metrics: {},
});
