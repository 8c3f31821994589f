import { formatDay } from "@/lib/days";
import { downloadingLine } from "@/lib/metrics/report";

/** Why a chart drawn during the back-fill may be empty. */
export const EMPTY_WHILE_DOWNLOADING = "The history is still downloading.";

/** The back-fill still running (the first day not here yet), or null when the history is all in. */
export type HistoryDownloadingState = { from: string | null } | null;

/** At the top of a page of charts while the person's history is still downloading: "History still downloading: data from … on." */
export function HistoryDownloading({ downloading }: { downloading: HistoryDownloadingState }) {
  if (!downloading) return null;
  return (
    <p
      role="status"
      data-testid="history-downloading"
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      {downloadingLine(downloading, (d) => formatDay(d, { withYear: true }))} Charts fill in as it arrives.
    </p>
  );
}
