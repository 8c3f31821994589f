// Request screening in front of Next's router (Next.js `proxy`). It does no authentication
// (pages, handlers and actions check the session themselves, HOUSE-STYLE §4.1); it only:
//   - refuses, with Ringside's error envelope, requests that Next itself would answer with a 500
//     before any of our code runs (found by the fault-and-abuse suite, e2e/chaos/bad-input.test.ts):
//     - a path whose percent-encoding is broken ("/api/days/%"): it cannot name anything;
//     - server-action POSTs from another origin or from `Origin: null` (Next aborts them as
//       CSRF, with a 500; an action without Origin is left to Next's own check), larger than
//       the action body limit, of a content type an action is never sent with, or whose
//       arguments React cannot decode (malformed JSON, references to parts that are not there);
//   - gives every page its Content-Security-Policy with a fresh nonce (lib/security-headers.mjs):
//     Next.js reads it from the request's policy and puts it on its scripts, the root layout on
//     the theme script, so no script-src 'unsafe-inline' is needed;
//   - while the database is away (lib/http/outage.ts, read through lib/process-singleton.ts), answers every page
//     with a short 503 page and every API route with a 503 envelope and Retry-After, before
//     any of them fails its own way (the webhook receiver, /api/health and the import, which
//     this proxy never runs for, answer for themselves: 503 too);
//   - puts every request to a share link (/r/…) through its gate (lib/report-link-gate.ts): any
//     method but GET and HEAD, and any server action's request (a Next-Action header), is a 405
//     with Allow before anything is drawn; the gate is asked before the page (/r/<secret>) is
//     drawn, counting the view, and a refused link is answered here with a plain page and its
//     status (410 revoked or expired, 404, 400, 429): a page cannot set its status;
//   - adds Strict-Transport-Security to answers served over https (lib/security-headers.mjs
//     isServedOverHttps), never over plain http, for requests that did not come through an https
//     proxy: a configured https public URL decides then, known only at run time, not at build.
import { NextResponse, type NextRequest } from "next/server";
import { configuredPublicUrl, env } from "@/lib/env.mjs";
import { contentSecurityPolicy, CSP_HEADER, HSTS_HEADER, isServedOverHttps, securityHeaders } from "@/lib/security-headers.mjs";

import type { DatabaseHealth } from "@/lib/http/outage";
import { processSlot } from "@/lib/process-singleton";
import { outagePageHtml } from "@/lib/server/outage-page";
import { REPORT_LINK_METHODS, REPORT_LINK_PAGE_RE, REPORT_LINK_PATH_RE, reportLinkGateSlot, reportLinkRefusalHtml } from "@/lib/report-link-gate";
import { REPORT_LINK_HEADERS } from "@/lib/security-headers.mjs";

/** The server process's view of the database (lib/http/outage.ts), when it has one. */
const databaseHealth = () => processSlot<{ health: DatabaseHealth }>("databaseHealth").get()?.health;
/** A page's view of the database is at most this old (one cheap probe a second at most). */
const PAGE_HEALTH_MAX_AGE_MS = 1_000;
const RETRY_AFTER_S = 5;

