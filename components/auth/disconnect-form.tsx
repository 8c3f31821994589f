"use client";

import { useState } from "react";
import { ConnectButton } from "@/components/auth/connect-button";
import { cn } from "@/components/ui/cn";

/**
 * Disconnect with the keep/delete choice. The first click only opens the choice; nothing
 * happens until "Disconnect now".
 */
export function DisconnectForm({ action }: { action: (formData: FormData) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={cn(
          "w-full rounded-lg border border-red-300 px-4 py-3 font-medium text-red-700 hover:bg-red-50",
          "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600",
          "dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950 sm:w-auto",
        )}
      >
        Disconnect…
      </button>
    );
  }
  return (
    <form action={action} data-testid="disconnect-form" className="w-full space-y-3 rounded-lg border border-red-300 p-3 dark:border-red-800 sm:max-w-md">
      <fieldset className="space-y-2 text-sm">
        <legend className="font-medium">Disconnect your ring</legend>
        <p className="text-slate-600 dark:text-slate-300">Ringside hands the access back to the ring service, deletes its copy of it and signs you out.</p>
        <label className="flex items-start gap-2">
          <input type="radio" name="data" value="keep" defaultChecked className="mt-1" />
          <span>
            <strong>Keep my stored data</strong>: reconnecting later picks up where you left off.
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input type="radio" name="data" value="delete" className="mt-1" />
          <span>
            <strong>Delete my stored data</strong>: every sleep, readiness and activity record, notes and tags of mine. This cannot be undone.
          </span>
        </label>
      </fieldset>
      <div className="flex flex-col gap-2 sm:flex-row">
        <ConnectButton label="Disconnect now" pendingLabel="Disconnecting…" variant="danger" />
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded-lg px-4 py-3 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
