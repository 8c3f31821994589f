import "server-only";
import { headers } from "next/headers";
import { configuredPublicUrl, env } from "@/lib/env.mjs";
import { isServedOverHttps } from "@/lib/security-headers.mjs";

/**
 * Where this Ringside is, as seen by a browser: the one resolver of the public origin, used
 * for redirects, invite links, the redirect URI on /setup, `Secure` cookies, HSTS and the
 * same-origin rule of API writes.
 *
 * Precedence: AUTH_URL (the address people sign in at; Auth.js builds its redirect URI from
 * it), else PUBLIC_URL (the address the ring service reaches the webhook at, usually the
 * same), else what the request says (x-forwarded-host / x-forwarded-proto from a reverse
 * proxy, else Host).
 */

type HeaderSource = { get(name: string): string | null };

const first = (value: string | null | undefined) => value?.split(",")[0]?.trim() || null;

/** The configured public origin (AUTH_URL, else PUBLIC_URL), or null when neither is set. */
export function configuredOrigin(): string | null {
  const configured = configuredPublicUrl(env);
  return configured ? new URL(configured).origin : null;
}

/** The host the browser addressed: the proxy's x-forwarded-host, else Host. */
function requestHost(h: HeaderSource): string | null {
  return first(h.get("x-forwarded-host")) ?? first(h.get("host"));
}

/** The public origin for a request's headers (and its URL, for the scheme when nothing else says). */
export function publicOriginFrom(h: HeaderSource, requestUrl?: string): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  const host = requestHost(h);
  const forwardedProto = first(h.get("x-forwarded-proto"));
  if (!host) return requestUrl ? new URL(requestUrl).origin : `http://localhost:${env.PORT}`;
  const urlProto = requestUrl ? new URL(requestUrl).protocol.replace(/:$/, "") : null;
  const proto = forwardedProto ?? urlProto ?? (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
}

/** The public origin of the request being served (server components, actions). */
export async function publicOrigin(): Promise<string> {
  return publicOriginFrom(await headers());
}

/**
 * Whether a request reaches this Ringside over https: the configured public URL says so, or
 * the proxy in front does (x-forwarded-proto), or the request itself does
 * (lib/security-headers.mjs). Used for `Secure` cookies; plain http (none of these) never gets them.
 */
export function servedOverHttps(req: { url: string; headers: HeaderSource }): boolean {
  return isServedOverHttps({ configuredUrl: configuredOrigin(), forwardedProto: req.headers.get("x-forwarded-proto"), requestUrl: req.url });
}

export type OriginCheck = { ok: true } | { ok: false; message: string };

/**
 * The same-origin rule of API writes (POST/PUT/PATCH/DELETE): the request must say it comes
 * from a page of this Ringside.
 * - `Origin` (every current browser sends it on such requests): must be this Ringside's origin,
 *   i.e. the configured one (AUTH_URL / PUBLIC_URL) or the host the request was addressed to
 *   (x-forwarded-host, Host, the request URL's host; a cross-site page can set none of them). `Origin: null` (sandboxed
 *   frames, privacy-stripped referrers) and anything unparsable are refused.
 * - no `Origin`: `Sec-Fetch-Site: same-origin` is accepted, any other value refused.
 * - neither header (a script, curl): refused. Scripts send `Origin: <Ringside's address>`,
 *   which a browser page on another site cannot forge.
 */
export function checkSameOrigin(req: { url: string; headers: HeaderSource }): OriginCheck {
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const value = origin.trim();
    if (value === "null") return { ok: false, message: "This request comes from an anonymous origin (Origin: null)." };
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return { ok: false, message: "The Origin header is not an address." };
    }
    if (parsed.origin === "null" || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      return { ok: false, message: "The Origin header is not a web address." };
    }
    const allowed = [env.AUTH_URL, env.PUBLIC_URL].filter((u): u is string => !!u).map((u) => new URL(u).origin);
    if (allowed.includes(parsed.origin)) return { ok: true };
    const hosts = [first(req.headers.get("x-forwarded-host")), first(req.headers.get("host")), URL.canParse(req.url) ? new URL(req.url).host : null]
      .filter((h): h is string => !!h)
      .map((h) => h.toLowerCase());
    if (hosts.includes(parsed.host.toLowerCase())) return { ok: true };
    return { ok: false, message: "This request comes from another site." };
  }
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) {
    return site.trim().toLowerCase() === "same-origin" ? { ok: true } : { ok: false, message: "This request comes from another site." };
  }
  return {
    ok: false,
    message: "Send an Origin header with this Ringside's address (browsers do; scripts add e.g. `Origin: http://localhost:3000`).",
  };
}

/** The redirect URI to register with the ring developer portal. */
export function ringRedirectUri(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/api/auth/callback/ring`;
}
