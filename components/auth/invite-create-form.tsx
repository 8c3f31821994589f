"use client";

import { useActionState, useState } from "react";
import { ConnectButton } from "@/components/auth/connect-button";
import type { CreateInviteState } from "@/lib/api/contract";

/** Creates an invite link and shows it once, with a copy button. */
export function InviteCreateForm({ action }: { action: (prev: CreateInviteState, formData: FormData) => Promise<CreateInviteState> }) {
  const [state, formAction] = useActionState(action, {});
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-2">
      <form action={formAction}>
        <ConnectButton label="Create invite link" pendingLabel="Creating…" variant="secondary" />
      </form>
      {state.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {state.error.message}
        </p>
      )}
      {state.link && (
        <div className="space-y-1 rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800">
          <p>
            Send this link to the person you invite. It works once and expires{" "}
            {state.expiresAt ? `on ${new Date(state.expiresAt).toLocaleDateString()}` : "in 7 days"}; it is shown only now.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code data-testid="invite-link" className="break-all rounded bg-white px-2 py-1 text-xs dark:bg-slate-900">
              {state.link}
            </code>
            <button
              type="button"
              onClick={() => {
                void navigator.clipboard?.writeText(state.link ?? "").then(() => setCopied(true));
              }}
              className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-white dark:border-slate-600 dark:hover:bg-slate-900"
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
