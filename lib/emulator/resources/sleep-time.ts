// Bedtime guidance (sleep_time)
//
// `day` D is the guidance for the bedtime of the evening of D (tonight); start_offset and
// end_offset are seconds relative to the local midnight that ends D (negative = before it), the
// convention of the sleep periods' bedtimes relative to their wake-up day. day_tz is the UTC
// offset in seconds.
import { hashUnit, rngFor, uuidFor } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { HOUR, MIN } from "../generator/local-time";
import type { DayDocs } from "../generator/types";
import { activityOf, localSecondsFrom, longSleep, num } from "./read";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

export function sleepTime(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const base = src.base(idx);
  if (!activityOf(base) && base.sleep.length === 0) return [];
  // the service leaves a day without guidance now and then; a test person worn every day
  // (wear "always") has it every day it wore the ring, so a test can edit that day's guidance
  if (src.opts.wear !== "always" && hashUnit(src.prefix, "ext", "sleep_time-missing", idx) < 0.04) return [];
  const nights: Array<{ k: number; bed: number; efficiency: number | null }> = [];
  for (let k = 0; k < 14; k++) {
    if (k === 0) {
      const s = longSleep(current);
      const bed = s ? localSecondsFrom(idx, s.bedtime_start) : null;
      if (s && bed !== null) nights.push({ k, bed, efficiency: num(s.efficiency) });
      continue;
    }
    const n = src.night(idx - k);
    if (n) nights.push({ k, ...n });
  }
  const r = rngFor(src.prefix, "ext", "sleep_time", idx);
  const uStatus = r.next();
  let status: string;
  let window: { day_tz: number; end_offset: number; start_offset: number } | null = null;
  let recommendation: string | null = null;
  const recent = nights.filter((n) => n.k <= 2);
  const effs = recent.map((n) => n.efficiency).filter((e): e is number => e !== null);
  const meanBed = nights.length > 0 ? nights.reduce((a, n) => a + n.bed, 0) / nights.length : 0;
  const lastBed = nights.find((n) => n.k === 0)?.bed ?? null;
  if (nights.length < 5) status = "not_enough_nights";
  else if (recent.length < 2) status = "not_enough_recent_nights";
  else if (effs.length > 0 && effs.reduce((a, e) => a + e, 0) / effs.length < 80) {
    status = "bad_sleep_quality";
    recommendation = "improve_efficiency";
  } else if (uStatus < 0.58) {
    status = "optimal_found";
    const quarter = 15 * MIN;
    const start = Math.round((meanBed - 30 * MIN) / quarter) * quarter;
    window = { day_tz: src.offsetMinutes * MIN, end_offset: start + HOUR, start_offset: start };
    recommendation =
      lastBed === null
        ? "follow_optimal_bedtime"
        : lastBed < start - quarter
          ? "later_bedtime"
          : lastBed > start + HOUR + quarter
            ? "earlier_bedtime"
            : "follow_optimal_bedtime";
  } else {
    status = "only_recommended_found";
    recommendation =
      lastBed !== null && lastBed > meanBed + 20 * MIN ? "earlier_bedtime" : lastBed !== null && lastBed < meanBed - 40 * MIN ? "later_bedtime" : null;
  }
  return [{ id: uuidFor(src.prefix, "ext", "sleep_time", idx), day: indexToDay(idx), optimal_bedtime: window, recommendation, status }];
}
