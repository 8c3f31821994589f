import { closedList, defineResource } from "@/lib/resources/define";

/**
 * PublicSession: a meditation, breathing or rest session ("Moment") with its 5-second series.
 * Its table is `ring_session`: `Session` is a sign-in session.
 */
export const session = defineResource({
  name: "session",
  openapiModel: "PublicSession",
  table: "ring_session",
  kind: "event",
  label: "Sessions",
  color: "var(--session)",
  sharedLabel: "Sessions (meditation, breathing, rest)",
  scope: "session",
  // like a workout: the start instant, end-exclusive (the emulator's reading; facts are silent)
  window: { param: "date", start: "inclusive", end: "exclusive" },
  schema: (k) =>
    k.document({
      start_datetime: k.text,
      end_datetime: k.text,
      type: k.openEnum,
      mood: k.openEnum,
      heart_rate: k.sample.nullish(),
      heart_rate_variability: k.sample.nullish(),
      motion_count: k.sample.nullish(),
    }),
  columns: [
    {
      name: "type",
      type: "text",
      categories: closedList([
        ["breathing", "Breathing"],
        ["meditation", "Meditation"],
        ["nap", "Nap"],
        ["relaxation", "Relaxation"],
        ["rest", "Rest"],
        ["body_status", "Body status"],
      ]),
    },
    { name: "start_datetime", type: "text" },
    { name: "end_datetime", type: "text" },
    { name: "duration", type: "int", from: { secondsBetween: ["start_datetime", "end_datetime"] } },
    {
      name: "mood",
      type: "text",
      categories: closedList([
        ["bad", "Bad"],
        ["worse", "Worse"],
        ["same", "Same"],
        ["good", "Good"],
        ["great", "Great"],
      ]),
    },
  ],
  metrics: {
    "session.minutes": {
      from: { sum: "duration", zeroOn: "daily_activity" },
      label: "Session time",
      group: "Sessions",
      unit: "s",
      direction: "neutral",
      kind: "duration",
      durationIn: "min",
      description: "Time in meditation, breathing and rest sessions that day (0 on a worn day without one).",
    },
  },
});
