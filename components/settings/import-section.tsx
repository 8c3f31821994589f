"use client";

import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";

import type { ImportResponse as ImportResult } from "@/lib/api/contract";

/** Settings → Import: a "ringside-export-v1" JSON file from this or another Ringside instance. */
export function ImportSection() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<
    { kind: "idle" } | { kind: "busy" } | { kind: "done"; result: ImportResult } | { kind: "error"; message: string }
  >({ kind: "idle" });

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = (e.currentTarget.elements.namedItem("file") as HTMLInputElement).files?.[0];
    if (!file) return setState({ kind: "error", message: "Choose an export file first." });
    setState({ kind: "busy" });
    try {
      const res = await fetch("/api/import", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: await file.text(),
      });
      const body = (await res.json().catch(() => null)) as (ImportResult & { error?: { message: string } }) | null;
      if (!res.ok || !body) throw new Error(body?.error?.message ?? `The import failed (${res.status}).`);
      setState({ kind: "done", result: body });
      await queryClient.invalidateQueries();
    } catch (err) {
      setState({ kind: "error", message: err instanceof Error ? err.message : String(err) });
    }
  }

  const total = state.kind === "done" ? Object.values(state.result.documents).reduce((a, b) => a + b, 0) : 0;
  return (
    <section
      aria-labelledby="import-heading"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 sm:p-6"
    >
      <h2 id="import-heading" className="text-lg font-semibold">
        Import
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Moving from another Ringside? Export everything as JSON there (Settings → Your data), then import the file here.
        Importing the same file twice changes nothing.
      </p>
      <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-3">
        <label className="min-w-0 max-w-full text-sm">
          <span className="sr-only">Export file</span>
          <input name="file" type="file" accept="application/json,.json" className="max-w-full text-sm" />
        </label>
        <button
          type="submit"
          disabled={state.kind === "busy"}
          className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50"
        >
          {state.kind === "busy" ? "Importing…" : "Import"}
        </button>
      </form>
      <p role="status" className="text-sm">
        {state.kind === "done" &&
          `Imported ${total} documents, ${state.result.notes} notes and ${state.result.tags} new tags${
            state.result.rejected ? ` (${state.result.rejected} documents kept aside: see the Sync page)` : ""
          }.`}
        {state.kind === "error" && <span className="text-red-700 dark:text-red-400">{state.message}</span>}
      </p>
    </section>
  );
}
