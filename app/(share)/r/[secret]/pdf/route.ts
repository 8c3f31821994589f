import { AppError } from "@/lib/http/errors";
import { noteDatabaseError } from "@/lib/http/outage";
import { logger } from "@/lib/log";
import { REPORT_DOCS_PATH } from "@/lib/metrics/report";
import { publicOriginFrom } from "@/lib/auth/origin";
import { reportLinkRefusalHtml } from "@/lib/report-link-gate";
import { REPORT_LINK_HEADERS } from "@/lib/security-headers.mjs";
import { buildReport } from "@/lib/services/report";
import { openReportLink } from "@/lib/services/report-links";
import { reportPdfResponse } from "@/components/report/pdf/render";

export const dynamic = "force-dynamic";

const linkHeaders = () => Object.fromEntries(REPORT_LINK_HEADERS.map((h) => [h.key, h.value]));

function refusal(status: number, message: string, retryAfterS?: number): Response {
  const headers: Record<string, string> = { ...linkHeaders(), "content-type": "text/html; charset=utf-8" };
  if (retryAfterS) headers["retry-after"] = String(retryAfterS);
  return new Response(reportLinkRefusalHtml(message), { status, headers });
}

// GET /r/:secret/pdf – the shared report's PDF (a view of the link: counted, and within its
// allowance); no account, no cookie. A revoked or expired link answers 410, a full render queue
// 503 with Retry-After, never a 500. (proxy.ts answers any other method 405.)
export async function GET(req: Request, { params }: { params: Promise<{ secret: string }> }): Promise<Response> {
  const { secret } = await params;
  try {
    // the view is counted once the PDF has its place in the render queue (a full queue: 503, no view)
    const res = await reportPdfResponse(
      async () => {
        const link = await openReportLink(secret, { view: true });
        return buildReport(link.userId, link.query);
      },
      { docsUrl: `${publicOriginFrom(req.headers, req.url)}${REPORT_DOCS_PATH}` },
    );
    for (const h of REPORT_LINK_HEADERS) res.headers.set(h.key, h.value);
    return res;
  } catch (err) {
    if (err instanceof AppError) return refusal(err.status, err.message, (err.details as { retryAfterS?: number } | undefined)?.retryAfterS);
    noteDatabaseError(err);
    logger.error({ err: err instanceof Error ? err.name : "unknown" }, "report link pdf failed");
    return refusal(503, "This report cannot be opened right now; try again in a minute.");
  }
}
