import type { Metadata } from "next";
import { MarkdownDoc } from "@/app/docs/markdown-doc";

export const metadata: Metadata = { title: "The report: what each figure is" };
// docs/report.md itself, where each section of the report (page, PDF, share link) says its
// figures are explained (lib/metrics/report.ts, REPORT_DOCS_PATH). Rendered per request (its
// scripts carry the request's nonce).
export const dynamic = "force-dynamic";

export default function ReportDocsPage() {
  return <MarkdownDoc name="report.md" testId="report-docs" />;
}
