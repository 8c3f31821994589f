// Today's signal cards for the newest day with data: early warning, sleep debt, regularity.
// Drawn on the server: the page starts computing the signals and hands the promise over, and
// the cards stream in inside a Suspense boundary (TodaySignalsSkeleton), so the rest of the
// page does not wait for them. null: they could not be computed (the page logged why).
import type { Units } from "@/lib/metrics/format";
import type { SignalsResponse } from "@/lib/api/contract";
import type { EarlyWarningSignal, RegularitySignal, SleepDebtSignal } from "@/lib/signals/signal-days";
import { EarlyWarningCard } from "@/components/signals/early-warning-card";
import { RegularityCard } from "@/components/signals/regularity-card";
import { SleepDebtCard } from "@/components/signals/sleep-debt-card";
import { RefreshButton } from "@/components/ui/refresh-button";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";

/** Days of early-warning levels shown under the card (the page asks for the signals of these days). */
export const RECENT_NIGHTS = 14;

/** The cards' place while the signals are computed. */
export function TodaySignalsSkeleton() {
  return (
    <div className="grid gap-4 lg:grid-cols-3" role="status" aria-label="Loading signals">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-64" />
      ))}
    </div>
  );
}

export async function TodaySignals({ signals, units }: { signals: Promise<SignalsResponse | null>; units: Units }) {
  const data = await signals;
  if (!data) return <ErrorState error={null} retry={<RefreshButton />} />;
  const last = data.days.at(-1);
  if (!last) return null;
  const ew = last.signals.find((s): s is EarlyWarningSignal => s.kind === "early_warning");
  const debt = last.signals.find((s): s is SleepDebtSignal => s.kind === "sleep_debt");
  const reg = last.signals.find((s): s is RegularitySignal => s.kind === "regularity");
  const recent = data.days.map((d) => {
    const e = d.signals.find((s): s is EarlyWarningSignal => s.kind === "early_warning");
    return { day: d.day, level: e?.level ?? null };
  });
  return (
    <section aria-labelledby="signals-title" data-testid="today-signals">
      <h2 id="signals-title" className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-200">
        Signals <span className="font-normal text-slate-500 dark:text-slate-400">· worked out from your own history, with their numbers and sources</span>
      </h2>
      <div className="grid gap-4 lg:grid-cols-3">
        {ew ? <EarlyWarningCard day={last.day} signal={ew} recent={recent} units={units} /> : null}
        {debt ? <SleepDebtCard day={last.day} signal={debt} /> : null}
        {reg ? <RegularityCard signal={reg} /> : null}
      </div>
    </section>
  );
}
