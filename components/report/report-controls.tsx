// The report page's chooser: the period (the last 30 or 90 days, a calendar month, or any range
// of at most a year), what it is compared with, and the sections (notes, tags and cycle off unless
// ticked). A plain GET form to /report: it works without a script, and its address is the
// report's (the page's query string is what the PDF link and a share link are made of).
import {
  REPORT_COMPARE_LABELS,
  REPORT_COMPARE_MODES,
  REPORT_PERIODS,
  REPORT_SECTION_LABELS,
  REPORT_SECTIONS,
  type ReportPeriod,
  type ReportQuery,
} from "@/lib/metrics/report";
import { inputClass } from "@/components/ui/field";
import { primaryAction } from "@/components/report/styles";

const PERIOD_LABELS: Record<ReportPeriod, string> = {
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  month: "A month",
  custom: "From … to …",
};

export function ReportControls({ query, period, month, maxDays }: { query: ReportQuery; period: ReportPeriod; month: string; maxDays: number }) {
  return (
    <form
      method="get"
      action="/report"
      aria-label="Choose the report"
      className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800 print:hidden"
    >
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <div className="flex flex-col gap-1">
          <label htmlFor="report-period" className="font-medium">
            Period
          </label>
          <select id="report-period" name="period" defaultValue={period} className={inputClass}>
            {REPORT_PERIODS.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="report-month" className="font-medium">
            Month
          </label>
          <input id="report-month" name="month" type="month" defaultValue={month} className={inputClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="report-from" className="font-medium">
            From
          </label>
          <input id="report-from" name="from" type="date" defaultValue={query.from} className={inputClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="report-to" className="font-medium">
            To
          </label>
          <input id="report-to" name="to" type="date" defaultValue={query.to} className={inputClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="report-compare" className="font-medium">
            Compare with
          </label>
          <select id="report-compare" name="compare" defaultValue={query.compare} className={inputClass}>
            {REPORT_COMPARE_MODES.map((c) => (
              <option key={c} value={c}>
                {REPORT_COMPARE_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        The last 30 or 90 days end on &ldquo;To&rdquo;; a month uses &ldquo;Month&rdquo;; a custom period covers at most {maxDays} days.
      </p>
      <fieldset className="text-sm">
        <legend className="font-medium">Sections</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {REPORT_SECTIONS.map((s) => (
            <label key={s} className="inline-flex items-center gap-2">
              <input type="checkbox" name="sections" value={s} defaultChecked={query.sections.includes(s)} className="h-4 w-4 rounded accent-brand-600" />
              {REPORT_SECTION_LABELS[s]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={primaryAction}>
        Show report
      </button>
    </form>
  );
}
