"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { COLLECTIONS, type CollectionId } from "@/lib/metrics/catalog";
import { formatNumber } from "@/lib/metrics/format";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import type { CollectionRange, DeleteDataResponse } from "@/lib/api/contract";
import { Button, Field, inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { Segmented } from "@/components/ui/segmented";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { DownloadHistoryAgain } from "@/components/sync/download-history-button";

type Target = CollectionId | "notes" | "all" | "signals";

export function DataSectionClient({
  ranges,
  firstDay,
  lastDay,
  historyDeleted,
}: {
  ranges: CollectionRange[];
  firstDay: string | null;
  lastDay: string | null;
  /** "Delete all my data" paused the sync: "Download my history again" is offered */
  historyDeleted: boolean;
}) {
  const hydrated = useHydrated();
  const [target, setTarget] = useState<Target>("all");
  const [format, setFormat] = useState<"csv" | "json">("json");
  const [scope, setScope] = useState<"all" | "range">("all");
  const [from, setFrom] = useState(firstDay ?? "");
  const [to, setTo] = useState(lastDay ?? "");
  const href = withQuery("/api/export", {
    collection: target,
    format,
    from: scope === "range" ? from : undefined,
    to: scope === "range" ? to : undefined,
  });
  const total = ranges.reduce((s, r) => s + r.count, 0);
  return (
    <section
      aria-labelledby="data-heading"
      data-testid="data-section"
      className="space-y-5 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 sm:p-6"
    >
      <div>
        <h2 id="data-heading" className="text-lg font-semibold">
          Your data
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {formatNumber(total)} documents stored{firstDay && lastDay ? `, ${firstDay} to ${lastDay}` : ""}. Download them whenever you like; they are yours.
        </p>
      </div>
      <div className="space-y-3">
        <h3 className="text-sm font-semibold">Export</h3>
        {/* usable once hydrated (useHydrated): a choice made before would be lost, the link downloading everything as JSON */}
        <fieldset disabled={!hydrated} className="flex min-w-0 flex-wrap items-end gap-3">
          <Field label="What" className="min-w-0 max-w-full">
            <select
              className={`${inputClass} w-full max-w-full sm:w-auto`}
              value={target}
              onChange={(e) => setTarget(e.target.value as Target)}
              data-testid="export-collection"
            >
              <option value="all">Everything (all collections, notes and tags)</option>
              {ranges.map((r) => (
                <option key={r.collection} value={r.collection}>
                  {COLLECTIONS[r.collection].label} ({r.collection}, {formatNumber(r.count)})
                </option>
              ))}
              <option value="notes">Notes and tags</option>
              <option value="signals">Signals (derived from the above; an import does not need them)</option>
            </select>
          </Field>
          <div className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
            <span>Format</span>
            <Segmented
              label="Format"
              value={format}
              onChange={setFormat}
              options={[
                { value: "csv", label: "CSV" },
                { value: "json", label: "JSON" },
              ]}
            />
          </div>
          <div className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
            <span>Days</span>
            <Segmented
              label="Days"
              value={scope}
              onChange={setScope}
              options={[
                { value: "all", label: "All" },
                { value: "range", label: "From – to" },
              ]}
            />
          </div>
          {scope === "range" ? (
            <>
              <Field label="From">
                <input type="date" className={inputClass} value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
              </Field>
              <Field label="To">
                <input type="date" className={inputClass} value={to} min={from} onChange={(e) => setTo(e.target.value)} />
              </Field>
            </>
          ) : null}
          <a
            href={hydrated ? href : undefined}
            aria-disabled={hydrated ? undefined : true}
            download
            data-testid="export-link"
            className={cn(
              "inline-flex items-center gap-1.5 rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700",
              "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
            )}
          >
            Download {format.toUpperCase()}
          </a>
        </fieldset>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          CSV holds the stored columns, one row per document (everything at once: one long table of collection, document, day, field and value). JSON holds the
          documents exactly as the ring service sent them.
        </p>
      </div>
      {historyDeleted ? <DownloadHistoryAgain /> : null}
      <DeleteAll />
    </section>
  );
}

function DeleteAll() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: number | null }>({ busy: false, error: null, done: null });
  const qc = useQueryClient();
  const router = useRouter();
  const run = async () => {
    setState({ busy: true, error: null, done: null });
    try {
      const res = await apiFetch<DeleteDataResponse>("/api/data", { method: "DELETE", json: { confirm: typed } });
      const n = Object.values(res.deleted).reduce((s, x) => s + x, 0);
      setState({ busy: false, error: null, done: n });
      setOpen(false);
      setTyped("");
      qc.clear();
      router.refresh();
    } catch (e) {
      setState({ busy: false, error: (e as Error).message, done: null });
    }
  };
  return (
    <div className="space-y-2 rounded-lg border border-rose-200 p-3 dark:border-rose-900/60">
      <h3 className="text-sm font-semibold text-rose-800 dark:text-rose-300">Delete all my data</h3>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Removes every ring document, your notes and tags, and the sync checkpoints from this server, revokes your share links and removes an unfinished import.
        Your sign-in and ring connection stay, and nothing is downloaded again until you press “Download my history again”.
      </p>
      {state.done !== null ? (
        <p role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-400" data-testid="delete-done">
          Deleted {formatNumber(state.done)} rows.
        </p>
      ) : null}
      {open ? (
        <div className="flex flex-wrap items-end gap-2">
          <Field label='Type "DELETE" to confirm'>
            <input className={inputClass} value={typed} onChange={(e) => setTyped(e.target.value)} autoFocus data-testid="delete-confirm" />
          </Field>
          <Button variant="danger" disabled={typed !== "DELETE" || state.busy} onClick={run} data-testid="delete-all">
            {state.busy ? "Deleting…" : "Delete everything"}
          </Button>
          <Button variant="ghost" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button variant="secondary" className="!border-rose-300 !text-rose-700 dark:!border-rose-800 dark:!text-rose-300" onClick={() => setOpen(true)}>
          Delete all my data…
        </Button>
      )}
      {state.error ? (
        <p role="alert" className="text-sm text-rose-700">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
