import Link from "next/link";
import type { CycleEntryAction, CycleToday } from "@/lib/api/contract-cycle";
import { formatDay } from "@/lib/days";
import { Card } from "@/components/ui/card";
import { LogPeriodButton } from "@/components/cycle/log-period-button";
import { PHASE_LABEL, PHASE_SWATCH } from "@/components/cycle/phase";

/**
 * Today's Cycle card: the one-tap "Log period start" first, then the cycle day, the phase and
 * the next period window (or why there are none: paused, or no start logged yet), and the way
 * to the Cycle view. Only drawn for a person with cycle tracking on.
 */
export function CycleCard({ today, message, logAction }: { today: CycleToday | null; message: string | null; logAction: CycleEntryAction }) {
  return (
    <Card aria-labelledby="cycle-title" data-testid="cycle-card" className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        {/* first in the page's order (on a phone the first thing on Today), drawn on the right from sm up */}
        <LogPeriodButton action={logAction} label="Log period start" className="w-full sm:order-last sm:w-auto" />
        <div className="min-w-0 space-y-1">
          <h2 id="cycle-title" className="flex items-center gap-2 text-base font-semibold">
            <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ background: PHASE_SWATCH.menstrual }} />
            Cycle
          </h2>
          {today ? (
            <>
              <p className="text-sm" data-testid="cycle-today">
                {today.cycle_day !== null ? (
                  <>
                    <span className="font-semibold tabular-nums">Day {today.cycle_day}</span> · {PHASE_LABEL[today.phase]} phase
                  </>
                ) : (
                  (message ?? "Log a period start to see your cycle days.")
                )}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="cycle-next">
                {today.next_period
                  ? `Next period expected ${formatDay(today.next_period.from)} – ${formatDay(today.next_period.to)}`
                  : "No prediction yet: it needs a few cycles."}
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="cycle-today">
              {message ?? "No cycle days to show."}
            </p>
          )}
          <Link href="/cycle" prefetch={false} className="inline-block text-sm font-medium text-brand-700 underline dark:text-brand-100">
            Open the cycle view
          </Link>
        </div>
      </div>
    </Card>
  );
}
