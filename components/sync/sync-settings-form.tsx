"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/hooks/api-fetch";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { cn } from "@/components/ui/cn";

type Props = { dataFamily: "usercollection" | "sandbox"; pollMinutes: number; canEdit: boolean };

/** The look of the form's select and number field (each adds its width). */
const controlClass = cn(
  "rounded-md border border-slate-500 bg-white px-2 py-1",
  "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 dark:border-slate-500 dark:bg-slate-900",
);

/** Owner-only: data family (real data or the service's sandbox samples) and poll interval. */
export function SyncSettingsForm({ dataFamily, pollMinutes, canEdit }: Props) {
  const router = useRouter();
  const [family, setFamily] = useState(dataFamily);
  const [minutes, setMinutes] = useState(String(pollMinutes));
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (
      family !== dataFamily &&
      !window.confirm("Switching the data source clears the synced ring data (not your notes or tags) and fetches everything again. Continue?")
    )
      return;
    setBusy(true);
    setMessage(null);
    try {
      const body: Record<string, unknown> = {};
      if (family !== dataFamily) body.dataFamily = family;
      if (Number(minutes) !== pollMinutes) body.pollMinutes = Number(minutes);
      if (Object.keys(body).length === 0) return setMessage("Nothing changed.");
      await apiFetch("/api/sync/settings", { method: "PATCH", json: body });
      setMessage("Saved.");
      router.refresh();
    } catch (err) {
      setMessage(err instanceof Error ? err.message : "Could not save.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save} className="grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:items-center" aria-label="Sync settings">
      <label htmlFor="data-family" className="font-medium">
        Data source
      </label>
      <select
        id="data-family"
        name="dataFamily"
        value={family}
        disabled={!canEdit || busy}
        onChange={(e) => setFamily(e.target.value as Props["dataFamily"])}
        className={cn("w-full max-w-xs", controlClass)}
      >
        <option value="usercollection">Your ring data</option>
        <option value="sandbox">Sandbox sample data (for trying Ringside out)</option>
      </select>
      <label htmlFor="poll-minutes" className="font-medium">
        Check for new data every
      </label>
      <div className="flex items-center gap-2">
        <input
          id="poll-minutes"
          name="pollMinutes"
          type="number"
          min={1}
          max={1440}
          required
          value={minutes}
          disabled={!canEdit || busy}
          onChange={(e) => setMinutes(e.target.value)}
          className={cn("w-24", controlClass)}
        />
        <span>minutes</span>
      </div>
      {canEdit ? (
        <div className="flex items-center gap-3 sm:col-start-2">
          <button
            type="submit"
            disabled={busy || !hydrated}
            className={cn(
              "rounded-md bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700",
              "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60",
            )}
          >
            {busy ? "Saving…" : "Save"}
          </button>
          {message && <p role="status">{message}</p>}
        </div>
      ) : (
        <p className="text-slate-500 dark:text-slate-400 sm:col-start-2">Only the owner of this Ringside can change these.</p>
      )}
    </form>
  );
}
