// "A metric outside its usual range for N days in a row": the newest day with a value and the
// N − 1 days before it each lie outside their baseline band (mean ± 2 SD of the 90 days before
// each), on the same side, with no gap; `side` below/above/either picks which side counts.
import { z } from "zod";
import { clampToMetric, findMetric, getMetric, isNumericMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { addDays, formatDay } from "@/lib/days";
import { formatValue } from "@/lib/metrics/format";
import { toDense, type DayValue } from "@/lib/metrics/series";
import { BASELINE_DAYS, computeSeriesStats, type AnomalyFlag } from "@/lib/metrics/stats";
import { METRIC_STALE_DAYS, type Condition } from "@/lib/alerts/condition";
import { link, plural, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

/** Which side of the usual range a metric rule watches. */
export const METRIC_SIDES = ["below", "above", "either"] as const;
const SIDE_LABELS: Record<(typeof METRIC_SIDES)[number], string> = { below: "below", above: "above", either: "below or above" };

/** Days in a row outside the range. */
export const METRIC_DAYS = { min: 1, max: 14, default: 3 };

export const metricRuleParamsSchema = z.object({
  metric: z
    .string()
    .max(64)
    .refine((id) => {
      const m = findMetric(id);
      return !!m && isNumericMetric(m);
    }, "Choose a metric with numbers.")
    .transform((id) => id as MetricId),
  side: z.enum(METRIC_SIDES, { message: "Choose below, above or either." }),
  days: intIn(METRIC_DAYS, "Days in a row"),
});
export type MetricRuleParams = z.infer<typeof metricRuleParamsSchema>;

/** The days of rows a metric rule needs before `today`: the run, the baseline before it, slack for gaps. */
export function metricRuleWindow(today: string, days: number): { from: string; to: string } {
  return { from: addDays(today, -(BASELINE_DAYS + days + METRIC_STALE_DAYS + 7)), to: today };
}

export type MetricFacts = {
  side: "low" | "high";
  /** first and last day of the run of out-of-range days */
  from: string;
  to: string;
  /** days in the run (≥ the rule's days) */
  days: number;
  latest: number;
  /** the usual range of the latest day (clipped to the metric's natural bounds) */
  low: number;
  high: number;
};

export function evaluateMetricRule(
  metric: MetricDef,
  params: Pick<MetricRuleParams, "side" | "days">,
  rows: readonly DayValue<number | null>[],
  today: string,
): Condition<MetricFacts> {
  const { from } = metricRuleWindow(today, params.days);
  const dense = toDense(rows, from, today);
  let last = dense.length - 1;
  while (last >= 0 && (dense[last] === null || dense[last] === undefined)) last--;
  if (last < 0 || dense.length - 1 - last > METRIC_STALE_DAYS) return { state: "unknown" };
  const stats = computeSeriesStats(dense);
  const flag: AnomalyFlag = stats.flag[last] ?? null;
  if (flag === null) return stats.baseMean[last] === null ? { state: "unknown" } : { state: "inactive" };
  const wanted = params.side === "either" || (params.side === "below" ? flag === "low" : flag === "high");
  if (!wanted) return { state: "inactive" };
  let first = last;
  while (first - 1 >= 0 && stats.flag[first - 1] === flag) first--;
  const run = last - first + 1;
  if (run < params.days) return { state: "inactive" };
  const low = stats.baseLow[last];
  const high = stats.baseHigh[last];
  return {
    state: "active",
    key: flag,
    facts: {
      side: flag,
      from: addDays(from, first),
      to: addDays(from, last),
      days: run,
      latest: dense[last] as number,
      low: low === null || low === undefined ? Number.NaN : clampToMetric(metric, low),
      high: high === null || high === undefined ? Number.NaN : clampToMetric(metric, high),
    },
  };
}

export function metricAlertMessage(metric: MetricDef, facts: MetricFacts, ctx: MessageContext): AlertMessage {
  const side = facts.side === "low" ? "below" : "above";
  const url = link(ctx, `/trends?m=${encodeURIComponent(metric.id)}&range=30d`);
  let body =
    `${metric.label} has been ${side} your usual range for ${plural(facts.days, "day")} in a row ` + `(${formatDay(facts.from)} – ${formatDay(facts.to)}).`;
  if (ctx.includeValues) {
    const usual = `${formatValue(metric, facts.low, ctx.units)} – ${formatValue(metric, facts.high, ctx.units)}`;
    body += ` Latest: ${formatValue(metric, facts.latest, ctx.units)}; usual range ${usual}.`;
  }
  return {
    title: `${metric.label} ${side} your usual range`,
    body: withLink(body, url),
    link: url,
    data: {
      metric: metric.id,
      side,
      from: facts.from,
      to: facts.to,
      days: facts.days,
      ...(ctx.includeValues ? { values: { latest: facts.latest, usual_low: facts.low, usual_high: facts.high } } : {}),
    },
  };
}

export const metricOutOfRange = defineAlertKind({
  kind: "metric_out_of_range",
  label: "A metric outside its usual range",
  params: metricRuleParamsSchema,
  form: {
    fields: [
      { type: "metric", name: "metric", label: "Metric", default: "readiness.score" },
      {
        type: "select",
        name: "side",
        label: "Side of the usual range",
        options: METRIC_SIDES.map((s) => ({ value: s, label: SIDE_LABELS[s] })),
        default: "below",
      },
      { type: "number", name: "days", label: "Days in a row", range: METRIC_DAYS, hint: `${METRIC_DAYS.min}–${METRIC_DAYS.max}` },
    ],
    note: "The usual range is the band on the Trends charts: your 90-day average ± 2 standard deviations.",
  },
  describe(params) {
    const side = params.side === "below" ? "below" : params.side === "above" ? "above" : "outside";
    return `${findMetric(params.metric)?.label ?? params.metric} ${side} the usual range ${plural(params.days, "day")} in a row`;
  },
  watch: {
    type: "condition",
    async evaluate(params, env) {
      const metric = getMetric(params.metric);
      const w = metricRuleWindow(env.today, params.days);
      return evaluateMetricRule(metric, params, await env.facts.metricRows(env.userId, metric.id, w.from, w.to), env.today);
    },
  },
  message: (facts: MetricFacts, ctx, params) => metricAlertMessage(getMetric(params.metric), facts, ctx),
  digest: null,
});
