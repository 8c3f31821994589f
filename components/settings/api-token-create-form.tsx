"use client";

import { useActionState } from "react";
import type { CreateApiTokenState } from "@/lib/api/contract";
import type { DataKind } from "@/lib/auth/api-scopes";
import { ConnectButton } from "@/components/auth/connect-button";
import { DataKindPicker } from "@/components/settings/data-kind-picker";
import { inputClass } from "@/components/ui/field";
import { CopyableValue, FormError } from "@/components/ui/shown-once";

/**
 * Creates a token with a name and the data kinds ticked, and shows it once with a copy button.
 * Every kind starts ticked but the cycle, which a person gives a token only on purpose.
 */
export function ApiTokenCreateForm({
  action,
  kinds,
  origin,
  nameMax,
}: {
  action: (prev: CreateApiTokenState, form: FormData) => Promise<CreateApiTokenState>;
  kinds: Array<{ kind: DataKind; label: string }>;
  origin: string;
  /** the longest name the server takes (lib/schemas/requests.ts; passed in so the page carries no zod) */
  nameMax: number;
}) {
  const [state, formAction] = useActionState(action, {});
  return (
    <div className="space-y-3">
      <form action={formAction} className="space-y-3" aria-label="Create a token">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="api-token-name" className="font-medium">
            Token name
          </label>
          <input id="api-token-name" name="name" required maxLength={nameMax} placeholder="e.g. Home Assistant" className={`${inputClass} max-w-sm`} />
        </div>
        <DataKindPicker kinds={kinds} legend="What it may read" />
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="api-token-expires" className="font-medium">
            Expires
          </label>
          <select id="api-token-expires" name="expires" defaultValue="90" className={`${inputClass} max-w-xs`}>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="never">never</option>
          </select>
        </div>
        <ConnectButton label="Create token" pendingLabel="Creating…" variant="secondary" />
      </form>
      <FormError error={state.error} />
      {state.token && (
        <div className="space-y-2 rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800" data-testid="api-token-created">
          <p>
            Your new token <strong>{state.name}</strong>. Copy it now: it is shown only this once (Ringside keeps only a hash of it).
          </p>
          <CopyableValue key={state.at} value={state.token} testId="api-token-value" />
          <p className="text-xs text-slate-600 dark:text-slate-300">
            Try it:{" "}
            <code className="break-all">
              curl -H &quot;Authorization: Bearer {state.token.slice(0, 11)}…&quot; {origin}/api/v1/days/latest
            </code>
          </p>
        </div>
      )}
    </div>
  );
}
