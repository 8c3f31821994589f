import type { Metadata } from "next";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { requireUser } from "@/lib/auth/session";
import { getTodaySummary } from "@/lib/services/metrics";
import { env } from "@/lib/env.mjs";
import { TodayClient } from "@/app/(app)/today-client";
import { queryKeys } from "@/lib/api/contract";

export const metadata: Metadata = { title: "Today" };

// Today: the newest day of each collection. The summary is prefetched here (same function as
// GET /api/days/latest) so the first paint already has its numbers and sparklines.
export default async function TodayPage() {
  const user = await requireUser();
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({ queryKey: queryKeys.today, queryFn: () => getTodaySummary(user.id) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TodayClient isDemo={env.RINGSIDE_DEMO} />
    </HydrationBoundary>
  );
}
