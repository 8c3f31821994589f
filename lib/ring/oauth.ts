import "server-only";
import { z } from "zod";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { ringOAuth } from "@/lib/auth/ring-oauth";
import { isWrongPortalRefusal } from "@/lib/auth/sign-in-errors";

/**
 * Direct calls to the ring service's OAuth endpoints outside the Auth.js sign-in: the
 * refresh grant (lib/ring/tokens.ts) and revocation (disconnect, refused sign-ins). The
 * addresses are those of the identity provider in use (lib/auth/ring-oauth.ts: the
 * environment's, or the newer provider's discovery document), the client credentials come from
 * the environment, as for the sign-in provider. Tokens are never logged and never put in error
 * messages.
 */

export const tokenResponseSchema = z
  .object({
    access_token: z.string().min(1),
    token_type: z.string().nullish(),
    expires_in: z.coerce.number().int().nonnegative().nullish(),
    refresh_token: z.string().min(1).nullish(),
    scope: z.string().nullish(),
  })
  .loose();
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

const tokenErrorSchema = z.object({ error: z.string().optional(), error_description: z.string().optional(), detail: z.unknown().optional() }).loose();

/** The token endpoint refused a request. `code` is the RFC 6749 `error` when the body had one. */
export class TokenEndpointError extends Error {
  readonly status: number;
  readonly code: string | null;
  /** Which provider's token address answered. */
  readonly provider: "legacy" | "newer";
  constructor(status: number, code: string | null, description: string | null, provider: "legacy" | "newer" = "legacy") {
    super(`The ring service's token endpoint answered ${status}${code ? ` (${code})` : ""}${description ? `: ${description.slice(0, 200)}` : ""}.`);
    this.name = "TokenEndpointError";
    this.status = status;
    this.code = code;
    this.provider = provider;
  }
  get isInvalidGrant(): boolean {
    return this.code === "invalid_grant";
  }
  /** The legacy token address refusing an app of the newer developer portal (400 invalid_request). */
  get isWrongPortal(): boolean {
    return isWrongPortalRefusal(this.code, this.status, this.provider);
  }
}

/** The token endpoint could not be reached or answered something unreadable. */
export class TokenEndpointUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenEndpointUnavailableError";
  }
}

/** HTTP Basic credentials as RFC 6749 §2.3.1 wants them (form-urlencoded id and secret). */
export function clientBasicAuth(clientId = env.RING_CLIENT_ID, clientSecret = env.RING_CLIENT_SECRET ?? ""): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(clientSecret)}`).toString("base64")}`;
}

/** POST grant_type=refresh_token. The response's refresh token may be missing (keep the old one then). */
export async function requestTokenRefresh(refreshToken: string): Promise<TokenResponse> {
  let oauth;
  try {
    oauth = await ringOAuth();
  } catch (err) {
    throw new TokenEndpointUnavailableError(err instanceof Error ? err.message : "The identity provider's discovery document could not be read.");
  }
  let res: Response;
  try {
    res = await fetch(oauth.tokenUrl, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
        accept: "application/json",
        authorization: clientBasicAuth(),
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
      signal: AbortSignal.timeout(env.RING_REQUEST_TIMEOUT_MS),
      cache: "no-store",
    });
  } catch (err) {
    throw new TokenEndpointUnavailableError(`The ring service's token endpoint could not be reached (${err instanceof Error ? err.name : "error"}).`);
  }
  const text = await res.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const parsed = tokenErrorSchema.safeParse(body);
    const code = parsed.success ? (parsed.data.error ?? null) : null;
    const description = parsed.success ? (parsed.data.error_description ?? null) : null;
    throw new TokenEndpointError(res.status, code, description, oauth.mode);
  }
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) throw new TokenEndpointUnavailableError("The ring service's token endpoint sent a response without an access token.");
  return parsed.data;
}

export type TokenTypeHint = "access_token" | "refresh_token";

/**
 * Hands one token back to the service. Legacy provider: POST {RING_REVOKE_URL}?access_token=…
 * (facts §5.5; the method is undocumented, POST is what most clients use; the same parameter
 * carries a refresh token). Newer provider: RFC 7009 at its revocation endpoint (form `token`
 * and `token_type_hint`, client authentication). Best effort: returns whether the service
 * confirmed it, never throws.
 */
export async function revokeToken(token: string, hint: TokenTypeHint, reason: string): Promise<boolean> {
  try {
    const oauth = await ringOAuth();
    if (!oauth.revokeUrl) {
      logger.warn({ reason }, "ring token not revoked: the identity provider names no revocation endpoint (set RING_REVOKE_URL)");
      return false;
    }
    const timeout = AbortSignal.timeout(Math.min(env.RING_REQUEST_TIMEOUT_MS, 15_000));
    let res: Response;
    if (oauth.revocation === "rfc7009") {
      res = await fetch(oauth.revokeUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8", authorization: clientBasicAuth() },
        body: new URLSearchParams({ token, token_type_hint: hint }),
        signal: timeout,
        cache: "no-store",
      });
    } else {
      const url = new URL(oauth.revokeUrl);
      url.searchParams.set("access_token", token);
      res = await fetch(url, { method: "POST", headers: { authorization: clientBasicAuth() }, signal: timeout, cache: "no-store" });
    }
    await res.arrayBuffer().catch(() => undefined);
    logger.info({ reason, hint, status: res.status }, "ring token revoked");
    return res.ok;
  } catch (err) {
    logger.warn({ reason, hint, error: err instanceof Error ? err.name : "error" }, "ring token revocation failed");
    return false;
  }
}

/** Revokes an access token (a refused sign-in's fresh token), or another kind given its hint. */
export function revokeAccessToken(token: string, reason: string, hint: TokenTypeHint = "access_token"): Promise<boolean> {
  return revokeToken(token, hint, reason);
}
