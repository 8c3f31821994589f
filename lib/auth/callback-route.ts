import "server-only";
import type { NextRequest } from "next/server";
import { logger } from "@/lib/log";
import { runWithCallbackContext, type CallbackContext } from "@/lib/auth/callback-context";
import { INVITE_COOKIE } from "@/lib/auth/invites";
import { publicOriginFrom } from "@/lib/auth/origin";
import { ringOAuth, type RingOAuth } from "@/lib/auth/ring-oauth";
import { SETUP_CODE_COOKIE } from "@/lib/auth/setup-code";
import { checkCallbackIssuer, classifyAuthorizeError, isSignInErrorCode, safeDetail, type SignInErrorCode } from "@/lib/auth/sign-in-errors";

export const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;
const ERROR_PAGE = "/sign-in/error";

type Handler = (req: NextRequest) => Promise<Response>;

function errorRedirect(origin: string, code: SignInErrorCode, detail: string | undefined, from?: Response): Response {
  const url = new URL(ERROR_PAGE, origin);
  url.searchParams.set("error", code);
  if (detail) url.searchParams.set("detail", detail);
  const headers = new Headers({ location: url.toString(), "cache-control": "no-store" });
  for (const c of from?.headers.getSetCookie() ?? []) headers.append("set-cookie", c);
  return new Response(null, { status: 302, headers });
}

function clearCookie(name: string, secure: boolean): string {
  return `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The one-time sign-in cookies of Auth.js (state, PKCE verifier): dropped when a sign-in ends in an error. */
const CHECK_COOKIES = ["authjs.state", "authjs.pkce.code_verifier"];

function clearCheckCookies(res: Response, secure: boolean): void {
  for (const name of CHECK_COOKIES) {
    res.headers.append("set-cookie", secure ? clearCookie(`__Secure-${name}`, true) : clearCookie(name, false));
  }
}

/** Where Auth.js sends a failed callback: its error page, the sign-in page with ?error, or /api/auth/signin. */
function failedLocation(location: string, origin: string): { known?: SignInErrorCode } | null {
  // Auth.js builds the origin of its redirects from AUTH_URL or the request: compare paths only.
  const url = new URL(location, origin);
  if (url.pathname === ERROR_PAGE) {
    const code = url.searchParams.get("error");
    return isSignInErrorCode(code) ? { known: code } : {};
  }
  if (url.pathname === "/sign-in" && url.searchParams.has("error")) return {};
  if (url.pathname === "/api/auth/signin" || url.pathname === "/api/auth/error") return {};
  return null;
}

/**
 * Wraps Auth.js's GET handler for the ring callback (/api/auth/callback/ring):
 * - `iss` is checked first (RFC 9207): with RING_OAUTH_ISSUER it must equal the issuer, on
 *   success and error answers alike; without it, an answer that names an issuer came from the
 *   newer provider (a developer-portal app set up as a legacy one). A refusal ends on the error
 *   page before Auth.js runs, so nothing is stored;
 * - an `error` in the redirect (denied, the service's 10-user cap, ...) goes straight to the
 *   friendly error page; Auth.js is not involved and nothing is stored;
 * - an answer without `state` is refused with its own explanation (state is always sent);
 * - otherwise the callback runs inside a CallbackContext (granted scope from the redirect,
 *   invite cookie, setup-code cookie, current session) and any failure Auth.js reports as a
 *   coarse code is sent to the error page with the precise reason recorded meanwhile;
 * - a used invite cookie is cleared, and the setup-code cookie always.
 */
export function withRingCallback(handler: Handler): Handler {
  return async (req) => {
    const url = new URL(req.url);
    if (!/\/api\/auth\/callback\/ring\/?$/.test(url.pathname)) return handler(req);
    const origin = publicOriginFrom(req.headers, req.url);
    const secure = origin.startsWith("https:");
    const refuse = (code: SignInErrorCode, detail: string | undefined) => {
      const out = errorRedirect(origin, code, detail);
      clearCheckCookies(out, secure);
      return out;
    };
    let oauth: RingOAuth;
    try {
      oauth = await ringOAuth();
    } catch (err) {
      logger.error({ error: err instanceof Error ? err.name : "error" }, "ring identity provider discovery failed");
      return refuse("provider_unreachable", "discovery");
    }
    const iss = checkCallbackIssuer(oauth.issuer, url.searchParams.get("iss"));
    if (!iss.ok) {
      logger.warn({ code: iss.code, detail: iss.detail }, "ring callback refused: issuer check (RFC 9207)");
      return refuse(iss.code, iss.detail);
    }
    const error = url.searchParams.get("error");
    if (error) {
      const code = classifyAuthorizeError(error, url.searchParams.get("error_description"));
      logger.info({ code, error: safeDetail(error) ?? null }, "ring authorization ended with an error");
      return refuse(code, safeDetail(error));
    }
    if (!url.searchParams.get("state")) {
      logger.warn({ code: "state_missing" }, "ring callback refused: no state");
      return refuse("state_missing", "state_missing");
    }
    const sessionToken = SESSION_COOKIES.map((n) => req.cookies.get(n)?.value).find(Boolean) ?? null;
    const ctx: CallbackContext = {
      provider: oauth.mode,
      callbackScope: url.searchParams.get("scope"),
      inviteSecret: req.cookies.get(INVITE_COOKIE)?.value ?? null,
      setupCode: req.cookies.get(SETUP_CODE_COOKIE)?.value ?? null,
      sessionToken,
    };
    // The setup code cookie lives for one round trip, whatever its outcome.
    const hadSetupCode = req.cookies.has(SETUP_CODE_COOKIE);
    const res = await runWithCallbackContext(ctx, () => handler(req));
    const location = res.headers.get("location");
    const failed = location ? failedLocation(location, origin) : null;
    if (ctx.failure || failed) {
      const code = ctx.failure ?? failed?.known ?? "unknown";
      const out = errorRedirect(origin, code, ctx.failureDetail, res);
      if (code === "invite_invalid" && ctx.inviteSecret) out.headers.append("set-cookie", clearCookie(INVITE_COOKIE, secure));
      if (hadSetupCode) out.headers.append("set-cookie", clearCookie(SETUP_CODE_COOKIE, secure));
      return out;
    }
    if (ctx.inviteSecret || hadSetupCode) {
      const headers = new Headers(res.headers);
      if (ctx.inviteSecret) headers.append("set-cookie", clearCookie(INVITE_COOKIE, secure));
      if (hadSetupCode) headers.append("set-cookie", clearCookie(SETUP_CODE_COOKIE, secure));
      return new Response(res.body, { status: res.status, headers });
    }
    return res;
  };
}
