import { COLLECTIONS, type CollectionId } from "@/lib/metrics/catalog";
import type { ImportResponse, ImportStatusResponse } from "@/lib/api/contract";
import { count, etaText } from "@/components/sync/format";

const label = (collection: string) => (Object.hasOwn(COLLECTIONS, collection) ? COLLECTIONS[collection as CollectionId].label : collection);

/** What an import did, or would do (a dry run): per collection, the unmapped files, the notes. */
export function ImportSummary({ report }: { report: ImportResponse }) {
  const rows = Object.entries(report.collections).filter(([, c]) => c.rows > 0);
  const would = report.dryRun;
  return (
    <div data-testid="import-summary" data-dry-run={would} className="space-y-3 text-sm">
      {rows.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[28rem] text-left">
            <caption className="pb-2 text-left font-medium">{would ? "What the import would store" : "What was stored"}</caption>
            <thead className="text-xs text-slate-500 dark:text-slate-400">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Data
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Rows
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  New
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium" title="Stored before with other values: the file's version replaces it">
                  Replaces
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Unchanged
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium" title="Trends rows on days a richer document covers">
                  Skipped
                </th>
                <th scope="col" className="py-1 text-right font-medium" title="Failed validation: kept aside on the Sync page">
                  Rejected
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([collection, c]) => (
                <tr key={collection} data-testid={`import-row-${collection}`} className="border-t border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {label(collection)}
                  </th>
                  <td className="py-1 pr-3 text-right tabular-nums">{count(c.rows)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums" data-testid="new">
                    {count(c.new)}
                  </td>
                  <td className={`py-1 pr-3 text-right tabular-nums ${c.changed ? "text-amber-700 dark:text-amber-300" : ""}`}>{count(c.changed)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{count(c.unchanged)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{count(c.skipped)}</td>
                  <td className={`py-1 text-right tabular-nums ${c.rejected ? "text-red-700 dark:text-red-300" : ""}`}>{count(c.rejected)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>The upload holds nothing Ringside stores.</p>
      )}
      {report.unmapped.length > 0 && (
        <div>
          <p className="font-medium">Not imported (Ringside does not keep these):</p>
          <ul className="list-inside list-disc text-slate-600 dark:text-slate-400" data-testid="import-unmapped">
            {report.unmapped.map((u) => (
              <li key={u.name}>
                {u.name}
                {u.size !== null && ` — ${fileSize(u.size)}`}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.notes && (report.notes.new > 0 || report.notes.conflicting > 0 || report.notes.replaced > 0) && (
        <p>
          Notes: {count(report.notes.new)} new{report.notes.replaced > 0 && `, ${count(report.notes.replaced)} replaced`}
          {report.notes.conflicting > 0 && (
            <span className="text-amber-700 dark:text-amber-300">
              , {count(report.notes.conflicting)} kept because yours differ ({report.notes.conflicts.slice(0, 5).join(", ")}
              {report.notes.conflicting > 5 ? ", …" : ""})
            </span>
          )}
          .
        </p>
      )}
      {report.ignoredCollections.length > 0 && (
        <p className="text-slate-600 dark:text-slate-400">Collections this Ringside does not keep: {report.ignoredCollections.join(", ")}.</p>
      )}
    </div>
  );
}

const PHASE: Record<string, string> = { checking: "Checking", storing: "Storing" };

/** The running import's phase, file, rows and ETA, with a progress bar while storing (as the sync page shows a backfill). */
export function ImportProgress({ status }: { status: ImportStatusResponse }) {
  const percent = status.progress !== null ? Math.round(status.progress * 100) : null;
  const eta = etaText(status.etaSeconds);
  return (
    <div className="space-y-2" data-testid="import-progress" data-status={status.status}>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent !== null ? `${percent}%${eta ? `, ${eta}` : ""}` : "Checking the files"}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div
          className={`h-full rounded-full bg-sky-500 transition-[width] duration-300 ${percent === null ? "w-1/3 animate-pulse" : ""}`}
          style={percent !== null ? { width: `${percent}%` } : undefined}
        />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {PHASE[status.status] ?? "Uploading"}
        {status.file && (
          <>
            {" "}
            <span className="font-medium text-slate-800 dark:text-slate-200">{status.file}</span>
          </>
        )}{" "}
        · {count(status.rows)}
        {status.totalRows !== null && status.status === "storing" && <> of {count(status.totalRows)}</>} rows
        {eta && <> · {eta}</>}
      </p>
    </div>
  );
}

/** A file's size as shown: bytes, kB or MB (1,000s). */
function fileSize(bytes: number): string {
  if (bytes < 1_000) return `${count(bytes)} bytes`;
  if (bytes < 1_000_000) return `${count(Math.round(bytes / 100) / 10)} kB`;
  return `${count(Math.round(bytes / 100_000) / 10)} MB`;
}
