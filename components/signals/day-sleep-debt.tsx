"use client";
import { formatDuration } from "@/lib/metrics/format";
import type { SleepDebtSignal } from "@/lib/signals/signal-days";
import { SLEEP_DEBT } from "@/lib/signals/sleep-debt";
import { signalDocsHref, SIGNALS } from "@/lib/signals/catalog";
import { useSignals } from "@/components/hooks/use-signals";
import { SleepNeedLine } from "@/components/signals/sleep-debt-card";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** The Day view's sleep debt: that day's debt and the need it was measured against (its range and source). */
export function DaySleepDebt({ day }: { day: string }) {
  const q = useSignals(day, day);
  if (q.isPending) return <Skeleton className="h-24" />;
  // the rest of the day does not depend on it: a failed read shows nothing here
  const debt = q.data?.days.at(-1)?.signals.find((s): s is SleepDebtSignal => s.kind === "sleep_debt");
  if (!debt) return null;
  return (
    <Card aria-labelledby="day-sleep-debt-title" data-testid="day-sleep-debt" className="space-y-1">
      <h2 id="day-sleep-debt-title" className="text-base font-semibold">
        {SIGNALS.sleep_debt.label}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {debt.value === null ? (
          `Needs ${SLEEP_DEBT.minNights} of the ${SLEEP_DEBT.nights} nights up to this day; ${debt.inputs.nightsWithData} had data.`
        ) : (
          <>
            <span className="font-medium tabular-nums text-slate-900 dark:text-slate-100" data-testid="day-sleep-debt-value">
              {debt.baseline.needAtLeast ? "at least " : ""}
              {formatDuration(debt.value * 3600)}
            </span>{" "}
            owed over the {SLEEP_DEBT.nights} nights up to this day.
          </>
        )}{" "}
        <SleepNeedLine signal={debt} />{" "}
        <a href={signalDocsHref(SIGNALS.sleep_debt.anchor)} className="underline decoration-dotted underline-offset-2">
          How this is worked out
        </a>
      </p>
    </Card>
  );
}
