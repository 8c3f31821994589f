import fs from "node:fs";
import path from "node:path";
import Link from "next/link";
import { Marked } from "marked";
import { headingAnchor } from "@/lib/signals/catalog";
import { cn } from "@/components/ui/cn";

// A page of docs/ served in the app (the signals' methods, the report's figures): the file itself
// (the one text), so the app's "how this is computed" links land on the same words as the
// repository's docs. Public: such a page holds no one's data. Its page renders per request like
// every page, so that its scripts carry the request's nonce (a page rendered at build time has
// none, and the Content-Security-Policy blocks them); the text is read and turned into HTML once
// per process. Each file is copied beside the server (next.config.mjs, outputFileTracingIncludes).

const marked = new Marked({
  renderer: {
    heading({ tokens, depth }) {
      const text = this.parser.parseInline(tokens);
      return `<h${depth} id="${headingAnchor(text)}">${text}</h${depth}>\n`;
    },
  },
});

const rendered = new Map<string, string>();

/** docs/<name> as HTML. */
function docsHtml(name: string): string {
  // a path the tracer does not follow (it would take in the whole checkout and its package.json's "type": "module")
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), "docs", name);
  let html = rendered.get(name);
  if (html === undefined) {
    // code blocks and tables scroll sideways on a phone: focusable, so a keyboard can scroll them too
    html = marked
      .parse(fs.readFileSync(file, "utf8"), { async: false })
      .replaceAll("<pre>", '<pre tabindex="0">')
      .replaceAll("<table>", '<table tabindex="0">');
    rendered.set(name, html);
  }
  return html;
}

/** The page of docs/<name>, its article marked with `testId`. */
export function MarkdownDoc({ name, testId }: { name: string; testId: string }) {
  const html = docsHtml(name);
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-10">
      <p className="mb-4 text-sm">
        <Link href="/" className="text-brand-700 underline underline-offset-2 dark:text-brand-100">
          ← Ringside
        </Link>
      </p>
      <article
        data-testid={testId}
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
