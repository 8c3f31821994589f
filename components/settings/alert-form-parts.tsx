"use client";

// The pieces every form of Settings → Alerts is built from (app/(app)/settings/actions-alerts.ts
// runs them; the page hands the actions down as `AlertActions`): the button styles, a server action run from a form's submit event, a labelled field, the
// outcome line, a time in the browser's zone, and a rule's or channel's row buttons.
import { startTransition, useActionState, useId, type FormEvent, type ReactNode } from "react";
import { useHydrated } from "@/components/hooks/use-hydrated";
import type { AlertFormAction, AlertFormState, FormAction } from "@/lib/api/contract";
import { cn } from "@/components/ui/cn";

/** The server actions of Settings → Alerts (the page passes them; their names are the actions' own). */
export type AlertActions = {
  saveAlertSettingsAction: AlertFormAction;
  addAlertRuleAction: AlertFormAction;
  sendAlertRuleTestAction: AlertFormAction;
  toggleAlertRuleAction: FormAction;
  removeAlertRuleAction: FormAction;
  addAlertChannelAction: AlertFormAction;
  sendAlertTestAction: AlertFormAction;
  confirmAlertChannelAction: AlertFormAction;
  resendAlertConfirmationAction: AlertFormAction;
  toggleAlertChannelAction: FormAction;
  removeAlertChannelAction: FormAction;
};

const buttonClass =
  "inline-flex items-center justify-center rounded-lg px-3 py-1.5 text-sm font-medium " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60";
export const primary = `${buttonClass} bg-brand-600 text-white hover:bg-brand-700`;
export const secondary =
  `${buttonClass} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 ` +
  "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";
export const small = "rounded-md px-2 py-1 text-xs font-medium";

/**
 * A server action run from a form's submit event: unlike `<form action>`, React does not reset
 * the form afterwards, so what the person typed stays when the server refuses it (and a
 * controlled select never drifts from its state). Forms that should start empty after success
 * are remounted with a new key instead.
 */
export function useFormAction(action: AlertFormAction) {
  const [state, dispatch, pending] = useActionState(action, {});
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(() => dispatch(form));
  };
  return { state, onSubmit, pending };
}

/** A form's submit button, usable once the page has hydrated (`useHydrated`). */
export function Submit({ label, pending, busy, className = primary }: { label: string; pending: string; busy: boolean; className?: string }) {
  const hydrated = useHydrated();
  const disabled = busy || !hydrated;
  return (
    <button type="submit" disabled={disabled} aria-disabled={disabled} className={className}>
      {busy ? pending : label}
    </button>
  );
}

/** A labelled field (label bound by id, so its name is the label alone), with an optional hint. */
export function FieldBox({ label, hint, className, children }: { label: string; hint?: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={cn("flex min-w-0 flex-col gap-1 text-sm", className)}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children(id)}
      {hint ? <span className="text-xs text-slate-500 dark:text-slate-400">{hint}</span> : null}
    </div>
  );
}

export function Status({ state, testId }: { state: AlertFormState; testId?: string }) {
  if (state.error)
    return (
      <p role="alert" data-testid={testId} className="text-sm text-rose-700 dark:text-rose-300">
        {state.error.message}
      </p>
    );
  return (
    <p role="status" data-testid={testId} className="text-sm text-slate-600 dark:text-slate-300">
      {state.message ?? ""}
    </p>
  );
}

/** "Send a test" for a rule or a channel (its form runs the test action through useFormAction). */
export function TestButton({ id, onSubmit, busy }: { id: string; onSubmit: (e: FormEvent<HTMLFormElement>) => void; busy: boolean }) {
  return (
    <form onSubmit={onSubmit}>
      <input type="hidden" name="id" value={id} />
      <Submit
        label="Send a test"
        pending="Sending…"
        busy={busy}
        className={cn(small, "border border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800")}
      />
    </form>
  );
}

/** A rule's or a channel's "Switch off/on" and "Remove" (server actions that take its id). */
export function SwitchAndRemove({ id, enabled, toggle, remove }: { id: string; enabled: boolean; toggle: FormAction; remove: FormAction }) {
  return (
    <>
      <form action={toggle}>
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="enabled" value={String(!enabled)} />
        <button type="submit" className={cn(small, "hover:bg-slate-100 dark:hover:bg-slate-800")}>
          {enabled ? "Switch off" : "Switch on"}
        </button>
      </form>
      <form action={remove}>
        <input type="hidden" name="id" value={id} />
        <button type="submit" className={cn(small, "text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-950")}>
          Remove
        </button>
      </form>
    </>
  );
}

/** A time in the browser's locale and zone (the server's rendering may differ: not a hydration error). */
export function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

/**
 * A titled list of Settings → Alerts (rules, channels, history): the heading, the `empty` text
 * or the rows, and then, with `add`, its form while there are fewer than `max` (else why not).
 */
export function ListSection({
  title,
  count,
  empty,
  testId,
  className = "space-y-3",
  children,
  add,
}: {
  title: string;
  count: number;
  empty: string;
  testId: string;
  className?: string;
  children: ReactNode;
  add?: { max: number; noun: string; form: ReactNode };
}) {
  return (
    <div className={className}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {count === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{empty}</p>
      ) : (
        <ul data-testid={testId} className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {children}
        </ul>
      )}
      {add ? (
        count < add.max ? (
          add.form
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            You have {add.max} {add.noun}, the most there can be.
          </p>
        )
      ) : null}
    </div>
  );
}
