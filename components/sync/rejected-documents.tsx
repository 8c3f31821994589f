import type { SyncStatusResponse } from "@/lib/api/contract";
import { timeAgo } from "@/components/sync/format";

/** Documents the ring service sent that did not pass validation: kept aside, listed here. */
export function RejectedDocuments({ rows, labels, now }: { rows: SyncStatusResponse["rejected"]; labels: Record<string, string>; now: number }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="rejected-heading" data-testid="rejected-documents" className="space-y-2">
      <h2 id="rejected-heading" className="text-lg font-semibold">
        Documents kept aside
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        These documents from the ring service did not have the expected shape. They are stored as received but not shown in charts. A later, valid version
        replaces them.
      </p>
      <div
        className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-brand-600"
        tabIndex={0}
        role="region"
        aria-labelledby="rejected-heading"
      >
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
            <tr>
              <th className="py-1 pr-3">Data</th>
              <th className="py-1 pr-3">Day</th>
              <th className="py-1 pr-3">Document</th>
              <th className="py-1 pr-3">Problem</th>
              <th className="py-1">Seen</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-t border-slate-200 align-top dark:border-slate-800">
                <td className="py-1 pr-3">{labels[r.collection] ?? r.collection}</td>
                <td className="py-1 pr-3 whitespace-nowrap">{r.day ?? "—"}</td>
                <td className="py-1 pr-3 font-mono text-xs break-all">{r.documentId ?? "—"}</td>
                <td className="py-1 pr-3">{r.error}</td>
                <td className="py-1 whitespace-nowrap">{timeAgo(r.seenAt, now)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
