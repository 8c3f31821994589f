import { closedList, defineResource } from "@/lib/resources/define";

/**
 * PublicSleepTime: the bedtime guidance for the evening of `day`. `optimal_bedtime`'s offsets
 * are seconds from the midnight that ends `day` (negative: before it), `day_tz` the UTC offset
 * in seconds (the emulator's reading; the record shows only null windows, facts Addendum).
 */
export const sleepTime = defineResource({
  name: "sleep_time",
  openapiModel: "PublicSleepTime",
  kind: "daily",
  label: "Bedtime guidance",
  color: "var(--sleep)",
  sharedLabel: "Bedtime guidance",
  scope: "daily",
  schema: (k) =>
    k.document({
      optimal_bedtime: k.z.looseObject({ day_tz: k.num, start_offset: k.num, end_offset: k.num }).nullish(),
      recommendation: k.openEnum,
      status: k.openEnum,
    }),
  columns: [
    {
      name: "status",
      type: "text",
      categories: closedList([
        ["not_enough_nights", "Not enough nights yet"],
        ["not_enough_recent_nights", "Not enough recent nights"],
        ["bad_sleep_quality", "Sleep quality too low to tell"],
        ["only_recommended_found", "A recommendation"],
        ["optimal_found", "Your optimal bedtime"],
      ]),
    },
    {
      name: "recommendation",
      type: "text",
      categories: closedList([
        ["improve_efficiency", "Improve your sleep efficiency"],
        ["earlier_bedtime", "Go to bed earlier"],
        ["later_bedtime", "Go to bed later"],
        ["earlier_wake_up_time", "Wake up earlier"],
        ["later_wake_up_time", "Wake up later"],
        ["follow_optimal_bedtime", "Keep to your optimal bedtime"],
      ]),
    },
    { name: "start_offset", type: "int", from: "optimal_bedtime.start_offset" },
    { name: "end_offset", type: "int", from: "optimal_bedtime.end_offset" },
    { name: "day_tz", type: "int", from: "optimal_bedtime.day_tz" },
  ],
  metrics: {},
});
