"use client";
import { useActionState } from "react";
import type { CycleEntryAction } from "@/lib/api/contract-cycle";
import type { CycleEntry } from "@/lib/cycle";
import { formatDay } from "@/lib/days";
import { Card } from "@/components/ui/card";
import { LogPeriodButton } from "@/components/cycle/log-period-button";

const KIND_TEXT: Record<CycleEntry["kind"], string> = { period_start: "Period start", period_end: "Period end" };

/**
 * The Day page's cycle part: log a period start or end on this day, and the entries the day
 * has, each removable. Only drawn for a person with cycle tracking on; a day after today offers
 * nothing to log.
 */
export function DayCycleLog({
  day,
  entries,
  canLog,
  logAction,
  removeAction,
}: {
  day: string;
  entries: CycleEntry[];
  canLog: boolean;
  logAction: CycleEntryAction;
  removeAction: CycleEntryAction;
}) {
  const has = (kind: CycleEntry["kind"]) => entries.some((e) => e.kind === kind);
  return (
    <Card aria-labelledby="day-cycle-title" data-testid="day-cycle" className="space-y-3">
      <h2 id="day-cycle-title" className="text-base font-semibold">
        Cycle
      </h2>
      {entries.length ? (
        <ul className="space-y-1 text-sm" data-testid="day-cycle-entries">
          {entries.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center gap-3">
              <span>{KIND_TEXT[e.kind]} logged</span>
              <RemoveEntry entry={e} action={removeAction} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">Nothing logged on {formatDay(day)}.</p>
      )}
      {canLog ? (
        <div className="flex flex-wrap gap-3">
          {has("period_start") ? null : <LogPeriodButton action={logAction} day={day} kind="period_start" label="Log period start" />}
          {has("period_end") ? null : <LogPeriodButton action={logAction} day={day} kind="period_end" label="Log period end" />}
        </div>
      ) : null}
    </Card>
  );
}

/** A form that removes one entry, with its outcome. */
export function RemoveEntry({ entry, action }: { entry: CycleEntry; action: CycleEntryAction }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="inline-flex items-center gap-2">
      <input type="hidden" name="id" value={entry.id} />
      <button
        type="submit"
        disabled={pending}
        aria-label={`Remove the ${KIND_TEXT[entry.kind].toLowerCase()} of ${formatDay(entry.day, { withYear: true })}`}
        className="rounded-md px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
      >
        Remove
      </button>
      {state.error ? (
        <span role="alert" className="text-xs text-rose-700 dark:text-rose-300">
          {state.error.message}
        </span>
      ) : null}
    </form>
  );
}
