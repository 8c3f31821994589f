import type { Metadata } from "next";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { requireUser } from "@/lib/services/auth/session";
import { getMetric } from "@/lib/metrics/catalog";
import { todayIn } from "@/lib/days";
import { resolveRange } from "@/lib/metrics/ranges";
import { getMetricsOverview, getSeriesColumns } from "@/lib/services/metrics";
import { decodeSeries } from "@/lib/metrics/columns";
import { parseTrendsState } from "@/components/dashboard/trends-state";
import { TrendsClient } from "@/app/(app)/trends/trends-client";
import { queryKeys } from "@/lib/api/contract";
import { Providers } from "@/app/providers";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import { historyDownloading } from "@/lib/services/history";
import { EMPTY_WHILE_DOWNLOADING, HistoryDownloading } from "@/components/ui/history-downloading";

export const metadata: Metadata = { title: "Trends" };

// Trends: any metrics over a range. The URL carries the view; the first panel's series is
// prefetched here (the same answer as GET /api/metrics/:metric, as the hook decodes it) so it draws without a round trip.
export default async function TrendsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const state = parseTrendsState(await searchParams);
  const [overview, cycle, downloading] = await Promise.all([getMetricsOverview(user.id), getCycleSettings(user.id), historyDownloading(user.id)]);
  const { from, to } = resolveRange(state.range, overview, todayIn(), { from: state.from, to: state.to });
  const qc = new QueryClient();
  qc.setQueryData(queryKeys.metricsOverview, overview);
  const first = state.metrics[0];
  if (first && overview.lastDay) {
    qc.setQueryData(queryKeys.metricSeries(first, from, to), decodeSeries(await getSeriesColumns({ userId: user.id, metric: getMetric(first), from, to })));
  }
  return (
    <Providers>
      <HistoryDownloading downloading={downloading} />
      <HydrationBoundary state={dehydrate(qc)}>
        <TrendsClient initial={state} cycleTracking={cycle.tracking} emptyReason={downloading ? EMPTY_WHILE_DOWNLOADING : null} />
      </HydrationBoundary>
    </Providers>
  );
}
