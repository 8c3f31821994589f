// The sleep need in words, as the card, the Day view and the report (page and PDF) say it: the
// need, its range and its source, and why when it could not be estimated. Pure, safe in the
// browser.
import { formatDuration } from "@/lib/metrics/format";
import type { SleepDebtSignal } from "@/lib/signals/signal-days";
import { SLEEP_NEED } from "@/lib/signals/sleep-need";

/** The need's facts as a sleep-debt row's baseline carries them (the report's summary carries the same). */
type NeedBaseline = Pick<SleepDebtSignal["baseline"], "needH" | "needSource" | "needNights" | "needRange" | "needAtLeast" | "needSourceText">;

const hours = (h: number) => formatDuration(Math.round(h * 60) * 60);

/** The need and its range: "7 h 20 min (7 h 05 min – 7 h 40 min)", "at least 7 h 50 min", "8 h 00 min". */
export function needValueWords(b: NeedBaseline): string {
  if (b.needAtLeast) return `at least ${hours(b.needH)}`;
  if (b.needRange) return `${hours(b.needH)} (${hours(b.needRange.lowH)} – ${hours(b.needRange.highH)})`;
  return hours(b.needH);
}

/** The need, its range and its source: "7 h 20 min (7 h 05 min – 7 h 40 min), estimated from 84 nights". */
export function needWords(b: NeedBaseline): string {
  return `${needValueWords(b)}, ${b.needSourceText}`;
}

/** Why the need is what it is, where that needs saying (null for a plain estimate or the setting). */
export function needNote(b: NeedBaseline): string | null {
  if (b.needAtLeast)
    return (
      "Your nights never reached the point where more sleep stops helping: " +
      "your need is at least the longest of your well-rested nights, and the debt at least what it shows."
    );
  if (b.needSource !== "default") return null;
  if (b.needNights < SLEEP_NEED.minNights)
    return `Estimating your need takes ${SLEEP_NEED.minNights} nights with sleep and readiness in the last ${SLEEP_NEED.windowDays}; ${b.needNights} so far.`;
  return "Your readiness did not follow your sleep closely enough to tell your need.";
}
