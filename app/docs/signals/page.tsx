import fs from "node:fs";
import path from "node:path";
import type { Metadata } from "next";
import Link from "next/link";
import { Marked } from "marked";
import { headingAnchor } from "@/lib/signals/catalog";
import { cn } from "@/components/ui/cn";

export const metadata: Metadata = { title: "Signals: methods and sources" };
// The page is docs/signals.md itself (the one text of the signals' methods), so the cards' "How
// this is worked out" links land on the same words as the repository's docs. Public: it holds
// no one's data. Rendered per request like every page, so that its scripts carry the request's
// nonce (a page rendered at build time has none, and the Content-Security-Policy blocks them);
// the text is read and turned into HTML once per process.
export const dynamic = "force-dynamic";

const marked = new Marked({
  renderer: {
    heading({ tokens, depth }) {
      const text = this.parser.parseInline(tokens);
      return `<h${depth} id="${headingAnchor(text)}">${text}</h${depth}>\n`;
    },
  },
});

let rendered: string | null = null;

/** docs/signals.md as HTML (the file is copied beside the server: next.config.mjs, outputFileTracingIncludes). */
function signalsHtml(): string {
  // a path the tracer does not follow (it would take in the whole checkout and its package.json's "type": "module")
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), "docs", "signals.md");
  // code blocks and tables scroll sideways on a phone: focusable, so a keyboard can scroll them too
  rendered ??= marked
    .parse(fs.readFileSync(file, "utf8"), { async: false })
    .replaceAll("<pre>", '<pre tabindex="0">')
    .replaceAll("<table>", '<table tabindex="0">');
  return rendered;
}

export default function SignalsDocsPage() {
  const html = signalsHtml();
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-10">
      <p className="mb-4 text-sm">
        <Link href="/" className="text-brand-700 underline underline-offset-2 dark:text-brand-100">
          ← Ringside
        </Link>
      </p>
      <article
        data-testid="signals-docs"
        className={cn(
          "space-y-3 text-[15px] leading-relaxed text-slate-800 dark:text-slate-200",
          "[&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[13px] dark:[&_code]:bg-slate-800",
          "[&_h1]:text-3xl [&_h1]:font-semibold [&_h2]:mt-10 [&_h2]:scroll-mt-4 [&_h2]:border-t [&_h2]:border-slate-200 [&_h2]:pt-6",
          "[&_h2]:text-xl [&_h2]:font-semibold dark:[&_h2]:border-slate-800 [&_h3]:mt-6 [&_h3]:scroll-mt-4 [&_h3]:font-semibold",
          "[&_li]:ml-5 [&_li]:list-disc [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-100 [&_pre]:p-3 dark:[&_pre]:bg-slate-800",
          "[&_table]:block [&_table]:overflow-x-auto [&_table]:text-sm [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1",
          "dark:[&_td]:border-slate-700 [&_th]:border [&_th]:border-slate-200 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left dark:[&_th]:border-slate-700",
        )}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </main>
  );
}
