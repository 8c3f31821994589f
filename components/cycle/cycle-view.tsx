import Link from "next/link";
import type { CycleEntryAction, CycleResponse } from "@/lib/api/contract-cycle";
import { formatDay } from "@/lib/days";
import type { Units } from "@/lib/metrics/format";
import { Card, PageHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { LogPeriodButton } from "@/components/cycle/log-period-button";
import { CycleEntries } from "@/components/cycle/cycle-entries";
import { LazyCycleLengthsChart, LazyCycleTemperatureChart } from "@/components/cycle/lazy";
import { PHASE_FILL, PHASE_LABEL } from "@/components/cycle/phase";

/** The periods the view offers, in days up to today. */
export const CYCLE_VIEW_PERIODS = [
  { days: 90, label: "90 days" },
  { days: 180, label: "6 months" },
  { days: 365, label: "1 year" },
] as const;
export type CycleViewDays = (typeof CYCLE_VIEW_PERIODS)[number]["days"];

export type CycleViewActions = { log: CycleEntryAction; edit: CycleEntryAction; remove: CycleEntryAction };

/**
 * The Cycle view: today's cycle day and the one-tap log, the nights' temperature with the phases
 * shaded and ovulations marked, the cycles' lengths, and the entries to edit or remove.
 */
export function CycleView({
  cycle,
  today,
  units,
  periodDays,
  actions,
}: {
  cycle: CycleResponse;
  today: string;
  units: Units;
  periodDays: CycleViewDays;
  actions: CycleViewActions;
}) {
  const now = cycle.days.at(-1) ?? null;
  return (
    <div className="space-y-5" data-testid="cycle-view">
      <PageHeader title="Cycle" subtitle={`${formatDay(cycle.from, { withYear: true })} – ${formatDay(cycle.to, { withYear: true })}`}>
        <nav aria-label="Period" className="flex flex-wrap gap-1">
          {CYCLE_VIEW_PERIODS.map((p) => (
            <Link
              key={p.days}
              href={`/cycle?days=${p.days}`}
              prefetch={false}
              aria-current={p.days === periodDays ? "page" : undefined}
              className={cn(
                "rounded-md px-2.5 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
                p.days === periodDays
                  ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900"
                  : "border border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800",
              )}
            >
              {p.label}
            </Link>
          ))}
        </nav>
      </PageHeader>

      <Card aria-labelledby="cycle-now-title" className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <LogPeriodButton action={actions.log} label="Log period start" className="w-full sm:order-last sm:w-auto" />
          <div className="min-w-0 space-y-1">
            <h2 id="cycle-now-title" className="text-base font-semibold">
              Today, {formatDay(today)}
            </h2>
            <p className="text-sm" data-testid="cycle-now">
              {now && now.cycle_day !== null
                ? `Cycle day ${now.cycle_day} · ${PHASE_LABEL[now.phase]} phase`
                : (cycle.message ?? "Log a period start to see your cycle days.")}
            </p>
            {cycle.prediction ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">
                Next period expected {formatDay(cycle.prediction.from)} – {formatDay(cycle.prediction.to)} (± {cycle.prediction.sd_days.toFixed(1)} days from
                your own cycles)
              </p>
            ) : null}
          </div>
        </div>
      </Card>

      <Card aria-labelledby="cycle-temp-title" className="space-y-3">
        <h2 id="cycle-temp-title" className="text-base font-semibold">
          Temperature and phases
        </h2>
        <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
          {(["menstrual", "luteal"] as const).map((p) => (
            <li key={p} className="inline-flex items-center gap-1.5">
              <span aria-hidden className="h-3 w-3 rounded-[3px] border border-slate-300 dark:border-slate-600" style={{ background: PHASE_FILL[p]! }} />
              {PHASE_LABEL[p]} days
            </li>
          ))}
          <li className="inline-flex items-center gap-1.5">
            <span aria-hidden className="h-3 w-0 border-l-2 border-dashed border-slate-500" /> detected ovulation
          </li>
        </ul>
        <LazyCycleTemperatureChart cycle={cycle} units={units} />
        <p className="text-xs text-slate-600 dark:text-slate-300">
          After ovulation the nights run about 0.3 °C warmer until the next period: the luteal phase. Ringside finds that shift in your own nights.{" "}
          <a href="/docs/signals" className="underline">
            How it works
          </a>
        </p>
      </Card>

      <Card aria-labelledby="cycle-lengths-title" className="space-y-3">
        <h2 id="cycle-lengths-title" className="text-base font-semibold">
          Cycle lengths
        </h2>
        <LazyCycleLengthsChart cycles={cycle.cycles} />
      </Card>

      <Card aria-labelledby="cycle-entries-title" className="space-y-3">
        <h2 id="cycle-entries-title" className="text-base font-semibold">
          Your entries
        </h2>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          Log a start or an end on any day&rsquo;s page (from the Calendar), or today&rsquo;s start above.
        </p>
        <CycleEntries entries={cycle.entries} today={today} editAction={actions.edit} removeAction={actions.remove} />
      </Card>
    </div>
  );
}
