// @ts-check
// Security headers sent on every response (next.config.mjs `headers()`), and the page's
// Content-Security-Policy with its per-request nonce (proxy.ts).
import { env } from "./env.mjs";

/**
 * The Content-Security-Policy. With a nonce (a page, proxy.ts makes one per request): only
 * scripts carrying it run — Next.js puts it on its own bootstrap scripts, the root layout on
 * the theme script — and what they load ('strict-dynamic'); no inline script without it.
 * Without one (API answers, files): no inline script at all. Dev mode also needs eval.
 * @param {{ isProduction: boolean, nonce?: string }} o
 */
export function contentSecurityPolicy({ isProduction, nonce }) {
  return [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}' 'strict-dynamic'` : ""}${isProduction ? "" : " 'unsafe-eval'"}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action ${formActionSources().join(" ")}`,
    "object-src 'none'",
  ].join("; ");
}

/**
 * Where a form may lead: Ringside itself (its server actions and Auth.js routes), and the ring
 * service's authorization page, where signing in redirects after the form is sent (browsers
 * apply form-action to those redirects): the origin of RING_AUTHORIZE_URL and, with the newer
 * identity provider, of its issuer (whose discovery names the authorization endpoint).
 * @returns {string[]}
 */
export function formActionSources() {
  const origins = new Set(["'self'"]);
  for (const url of [env.RING_AUTHORIZE_URL, env.RING_OAUTH_ISSUER]) {
    if (!url) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // (lib/env.mjs has checked both: a URL)
    }
  }
  return [...origins];
}

/** The name every answer carries its policy under (proxy.ts replaces the value on pages). */
export const CSP_HEADER = "content-security-policy";

/** @param {boolean} isProduction */
export function securityHeaders(isProduction) {
  return [
    { key: CSP_HEADER, value: contentSecurityPolicy({ isProduction }) },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  ];
}

/**
 * Headers of every answer under /r/ (a report's share link, its page and its PDF): not indexed,
 * no referrer sent onwards (the link's secret is in the address), never cached. next.config.mjs
 * adds them after the headers above, so they win where both set one.
 */
export const REPORT_LINK_HEADERS = [
  { key: "X-Robots-Tag", value: "noindex, nofollow" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "Cache-Control", value: "private, no-store" },
];

/** HTTP Strict Transport Security: sent only on answers served over https. */
export const HSTS_HEADER = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };

/**
 * Whether a request reaches Ringside over https: the configured public URL (AUTH_URL, else
 * PUBLIC_URL) is https, or the reverse proxy in front says so (the first X-Forwarded-Proto), or
 * the request itself is. Otherwise it is plain http. (Next's server fills in X-Forwarded-Proto
 * itself when no proxy sent one, so an "http" there does not mean a proxy said so.)
 * One rule for `Secure` cookies and HSTS.
 * @param {{ configuredUrl?: string | null, forwardedProto?: string | null, requestUrl: string }} r
 */
export function isServedOverHttps(r) {
  if (r.configuredUrl?.startsWith("https:")) return true;
  if (r.forwardedProto?.split(",")[0]?.trim().toLowerCase() === "https") return true;
  return r.requestUrl.startsWith("https:");
}
