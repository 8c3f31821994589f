// GET /api/cycle and /api/v1/cycle?from&to: the days of the person's cycle. A missing end is 29
// days from the other (both missing: the last 30 days up to today, UTC); at most CYCLE_MAX_DAYS
// days; a bad day, `to` before `from` or a longer period is a 422 naming the parameter.
import { clock } from "@/lib/clock";
import { addDays, diffDays, isDay, utcDay } from "@/lib/days";
import { DEFAULT_RANGE_DAYS, withDayRange } from "@/lib/schemas/requests";

/** The longest period the cycle is read for at once (as the signals: a year and a day). */
export const CYCLE_MAX_DAYS = 366;

export const cycleQuerySchema = withDayRange({})
  .superRefine((v, ctx) => {
    if (v.from && v.to && isDay(v.from) && isDay(v.to) && diffDays(v.from, v.to) + 1 > CYCLE_MAX_DAYS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `at most ${CYCLE_MAX_DAYS} days of the cycle at a time` });
    }
  })
  .transform((v) => {
    const span = DEFAULT_RANGE_DAYS - 1;
    if (v.from && v.to) return { from: v.from, to: v.to };
    if (v.from) return { from: v.from, to: addDays(v.from, span) };
    const to = v.to ?? utcDay(clock.now());
    return { from: addDays(to, -span), to };
  });
