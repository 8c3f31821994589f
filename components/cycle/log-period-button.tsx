"use client";
import { useActionState } from "react";
import type { CycleEntryAction } from "@/lib/api/contract-cycle";
import type { CycleEntryKind } from "@/lib/cycle";
import { formatDay } from "@/lib/days";
import { cn } from "@/components/ui/cn";

const DONE: Record<CycleEntryKind, string> = { period_start: "Period start logged", period_end: "Period end logged" };

/**
 * One tap logs a period start (or end): a form on a server action, so it works before the page
 * has hydrated too. Without `day` the action logs the person's today. Says what it logged, or why not.
 */
export function LogPeriodButton({
  action,
  label,
  day,
  kind = "period_start",
  className,
}: {
  action: CycleEntryAction;
  label: string;
  day?: string;
  kind?: CycleEntryKind;
  className?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className={cn("space-y-1", className)}>
      {day ? <input type="hidden" name="day" value={day} /> : null}
      <input type="hidden" name="kind" value={kind} />
      <button
        type="submit"
        disabled={pending}
        className={cn(
          "inline-flex min-h-11 w-full items-center justify-center rounded-lg bg-rose-700 px-4 py-2 text-sm font-semibold text-white sm:w-auto",
          "hover:bg-rose-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-rose-700 disabled:opacity-60",
        )}
      >
        {pending ? "Logging…" : label}
      </button>
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300" data-testid="cycle-log-status">
        {state.error ? (
          <span className="text-rose-700 dark:text-rose-300">{state.error.message}</span>
        ) : state.entry ? (
          `${DONE[state.entry.kind]}: ${formatDay(state.entry.day, { withYear: true })}.`
        ) : (
          ""
        )}
      </p>
    </form>
  );
}
