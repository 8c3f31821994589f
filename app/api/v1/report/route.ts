import { clock } from "@/lib/clock";
import { utcDay } from "@/lib/days";
import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { readReport } from "@/lib/api/v1/read";
import { json } from "@/lib/api/contract";
import { publicOriginFrom } from "@/lib/auth/origin";
import { REPORT_DOCS_PATH, type Report } from "@/lib/metrics/report";
import { reportApiQuerySchema } from "@/lib/schemas/report";
import { reportPdfResponse } from "@/components/report/pdf/render";

// GET /api/v1/report?from&to&period&month&compare&sections&format=json|pdf – the report for a
// doctor or a coach (docs/report.md): as JSON, the numbers behind it; as PDF, the document the
// page offers (a download named for its period). The token needs every data kind the sections
// asked for draw on (403 otherwise). The ETag covers today (UTC): a period without `to` ends today.
export const GET = withTokenData(
  async ({ req, token, searchParams }) => {
    const { format, query } = parseQuery(searchParams, reportApiQuerySchema);
    if (format === "json") return json<Report>(await readReport(token, query));
    return reportPdfResponse(() => readReport(token, query), { docsUrl: `${publicOriginFrom(req.headers, req.url)}${REPORT_DOCS_PATH}` });
  },
  { scope: async () => utcDay(clock.now()) },
);
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
