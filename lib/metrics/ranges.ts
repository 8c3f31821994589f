// Named time ranges (7d … all) → concrete [from, to] days, ending on the newest day with data.
import { addDays, diffDays, isDayInWindow, maxDay, MAX_RANGE_DAYS } from "@/lib/days";

export const RANGE_PRESETS = ["7d", "30d", "90d", "1y", "all", "custom"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const RANGE_LABELS: Record<RangePreset, string> = { "7d": "7 d", "30d": "30 d", "90d": "90 d", "1y": "1 y", all: "All", custom: "Custom" };
const LENGTH: Record<Exclude<RangePreset, "all" | "custom">, number> = { "7d": 7, "30d": 30, "90d": 90, "1y": 365 };

export function isRangePreset(s: unknown): s is RangePreset {
  return typeof s === "string" && (RANGE_PRESETS as readonly string[]).includes(s);
}

/**
 * The days a preset covers. Ranges end on the newest day with data (or `today` before the
 * first sync); "all" starts at the oldest day; "custom" uses from/to when both are valid (in the
 * day window, in order, at most MAX_RANGE_DAYS long). No range is ever longer than that.
 */
export function resolveRange(
  preset: RangePreset,
  data: { firstDay: string | null; lastDay: string | null },
  today: string,
  custom?: { from?: string | null; to?: string | null },
): { from: string; to: string } {
  const end = data.lastDay ?? today;
  if (
    preset === "custom" &&
    isDayInWindow(custom?.from) &&
    isDayInWindow(custom?.to) &&
    custom.from <= custom.to &&
    diffDays(custom.from, custom.to) < MAX_RANGE_DAYS
  ) {
    return { from: custom.from, to: custom.to };
  }
  if (preset === "all") {
    const from = data.firstDay && data.firstDay < end ? data.firstDay : addDays(end, -29);
    return { from: maxDay(from, addDays(end, -(MAX_RANGE_DAYS - 1))), to: end };
  }
  const len = preset === "custom" ? 90 : LENGTH[preset];
  return { from: addDays(end, -(len - 1)), to: end };
}
