import type { Metadata } from "next";
import { MarkdownDoc } from "@/app/docs/markdown-doc";

export const metadata: Metadata = { title: "Signals: methods and sources" };
// docs/signals.md itself (the one text of the signals' methods), where the cards' "How this is
// worked out" links land. Rendered per request (its scripts carry the request's nonce).
export const dynamic = "force-dynamic";

export default function SignalsDocsPage() {
  return <MarkdownDoc name="signals.md" testId="signals-docs" />;
}
