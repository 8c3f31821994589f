import { withUser, parseQuery } from "@/lib/api/handler";
import { getCorrelationQuerySchema } from "@/lib/api/schemas";
import { getMetric } from "@/lib/metrics/catalog";
import { addDays } from "@/lib/metrics/days";
import { dayAt, toDense, type DayValue } from "@/lib/metrics/series";
import { pearson, correlationStrength } from "@/lib/metrics/stats";
import { getMetricValues } from "@/lib/db/queries/metrics";

// GET /api/correlations?x&y&lag&from&to – scatter points of x on a day against y on the same
// day (lag 0) or the next (lag 1), with Pearson's r, n and the least-squares line
export const GET = withUser(async ({ user, searchParams }) => {
  const { x, y, lag, from, to } = parseQuery(searchParams, getCorrelationQuerySchema);
  const mx = getMetric(x);
  const my = getMetric(y);
  const yTo = addDays(to, lag);
  const xs = toDense(getMetricValues({ userId: user.id, metric: mx, from, to }) as DayValue<number | null>[], from, to);
  const ysAll = toDense(getMetricValues({ userId: user.id, metric: my, from, to: yTo }) as DayValue<number | null>[], from, yTo);
  const ys = ysAll.slice(lag, lag + xs.length);
  const points: Array<{ day: string; x: number; y: number }> = [];
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i];
    const b = ys[i];
    if (a !== null && a !== undefined && b !== null && b !== undefined) points.push({ day: dayAt(from, i), x: a, y: b });
  }
  const correlation = pearson(xs, ys);
  return Response.json({
    x,
    y,
    lag,
    from,
    to,
    points,
    correlation: correlation ? { ...correlation, strength: correlationStrength(correlation.r) } : null,
  });
});
