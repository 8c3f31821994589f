// @ts-check
// Security headers sent on every response (next.config.mjs `headers()`).
/** @param {boolean} isProduction */
export function securityHeaders(isProduction) {
  const csp = [
    "default-src 'self'",
    // Next.js inlines its bootstrap scripts; dev mode also needs eval for fast refresh.
    `script-src 'self' 'unsafe-inline'${isProduction ? "" : " 'unsafe-eval'"}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self' http: https:",
    "object-src 'none'",
  ].join("; ");
  return [
    { key: "Content-Security-Policy", value: csp },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  ];
}

/** HTTP Strict Transport Security: sent only on answers served over https. */
export const HSTS_HEADER = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };

/**
 * Whether a request reaches Ringside over https: the reverse proxy in front says so (the first
 * X-Forwarded-Proto); without that header, the configured public URL (AUTH_URL, else
 * PUBLIC_URL) does, or the request itself. Plain http by these: false. One rule for `Secure`
 * cookies and HSTS.
 * @param {{ configuredUrl?: string | null, forwardedProto?: string | null, requestUrl: string }} r
 */
export function isServedOverHttps(r) {
  const forwarded = r.forwardedProto?.split(",")[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  if (r.configuredUrl) return r.configuredUrl.startsWith("https:");
  return r.requestUrl.startsWith("https:");
}
