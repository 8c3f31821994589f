"use client";

import { useActionState } from "react";
import { ConnectButton } from "@/components/auth/connect-button";
import { CopyableValue, FormError } from "@/components/ui/shown-once";
import type { CreateInviteState } from "@/lib/api/contract";

/** Creates an invite link and shows it once, with a copy button. */
export function InviteCreateForm({ action }: { action: (prev: CreateInviteState, formData: FormData) => Promise<CreateInviteState> }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <div className="space-y-2">
      <form action={formAction}>
        <ConnectButton label="Create invite link" pendingLabel="Creating…" variant="secondary" />
      </form>
      <FormError error={state.error} />
      {state.link && (
        <div className="space-y-1 rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800">
          <p>
            Send this link to the person you invite. It works once and expires{" "}
            {state.expiresAt ? `on ${new Date(state.expiresAt).toLocaleDateString()}` : "in 7 days"}; it is shown only now.
          </p>
          <CopyableValue key={state.link} value={state.link} testId="invite-link" />
        </div>
      )}
    </div>
  );
}
