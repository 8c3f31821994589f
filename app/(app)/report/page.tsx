import type { Metadata } from "next";
import { requireUser } from "@/lib/services/auth/session";
import { buildReport } from "@/lib/services/report";
import { reportQuerySchema } from "@/lib/schemas/report";
import {
  REPORT_LINK_DEFAULT_EXPIRY_DAYS,
  REPORT_LINK_EXPIRY_MAX_DAYS,
  REPORT_LINK_EXPIRY_MIN_DAYS,
  REPORT_LINK_LABEL_MAX,
  reportQueryInput,
} from "@/lib/schemas/report-links";
import { DEFAULT_REPORT_SECTIONS, REPORT_MAX_DAYS, REPORT_PERIODS, reportSearchParams, type ReportPeriod, type ReportQuery } from "@/lib/metrics/report";
import { addDays, utcDay } from "@/lib/days";
import { clock } from "@/lib/clock";
import { ReportControls } from "@/components/report/report-controls";
import { ReportView } from "@/components/report/report-view";
import { ShareLinkForm } from "@/components/report/share-link-form";
import { PrintButton } from "@/components/report/print-button";
import { reportPeriod } from "@/components/report/report-text";
import { createReportLinkAction } from "@/app/(app)/report/actions";
import { primaryAction } from "@/components/report/styles";
import { settingsHref } from "@/lib/settings-sections";

export const metadata: Metadata = { title: "Report" };

// The report for a doctor or a coach: the chooser (period, comparison, sections), the report
// itself (the same Report as the PDF and the read API), its PDF, printing, and a share link.
// Everything but the share form renders on the server; the address carries the report's query.
export default async function ReportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const input = reportQueryInput(await searchParams);
  const parsed = reportQuerySchema.safeParse(input);
  const period: ReportPeriod = (REPORT_PERIODS as readonly string[]).includes(input.period ?? "")
    ? (input.period as ReportPeriod)
    : input.from || input.to
      ? "custom"
      : "30d";
  const today = utcDay(clock.now());
  const fallback: ReportQuery = { from: addDays(today, -29), to: today, compare: "none", sections: [...DEFAULT_REPORT_SECTIONS] };
  const query = parsed.success ? parsed.data : fallback;
  const report = parsed.success ? await buildReport(user.id, query) : null;
  const qs = reportSearchParams(query).toString();
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold">{report?.title ?? "Report"}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {reportPeriod(query)}. For a doctor, a sleep clinic, a physiotherapist or a coach: print it, download its PDF, or share a link that you can take back.
        </p>
      </header>
      <ReportControls query={query} period={period} month={input.month ?? today.slice(0, 7)} maxDays={REPORT_MAX_DAYS} />
      {!parsed.success ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid="report-error">
          {parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ")}
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3 print:hidden">
            <a href={`/api/report?${qs}`} className={primaryAction}>
              Download PDF
            </a>
            <PrintButton />
          </div>
          <section aria-labelledby="share-heading" className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800 print:hidden">
            <h2 id="share-heading" className="text-base font-semibold">
              Share this report
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              A link opens this report and its PDF without an account, and nothing else. It stops working when it expires or when you revoke it in{" "}
              <a className="underline" href={settingsHref("report-links")}>
                Settings → Report links
              </a>
              .
            </p>
            <ShareLinkForm
              action={createReportLinkAction}
              query={qs}
              minDays={REPORT_LINK_EXPIRY_MIN_DAYS}
              maxDays={REPORT_LINK_EXPIRY_MAX_DAYS}
              defaultDays={REPORT_LINK_DEFAULT_EXPIRY_DAYS}
              labelMax={REPORT_LINK_LABEL_MAX}
            />
          </section>
          {report && <ReportView report={report} />}
        </>
      )}
    </div>
  );
}
