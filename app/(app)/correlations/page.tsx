import type { Metadata } from "next";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { requireUser } from "@/lib/services/auth/session";
import { queryKeys } from "@/lib/api/contract";
import { getMetric } from "@/lib/metrics/catalog";
import { decodePoints } from "@/lib/metrics/columns";
import { todayIn } from "@/lib/days";
import { resolveRange } from "@/lib/metrics/ranges";
import { getCorrelationColumns, getMetricsOverview, getStrongestCorrelations } from "@/lib/services/metrics";
import { parseCorrelationsState } from "@/components/dashboard/correlations-state";
import { CorrelationsClient } from "@/app/(app)/correlations/correlations-client";
import { Providers } from "@/app/providers";

export const metadata: Metadata = { title: "Correlations" };

// Correlations: the URL carries the pair, the lag and the range. The pair's points and the
// strongest relationships (computed once per data version) are prefetched here, as the hooks
// would decode GET /api/correlations and GET /api/correlations/strongest, so the scatter
// draws without a round trip after hydration.
export default async function CorrelationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  const initial = { x: one(sp.x), y: one(sp.y), lag: one(sp.lag), range: one(sp.range) };
  const state = parseCorrelationsState(initial);
  const overview = await getMetricsOverview(user.id);
  const qc = new QueryClient();
  qc.setQueryData(queryKeys.metricsOverview, overview);
  if (overview.lastDay && state.range !== "custom") {
    const { from, to } = resolveRange(state.range, overview, todayIn());
    const pair = await getCorrelationColumns({ userId: user.id, x: getMetric(state.x), y: getMetric(state.y), lag: state.lag, from, to });
    qc.setQueryData(queryKeys.correlation(state.x, state.y, state.lag, from, to), { ...pair, points: decodePoints(pair.points, pair.from) });
    qc.setQueryData(queryKeys.strongest(from, to), await getStrongestCorrelations({ userId: user.id, from, to, limit: 12 }));
  }
  return (
    <Providers>
      <HydrationBoundary state={dehydrate(qc)}>
        <CorrelationsClient initial={initial} />
      </HydrationBoundary>
    </Providers>
  );
}