/** 503 while the database is away: a page for pages, the envelope for the API. */
async function outageAnswer(req: NextRequest): Promise<NextResponse | null> {
  const health = databaseHealth();
  if (!health) return null;
  const api = req.nextUrl.pathname.startsWith("/api/");
  // a page checks a state at most a second old; an API request the state already known (its
  // own failure answers 503 too, lib/http/errors.ts)
  const down = api ? health.down() : await health.fresh(PAGE_HEALTH_MAX_AGE_MS);
  if (down !== "unreachable") return null;
  const headers = { "retry-after": String(RETRY_AFTER_S), "cache-control": "no-store" };
  if (api)
    return NextResponse.json({ error: { code: "service_unavailable", message: "The database is not reachable; Ringside retries." } }, { status: 503, headers });
  return new NextResponse(outagePageHtml("unreachable", RETRY_AFTER_S), { status: 503, headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
}

/** A share link's refusal: a plain page that says nothing about the person, with its status and headers. */
function linkRefusal(status: number, message: string, headers: Record<string, string> = {}): NextResponse {
  const res = new NextResponse(reportLinkRefusalHtml(message), { status, headers: { "content-type": "text/html; charset=utf-8" } });
  // every answer's security headers (a page that runs no script: the policy without a nonce), then the link's own
  for (const h of [...securityHeaders(process.env.NODE_ENV === "production"), ...REPORT_LINK_HEADERS]) res.headers.set(h.key, h.value);
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

/**
 * Every request to a share link (/r/…) goes through its gate: only GET and HEAD, never a server
 * action (405 with Allow); the page's view is counted by the gate and a refused link gets a plain
 * page with the gate's status (never a 500, nothing about the person). Null: go on (the page,
 * its view counted; the PDF, whose route counts its own). With no gate in this process, no page
 * is drawn uncounted: 503.
 */
async function reportLinkAnswer(req: NextRequest): Promise<NextResponse | null> {
  const path = req.nextUrl.pathname;
  if (!REPORT_LINK_PATH_RE.test(path)) return null;
  if (!(REPORT_LINK_METHODS as readonly string[]).includes(req.method) || req.headers.has("next-action"))
    return linkRefusal(405, "A report link can only be opened.", { allow: REPORT_LINK_METHODS.join(", ") });
  const m = REPORT_LINK_PAGE_RE.exec(path);
  if (!m) return null;
  const gate = reportLinkGateSlot().get();
  const unavailable = "This report cannot be opened right now; try again in a minute.";
  if (!gate) return linkRefusal(503, unavailable, { "retry-after": String(RETRY_AFTER_S) });
  try {
    const answer = await gate(m[1]!);
    if (answer.open) return null;
    return linkRefusal(answer.status, answer.message, answer.retryAfterS ? { "retry-after": String(answer.retryAfterS) } : {});
  } catch {
    return linkRefusal(503, unavailable, { "retry-after": String(RETRY_AFTER_S) });
  }
}

/** The request header the root layout reads the page's nonce from. */
const NONCE_HEADER = "x-nonce";

/** Next's default serverActions.bodySizeLimit. */
const MAX_ACTION_BYTES = 1_048_576;

function refuse(status: number, code: string, message: string): NextResponse {
  return NextResponse.json({ error: { code, message } }, { status, headers: { "cache-control": "no-store" } });
}

function withHsts(req: NextRequest, res: NextResponse): NextResponse {
  const https = isServedOverHttps({
    configuredUrl: configuredPublicUrl(env),
    forwardedProto: req.headers.get("x-forwarded-proto"),
    requestUrl: req.url,
  });
  if (https) res.headers.set(HSTS_HEADER.key, HSTS_HEADER.value);
  return res;
}

/**
 * Whether React's reply decoder can decode these action arguments: the root model (JSON) and
 * every part it references exist. Strings starting with "$" are references except the escaped
 * and self-contained forms ($$ text, $K form fields, $D date, $n bigint, $u/$H undefined, $N NaN,
 * $I Infinity, $- negatives, $T temporary references).
 */
function decodableReply(root: string, parts: Map<string, string> | null): boolean {
  const seen = new Set<string>();
  const visit = (text: string, depth: number): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: depth }];
    while (stack.length > 0) {
      const { v, d } = stack.pop()!;
      if (d > 64) return false;
      if (typeof v === "string") {
        if (!v.startsWith("$") || /^\$[$KDnuNIHT-]/.test(v)) continue;
        // A reference to another part: "$<hex>" or "$<letter><hex>".
        const id = /^\$[0-9a-f]/.test(v) ? v.slice(1) : v.slice(2);
        if (!/^[0-9a-f]{1,8}$/.test(id) || !parts) return false;
        const key = String(parseInt(id, 16));
        const part = parts.get(key);
        if (part === undefined) return false;
        if (v[1] === "B" || seen.has(key)) continue; // a blob, or a part already checked
        seen.add(key);
        if (!visit(part, d + 1)) return false;
      } else if (Array.isArray(v)) {
        for (const x of v) stack.push({ v: x, d: d + 1 });
      } else if (v && typeof v === "object") {
        for (const x of Object.values(v)) stack.push({ v: x, d: d + 1 });
      }
    }
    return true;
  };
  return visit(root, 0);
}

