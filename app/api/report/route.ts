import { parseQuery, withUser } from "@/lib/api/handler";
import { publicOriginFrom } from "@/lib/auth/origin";
import { REPORT_DOCS_PATH } from "@/lib/metrics/report";
import { reportQuerySchema } from "@/lib/schemas/report";
import { buildReport } from "@/lib/services/report";
import { reportPdfResponse } from "@/components/report/pdf/render";

// GET /api/report?from&to&period&month&compare&sections – the signed-in person's report for a
// doctor or a coach as a PDF download (ringside-report-<from>-to-<to>.pdf), rendered on the
// server (components/report/pdf); the query is the page's (lib/schemas/report.ts: 422 for a
// period over a year, `to` before `from`, an unknown section or compare mode). Its figures link
// to this Ringside's explanation of them (docs/report.md, served at /docs/report).
export const GET = withUser(async ({ req, user, searchParams }) => {
  const query = parseQuery(searchParams, reportQuerySchema);
  return reportPdfResponse(() => buildReport(user.id, query), { docsUrl: `${publicOriginFrom(req.headers, req.url)}${REPORT_DOCS_PATH}` });
});
