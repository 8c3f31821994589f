"use client";

import { useActionState } from "react";
import { format } from "date-fns";
import type { CreateReportLinkState } from "@/lib/api/contract";
import { ConnectButton } from "@/components/auth/connect-button";
import { inputClass } from "@/components/ui/field";
import { CopyableValue, FormError } from "@/components/ui/shown-once";
import { settingsHref } from "@/lib/settings-sections";

/**
 * The report page's "Create share link": the report it shows (its query, in a hidden field), how
 * long the link lasts (1 to 90 days) and an optional label; the link is shown once, with a copy
 * button. The limits come from the page (lib/schemas/report-links.ts), so this carries no zod.
 */
export function ShareLinkForm({
  action,
  query,
  minDays,
  maxDays,
  defaultDays,
  labelMax,
}: {
  action: (prev: CreateReportLinkState, form: FormData) => Promise<CreateReportLinkState>;
  /** the report's query string (from, to, compare, sections) */
  query: string;
  minDays: number;
  maxDays: number;
  defaultDays: number;
  labelMax: number;
}) {
  const [state, formAction] = useActionState(action, {});
  return (
    <div className="space-y-3">
      <form action={formAction} className="flex flex-wrap items-end gap-3" aria-label="Share this report">
        <input type="hidden" name="query" value={query} />
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="share-link-days" className="font-medium">
            Link lasts (days)
          </label>
          <input
            id="share-link-days"
            name="expiresDays"
            type="number"
            inputMode="numeric"
            required
            min={minDays}
            max={maxDays}
            step={1}
            defaultValue={defaultDays}
            className={`${inputClass} w-28`}
          />
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="share-link-label" className="font-medium">
            Label (optional)
          </label>
          <input id="share-link-label" name="label" maxLength={labelMax} placeholder="e.g. Dr. Lee" className={`${inputClass} w-56`} />
        </div>
        <ConnectButton label="Create share link" pendingLabel="Creating…" variant="secondary" />
      </form>
      <FormError error={state.error} />
      {state.link && (
        <div className="space-y-2 rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800" data-testid="share-link-created">
          <p>
            {state.label ? (
              <>
                Your link for <strong>{state.label}</strong>
              </>
            ) : (
              "Your link"
            )}
            {state.expiresAt ? `, valid until ${format(new Date(state.expiresAt), "d MMM yyyy HH:mm")}` : ""}. Copy it now: it is shown only this once. Whoever
            has it sees this report and its PDF, nothing else; revoke it in{" "}
            <a className="underline" href={settingsHref("report-links")}>
              Settings → Report links
            </a>
            .
          </p>
          <CopyableValue key={state.at} value={state.link} testId="share-link" />
        </div>
      )}
    </div>
  );
}
