"use client";
import { useActionState } from "react";
import type { CycleEntryAction } from "@/lib/api/contract-cycle";
import { CYCLE_ENTRY_KINDS, type CycleEntry } from "@/lib/cycle";
import { formatDay } from "@/lib/days";
import { inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { RemoveEntry } from "@/components/cycle/day-cycle-log";

const KIND_LABEL: Record<CycleEntry["kind"], string> = { period_start: "Period start", period_end: "Period end" };

/** The period starts and ends the person logged, newest first, each with its day and kind to edit and a "Remove". */
export function CycleEntries({
  entries,
  today,
  editAction,
  removeAction,
}: {
  entries: CycleEntry[];
  today: string;
  editAction: CycleEntryAction;
  removeAction: CycleEntryAction;
}) {
  if (!entries.length) return <p className="text-sm text-slate-600 dark:text-slate-300">No period logged in this period yet.</p>;
  return (
    <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800" data-testid="cycle-entries">
      {[...entries]
        .sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0))
        .map((e) => (
          <li key={e.id} data-testid="cycle-entry" data-day={e.day} data-kind={e.kind} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="font-medium">
              {KIND_LABEL[e.kind]}, {formatDay(e.day, { withYear: true })}
            </span>
            <span className="flex flex-wrap items-center gap-2">
              <EditEntry entry={e} today={today} action={editAction} />
              <RemoveEntry entry={e} action={removeAction} />
            </span>
          </li>
        ))}
    </ul>
  );
}

function EditEntry({ entry, today, action }: { entry: CycleEntry; today: string; action: CycleEntryAction }) {
  const [state, formAction, pending] = useActionState(action, {});
  const what = `${KIND_LABEL[entry.kind].toLowerCase()} of ${formatDay(entry.day, { withYear: true })}`;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer rounded-md px-2 py-1 font-medium text-brand-700 dark:text-brand-100">Edit</summary>
      <form action={formAction} className="mt-1 flex flex-wrap items-center gap-2">
        <input type="hidden" name="id" value={entry.id} />
        <input type="date" name="day" defaultValue={entry.day} max={today} required aria-label={`Day of the ${what}`} className={inputClass} />
        <select name="kind" defaultValue={entry.kind} aria-label={`Kind of the ${what}`} className={inputClass}>
          {CYCLE_ENTRY_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
            </option>
          ))}
        </select>
        <button
          type="submit"
          disabled={pending}
          className={cn(
            "rounded-lg bg-brand-600 px-2.5 py-1 font-medium text-white hover:bg-brand-700",
            "focus-visible:outline-2 focus-visible:outline-brand-600",
          )}
        >
          Save
        </button>
        {state.error ? (
          <span role="alert" className="text-rose-700 dark:text-rose-300">
            {state.error.message}
          </span>
        ) : null}
      </form>
    </details>
  );
}