async function screenAction(req: NextRequest): Promise<NextResponse | null> {
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (origin?.trim() === "null") return refuse(403, "forbidden", "This request comes from an anonymous origin (Origin: null).");
  if (origin) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      /* not a URL */
    }
    if (originHost !== host) return refuse(403, "forbidden", "This request comes from another site.");
  }
  const length = req.headers.get("content-length");
  if (length === null) return refuse(400, "bad_request", "Send the request body with its length.");
  if (Number(length) > MAX_ACTION_BYTES) return refuse(413, "payload_too_large", `The request is larger than ${MAX_ACTION_BYTES} bytes.`);
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await req.clone().formData();
    } catch {
      return refuse(400, "bad_request", "The form data cannot be read.");
    }
    const root = form.get("0");
    const parts = new Map<string, string>();
    for (const [k, v] of form) if (/^\d+$/.test(k)) parts.set(k, typeof v === "string" ? v : '"$$blob"');
    if (typeof root !== "string" || !decodableReply(root, parts)) return refuse(400, "bad_request", "The action's arguments cannot be decoded.");
    return null;
  }
  if (type.startsWith("text/plain")) {
    const text = await req.clone().text();
    if (!decodableReply(text, null)) return refuse(400, "bad_request", "The action's arguments cannot be decoded.");
    return null;
  }
  if (type.startsWith("application/x-www-form-urlencoded")) return null;
  return refuse(415, "unsupported_media_type", "Server actions take text/plain or form data.");
}

/** Passes the request on; a page (not an API route) gets its policy with a fresh nonce. */
function next(req: NextRequest): NextResponse {
  if (req.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy({ isProduction: process.env.NODE_ENV === "production", nonce });
  const headers = new Headers(req.headers);
  headers.set(NONCE_HEADER, nonce);
  headers.set(CSP_HEADER, csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(CSP_HEADER, csp);
  return res;
}

export async function proxy(req: NextRequest): Promise<NextResponse> {
  try {
    decodeURIComponent(req.nextUrl.pathname);
  } catch {
    return withHsts(req, refuse(400, "bad_request", "The address is not valid."));
  }
  // a share link answers only what its gate lets through (a server action's request included)
  if (REPORT_LINK_PATH_RE.test(req.nextUrl.pathname)) {
    const outage = await outageAnswer(req);
    if (outage) return withHsts(req, outage);
    const refusedLink = await reportLinkAnswer(req);
    return withHsts(req, refusedLink ?? next(req));
  }
  if (req.method === "POST" && req.headers.has("next-action")) {
    const refused = await screenAction(req);
    if (refused) return withHsts(req, refused);
  }
  const outage = await outageAnswer(req);
  if (outage) return withHsts(req, outage);
  return withHsts(req, next(req));
}

export const config = {
  matcher: [
    // every page (its policy's nonce); API routes, static files and icons never
    { source: "/((?!api/|_next/static|_next/image|favicon\\.ico|apple-icon\\.png|manifest\\.webmanifest).*)" },
    // API routes (503 while the database is away), but the webhook receiver, the health check and
    // the import: Next.js buffers the body of a request a proxy runs for and gives the route only
    // its first 10 MB, after the last byte (app/api/import/import-proxy.test.ts). The import
    // streams its upload to disk and answers a database away with its own 503.
    { source: "/api/((?!webhooks/|health|import$).*)" },
    // server-action posts (they carry the `next-action` header) and paths with a percent sign
    // (the only ones that can be broken)
    { source: "/((?!_next/static|_next/image|favicon\\.ico|api/webhooks/|api/import$).*)", has: [{ type: "header", key: "next-action" }] },
    "/(.*%.*)",
    // HSTS for a configured https URL: requests without an X-Forwarded-Proto of https (with
    // one, next.config.mjs's header rule adds it at no cost, so behind an https proxy no request
    // pays for this). Static files, the webhook receiver and the import never do.
    {
      source: "/((?!_next/static|_next/image|favicon\\.ico|api/webhooks/|api/import$).*)",
      has: [{ type: "header", key: "x-forwarded-proto", value: "http(?:\\s*,.*)?" }],
    },
    { source: "/((?!_next/static|_next/image|favicon\\.ico|api/webhooks/|api/import$).*)", missing: [{ type: "header", key: "x-forwarded-proto" }] },
  ],
};
