"use client";
import { addDays } from "@/lib/days";
import { useSignals } from "@/components/hooks/use-signals";
import { TrainingLoadCard } from "@/components/signals/training-load-card";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";

/** Weeks of training load the Workouts page shows. */
const LOAD_DAYS = 90;

/** The Workouts page's training load, the last 90 days up to `to`. */
export function WorkoutsSignals({ to }: { to: string }) {
  const q = useSignals(addDays(to, -(LOAD_DAYS - 1)), to);
  if (q.isPending) return <Skeleton className="h-56" />;
  if (q.isError) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  return <TrainingLoadCard days={q.data.days} />;
}
