// The Correlations page's state as the URL gives it (?x&y&lag&range): parsed the same way on
// the server page (which prefetches the pair) and in the client. Pure.
import { numericMetricIdOr, type MetricId } from "@/lib/metrics/catalog";
import { isRangePreset, type RangePreset } from "@/lib/metrics/ranges";

export const CORRELATION_PRESETS: RangePreset[] = ["90d", "1y", "all", "custom"];

export type CorrelationsInitial = { x: string | null; y: string | null; lag: string | null; range: string | null };
export type CorrelationsState = { x: MetricId; y: MetricId; lag: 0 | 1; range: RangePreset };

export function parseCorrelationsState(initial: CorrelationsInitial): CorrelationsState {
  return {
    x: numericMetricIdOr(initial.x, "activity.steps"),
    y: numericMetricIdOr(initial.y, "sleep.score"),
    lag: initial.lag === "0" ? 0 : 1,
    range: isRangePreset(initial.range) && CORRELATION_PRESETS.includes(initial.range) ? initial.range : "1y",
  };
}
