// The gate in front of a report's share link page (/r/<secret>). Every request to a link goes
// through it: only GET and HEAD are answered (any other method, and any request carrying a server
// action's Next-Action header, is a 405 before anything is drawn), and each GET or HEAD of the
// page is a view, counted and limited. A page cannot answer 405, 410 or 429 itself, so proxy.ts
// asks the gate first: the server process installs it at start
// (instrumentation.ts → lib/services/report-links.ts) in a process slot, and proxy.ts reads it
// from there without importing any database code. Also the plain page a refused link gets, which says nothing about the
// person (the headers every link answer carries are in lib/security-headers.mjs). Imports nothing but the process slot, so every layer may use it.
import { processSlot } from "@/lib/process-singleton";

/** What the gate answers for a link page: open (the view counted), or a refusal. */
export type ReportLinkGateAnswer = { open: true } | { open: false; status: number; message: string; retryAfterS?: number };
export type ReportLinkGate = (secret: string) => Promise<ReportLinkGateAnswer>;

/** The slot the server process puts the gate in. */
export const reportLinkGateSlot = () => processSlot<ReportLinkGate>("reportLinkGate");

/** The share link pages' path: /r/<secret> (the PDF at /r/<secret>/pdf). */
export const REPORT_LINK_PAGE_RE = /^\/r\/([^/]*)\/?$/;

/** Every address of a share link: /r/ and all under it (the page, its PDF, anything else there). */
export const REPORT_LINK_PATH_RE = /^\/r(\/|$)/;

/** The methods a share link answers: it only ever draws (anything else, a server action's POST included, 405). */
export const REPORT_LINK_METHODS = ["GET", "HEAD"] as const;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The plain page of a refused link (410 "no longer valid", 404, 400, 405, 429). */
export function reportLinkRefusalHtml(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer"><title>Report link · Ringside</title>
<style>
  :root { color-scheme: light dark; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; font-family: ui-sans-serif, system-ui, sans-serif;
         background: #f8fafc; color: #0f172a; }
  main { max-width: 28rem; margin: 1.5rem; padding: 1.5rem; border-radius: 0.75rem; background: #fff; border: 1px solid #e2e8f0; }
  h1 { font-size: 1.125rem; margin: 0; }
  @media (prefers-color-scheme: dark) { body { background: #020617; color: #f1f5f9; } main { background: #0f172a; border-color: #1e293b; } }
</style></head>
<body><main><h1>${escapeHtml(message)}</h1></main></body></html>
`;
}
