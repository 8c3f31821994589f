import "server-only";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { readDiscovery, type DiscoveryDocument } from "@/lib/auth/issuer.mjs";
import { newerProviderScopeRequest } from "@/lib/auth/scopes";
import { processSingleton } from "@/lib/process-singleton";

/**
 * Which identity provider Ringside talks to, and its addresses. One setting decides:
 * - RING_OAUTH_ISSUER unset → the legacy provider, every address from the environment as
 *   always (RING_AUTHORIZE_URL, RING_TOKEN_URL, RING_REVOKE_URL or their defaults), bare scope
 *   names, no `iss` on the callback, revocation by `?access_token=`.
 * - RING_OAUTH_ISSUER set → the newer provider of developer-portal apps: every address from its
 *   discovery document (explicit RING_*_URL variables still win), `iss` checked on every
 *   callback (RFC 9207), scope names from its scopes_supported, RFC 7009 revocation.
 */
export type RingOAuth = {
  mode: "legacy" | "newer";
  /** The issuer `iss` must equal on every callback; null for the legacy provider. */
  issuer: string | null;
  authorizeUrl: string;
  tokenUrl: string;
  /** null: the provider names no revocation endpoint and RING_REVOKE_URL is not set. */
  revokeUrl: string | null;
  /** "legacy": POST {url}?access_token=…; "rfc7009": form token + token_type_hint, client auth. */
  revocation: "legacy" | "rfc7009";
  /** The `scope` of the authorization request, in the provider's names. */
  requestScope: string;
};

type EnvLike = Pick<typeof env, "RING_AUTHORIZE_URL" | "RING_TOKEN_URL" | "RING_REVOKE_URL" | "RING_SCOPES" | "RING_OAUTH_ISSUER" | "RING_OAUTH_EXPLICIT">;

export function legacyRingOAuth(e: EnvLike = env): RingOAuth {
  return {
    mode: "legacy",
    issuer: null,
    authorizeUrl: e.RING_AUTHORIZE_URL,
    tokenUrl: e.RING_TOKEN_URL,
    revokeUrl: e.RING_REVOKE_URL,
    revocation: "legacy",
    requestScope: e.RING_SCOPES.join(" "),
  };
}

/** The newer provider's settings from its (validated) discovery document. Pure. */
export function newerRingOAuth(e: EnvLike, doc: DiscoveryDocument): RingOAuth {
  return {
    mode: "newer",
    issuer: doc.issuer,
    authorizeUrl: e.RING_OAUTH_EXPLICIT.authorize ?? doc.authorization_endpoint,
    tokenUrl: e.RING_OAUTH_EXPLICIT.token ?? doc.token_endpoint,
    revokeUrl: e.RING_OAUTH_EXPLICIT.revoke ?? doc.revocation_endpoint ?? null,
    revocation: "rfc7009",
    requestScope: newerProviderScopeRequest(e.RING_SCOPES, doc.scopes_supported ?? null).join(" "),
  };
}

const cache = processSingleton<{ resolved: RingOAuth | null; pending: Promise<RingOAuth> | null }>("ringOAuth", () => ({
  resolved: env.RING_OAUTH_ISSUER ? null : legacyRingOAuth(),
  pending: null,
}));

/**
 * The provider settings. The legacy provider's are known at once; the newer provider's
 * discovery document is read once per process (lib/server/start.mjs has already checked it
 * before the server started; a failure here is not cached, the next call tries again).
 */
export function ringOAuth(): Promise<RingOAuth> {
  if (cache.resolved) return Promise.resolve(cache.resolved);
  const issuer = env.RING_OAUTH_ISSUER;
  if (!issuer) return Promise.resolve((cache.resolved = legacyRingOAuth()));
  cache.pending ??= readDiscovery(issuer, { timeoutMs: Math.min(env.RING_REQUEST_TIMEOUT_MS, 15_000) })
    .then((doc) => {
      const resolved = newerRingOAuth(env, doc);
      cache.resolved = resolved;
      logger.info({ issuer: resolved.issuer, scopes: resolved.requestScope.split(" ").length }, "ring identity provider discovered");
      return resolved;
    })
    .finally(() => {
      cache.pending = null;
    });
  return cache.pending;
}
