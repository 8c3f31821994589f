import { closedList, defineResource } from "@/lib/resources/define";

/** PublicWorkout: one workout (activity, intensity, its span, calories and distance). */
export const workout = defineResource({
  name: "workout",
  openapiModel: "PublicWorkout",
  kind: "event",
  label: "Workouts",
  color: "var(--workout)",
  sharedLabel: "Workouts (activity, intensity, time, calories, distance)",
  scope: "workout",
  // filtered on the workout's UTC start instant, end-exclusive (facts §2.4)
  window: { param: "date", start: "inclusive", end: "exclusive" },
  schema: (k) =>
    k.document({
      activity: k.text,
      start_datetime: k.text,
      end_datetime: k.text,
      intensity: k.openEnum,
      source: k.openEnum,
      calories: k.optNum,
      distance: k.optNum,
      label: k.optText,
    }),
  columns: [
    { name: "activity", type: "text" },
    { name: "start_datetime", type: "text" },
    { name: "end_datetime", type: "text" },
    { name: "duration", type: "int", from: { secondsBetween: ["start_datetime", "end_datetime"] } },
    {
      name: "intensity",
      type: "text",
      categories: closedList(
        [
          ["easy", "Easy"],
          ["moderate", "Moderate"],
          ["hard", "Hard"],
        ],
        { colored: true },
      ),
    },
    {
      name: "source",
      type: "text",
      categories: closedList([
        ["manual", "Added by hand"],
        ["autodetected", "Detected"],
        ["confirmed", "Confirmed"],
        ["workout_heart_rate", "Heart-rate workout"],
      ]),
    },
    { name: "calories", type: "float" },
    { name: "distance", type: "float" },
    { name: "label", type: "text" },
  ],
  metrics: {
    "workout.minutes": {
      from: { sum: "duration", zeroOn: "daily_activity" },
      label: "Workout time",
      group: "Workouts",
      unit: "s",
      direction: "higher",
      kind: "duration",
      durationIn: "min",
      description: "Time in workouts that day (0 on a worn day without one).",
    },
    "workout.calories": {
      from: { sum: "calories", zeroOn: "daily_activity" },
      label: "Workout calories",
      group: "Workouts",
      unit: "kcal",
      direction: "neutral",
      kind: "measure",
      description: "Calories of that day's workouts (0 on a worn day without one).",
    },
  },
});
