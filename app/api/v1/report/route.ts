import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { readReport } from "@/lib/api/v1/read";
import { json } from "@/lib/api/contract";
import { reportFileName, type Report } from "@/lib/metrics/report";
import { reportApiQuerySchema } from "@/lib/schemas/report";
import { renderReportPdf } from "@/components/report/pdf/render";

// GET /api/v1/report?from&to&compare&sections&format=json|pdf – the report for a doctor or a
// coach (docs/report.md): as JSON, the numbers behind it; as PDF, the document the page offers.
// The token needs every data kind the sections asked for draw on (403 otherwise).
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { format, query } = parseQuery(searchParams, reportApiQuerySchema);
  const report = await readReport(token, query);
  if (format === "json") return json<Report>(report);
  const pdf = await renderReportPdf(report);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${reportFileName(query)}"`,
      "content-length": String(pdf.length),
    },
  });
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
