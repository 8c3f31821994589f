"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useImportRecovery, useImportStatus, useImportUpload } from "@/components/hooks/use-import";
import { ImportProgress, ImportSummary } from "@/components/settings/import-summary";
import type { ImportResponse } from "@/lib/api/contract";

import { SettingsSection } from "@/components/settings/settings-section";

const BUTTON = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} border border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800`;

/**
 * Settings → Import: Ringside's own export (JSON), the ring maker's account export (ZIP), one or
 * more of its CSV files, or a Trends CSV. "Check first" shows what would be stored; the import
 * shows its progress (file, rows, ETA) and can be resumed if it stopped part-way.
 */
export function ImportSection() {
  const [files, setFiles] = useState<File[]>([]);
  const [replaceNotes, setReplaceNotes] = useState(false);
  const [checked, setChecked] = useState<ImportResponse | null>(null);
  const upload = useImportUpload();
  const status = useImportStatus(upload.isPending);
  const { resume, discard } = useImportRecovery();
  const running = upload.isPending || resume.isPending || status.data?.status === "checking" || status.data?.status === "storing";
  const interrupted = status.data?.status === "interrupted" && !running;
  const result = upload.data && !upload.data.dryRun ? upload.data : (resume.data ?? null);
  const error = upload.error ?? resume.error ?? discard.error;

  function start(dryRun: boolean) {
    if (files.length === 0) return;
    upload.mutate({ files, dryRun, replaceNotes }, { onSuccess: (r) => setChecked(r.dryRun ? r : null) });
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    start(false);
  }

  return (
    <SettingsSection
      id="import"
      name="import"
      title="Import"
      description={
        <>
          Bring in years of history: the ring maker&apos;s account export (the ZIP from the membership hub, or some of its CSV files), a Trends CSV, or an
          export of another Ringside (Settings → Your data). Request the account export in the ring maker&apos;s membership hub (export data); it arrives by
          e-mail a few days later. Importing the same files twice changes nothing.
        </>
      }
    >
      <form onSubmit={onSubmit} className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <label className="min-w-0 max-w-full text-sm">
            <span className="sr-only">Files to import</span>
            <input
              name="file"
              type="file"
              multiple
              aria-label="Files to import"
              accept=".zip,.csv,.json,application/zip,text/csv,application/json"
              className="max-w-full text-sm"
              onChange={(e) => {
                setFiles([...(e.currentTarget.files ?? [])]);
                setChecked(null);
                upload.reset();
              }}
            />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={replaceNotes} onChange={(e) => setReplaceNotes(e.currentTarget.checked)} />
            Replace my notes where the file&apos;s differ
          </label>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={SECONDARY} disabled={running || files.length === 0} onClick={() => start(true)}>
            Check first
          </button>
          <button type="submit" className={PRIMARY} disabled={running || files.length === 0}>
            {checked ? "Confirm import" : "Import"}
          </button>
        </div>
      </form>

      {running && status.data && <ImportProgress status={status.data} />}
      {running && !status.data && <p className="text-sm">Uploading…</p>}

      {interrupted && (
        <div
          role="alert"
          data-testid="import-interrupted"
          className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40"
        >
          <p>{status.data?.message ?? "The last import stopped part-way."}</p>
          <div className="flex gap-2">
            <button type="button" className={PRIMARY} disabled={resume.isPending} onClick={() => resume.mutate()}>
              Resume
            </button>
            <button type="button" className={SECONDARY} disabled={discard.isPending} onClick={() => discard.mutate()}>
              Discard
            </button>
          </div>
        </div>
      )}

      <div role="status" className="space-y-3 text-sm">
        {checked && !running && !result && <ImportSummary report={checked} />}
        {result && !running && (
          <>
            <p className="font-medium text-emerald-700 dark:text-emerald-300" data-testid="import-done">
              Imported. {result.rejected > 0 && `${result.rejected} rows were kept aside (see the Sync page). `}
              <Link className="underline" href="/trends">
                See it on Trends
              </Link>
            </p>
            <ImportSummary report={result} />
          </>
        )}
        {error && !running && (
          <p className="text-red-700 dark:text-red-400" data-testid="import-error">
            {error.message}
          </p>
        )}
      </div>
    </SettingsSection>
  );
}
