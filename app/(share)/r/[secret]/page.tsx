import type { Metadata } from "next";
import { AppError } from "@/lib/http/errors";
import { buildReport } from "@/lib/services/report";
import { openReportLink, type OpenedReportLink } from "@/lib/services/report-links";
import { ReportView } from "@/components/report/report-view";
import { reportDay, reportPeriod } from "@/components/report/report-text";
import { primaryAction } from "@/components/report/styles";

export const dynamic = "force-dynamic";

// A report's share link: the report its person chose (its query, their data), with its PDF, for
// whoever has the link: no account, no cookie, no navigation to anything else. proxy.ts has asked
// the gate already (lib/report-link-gate.ts): the view is counted, and a revoked, expired,
// unknown or over-used link was answered there with its status. The page only reads the link
// again; should it have closed in between, it says so (nothing about the person either way).
export const metadata: Metadata = {
  title: "Shared report",
  robots: { index: false, follow: false, nocache: true },
  referrer: "no-referrer",
};

export default async function SharedReportPage({ params }: { params: Promise<{ secret: string }> }) {
  const { secret } = await params;
  let link: OpenedReportLink;
  try {
    link = await openReportLink(secret, { view: false });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return (
      <main id="main" className="mx-auto grid min-h-screen max-w-md place-items-center px-4">
        <h1 className="text-lg font-semibold">{err.message}</h1>
      </main>
    );
  }
  const report = await buildReport(link.userId, link.query);
  return (
    <main id="main" className="mx-auto w-full max-w-6xl space-y-6 px-3 py-4 sm:px-6 sm:py-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold">{report.title}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {reportPeriod(link.query)}. Shared from Ringside; this link works until {reportDay(link.expiresAt.toISOString().slice(0, 10))} unless its owner
          revokes it.
        </p>
        <p className="print:hidden">
          <a href={`/r/${secret}/pdf`} className={primaryAction}>
            Download PDF
          </a>
        </p>
      </header>
      <ReportView report={report} />
    </main>
  );
}
