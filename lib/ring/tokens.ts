import "server-only";
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { normalizeScopes } from "@/lib/auth/scopes";
import {
  claimTokenRefresh,
  findRingAccountByUserId,
  markNeedsReconnect,
  readTokenRow,
  releaseRefreshLease,
  storeRefreshedTokens,
  type TokenRow,
} from "@/lib/db/queries/accounts";
import { TokenDecryptError, decryptToken, encryptToken } from "@/lib/ring/crypto";
import { TokenEndpointError, requestTokenRefresh } from "@/lib/ring/oauth";
import { ReconnectRequiredError, TokenRefreshError } from "@/lib/ring/errors";

/**
 * The one owner of the ring service's OAuth tokens.
 *
 * - Tokens are stored only encrypted (encryptToken/decryptToken, AES-256-GCM).
 * - getValidAccessToken refreshes ahead of expiry (60 s buffer). Exactly one refresh runs per
 *   account however many callers arrive at once: an in-process promise map, plus a re-read of
 *   the row and a refresh lease taken inside one write transaction (lib/db/queries/accounts.ts
 *   TokenStore), so two processes never both spend the same single-use refresh token.
 * - The rotated refresh token is persisted (encrypted) before the new access token is returned.
 * - invalid_grant marks the connection "needs_reconnect", pauses the person's sync and is never
 *   retried; so does 400 invalid_request at the legacy token address (reason "wrong_portal":
 *   the app belongs to the newer developer portal). Tokens are never logged.
 */

export { encryptToken, decryptToken };

export { ReconnectRequiredError, TokenRefreshError };

const EXPIRY_BUFFER_MS = 60_000;
const LEASE_OWNER = `${process.pid}:${crypto.randomUUID()}`;

const inflight = new Map<string, Promise<string>>();

function isExpiring(row: Pick<TokenRow, "expires_at">, now = clock.now()): boolean {
  return row.expires_at !== null && row.expires_at * 1000 - EXPIRY_BUFFER_MS <= now;
}

async function failUnreadable(accountId: string): Promise<never> {
  await markNeedsReconnect(accountId, "token_unreadable");
  logger.warn({ accountId }, "stored ring token could not be decrypted; connection needs reconnect");
  throw new ReconnectRequiredError("token_unreadable", "The stored ring tokens cannot be read (was the encryption key changed?). Reconnect the ring.");
}

async function decryptOrReconnect(accountId: string, stored: string): Promise<string> {
  try {
    return decryptToken(stored);
  } catch (err) {
    if (err instanceof TokenDecryptError) return failUnreadable(accountId);
    throw err;
  }
}

/**
 * A usable access token for the account, refreshed first when it expires within 60 s, and until
 * when it stays usable (epoch ms: its expiry less those 60 s; the present for one just refreshed,
 * whose row is read again next time; no bound for one that does not expire).
 */
export async function getValidAccessTokenUntil(accountId: string): Promise<{ token: string; until: number }> {
  const row = await readTokenRow(accountId);
  if (!row) throw new ReconnectRequiredError("no_account", "No ring connection.");
  if (row.status !== "active") throw new ReconnectRequiredError("not_active");
  if (row.access_token && !isExpiring(row))
    return {
      token: await decryptOrReconnect(accountId, row.access_token),
      until: row.expires_at === null ? Number.POSITIVE_INFINITY : row.expires_at * 1000 - EXPIRY_BUFFER_MS,
    };
  return { token: await refreshSingleFlight(accountId, null), until: clock.now() };
}

/** A usable access token for the account, refreshed first when it expires within 60 s. */
export async function getValidAccessToken(accountId: string): Promise<string> {
  return (await getValidAccessTokenUntil(accountId)).token;
}

/**
 * Called once by the data client after a 401. When the stored token already differs from the
 * rejected one (someone refreshed meanwhile) it is returned; otherwise one refresh is forced.
 */
export async function refreshAfterUnauthorized(accountId: string, rejectedToken: string): Promise<string> {
  const row = await readTokenRow(accountId);
  if (!row) throw new ReconnectRequiredError("no_account", "No ring connection.");
  if (row.status !== "active") throw new ReconnectRequiredError("not_active");
  if (row.access_token) {
    const current = await decryptOrReconnect(accountId, row.access_token);
    if (current !== rejectedToken && !isExpiring(row)) return current;
  }
  return refreshSingleFlight(accountId, rejectedToken);
}

function refreshSingleFlight(accountId: string, rejectedToken: string | null): Promise<string> {
  const running = inflight.get(accountId);
  if (running) return running;
  const promise = refreshNow(accountId, rejectedToken).finally(() => inflight.delete(accountId));
  inflight.set(accountId, promise);
  return promise;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function refreshNow(accountId: string, rejectedToken: string | null): Promise<string> {
  const leaseMs = env.RING_REQUEST_TIMEOUT_MS + 5_000;
  const deadline = clock.now() + leaseMs + 5_000;
  const needsRefresh = (row: TokenRow) => {
    if (!row.access_token) return true;
    if (rejectedToken !== null && decryptToken(row.access_token) === rejectedToken) return true;
    return isExpiring(row);
  };

  let storedRefresh: string | null;
  for (;;) {
    let claim;
    try {
      claim = await claimTokenRefresh({ accountId, owner: LEASE_OWNER, leaseMs, needsRefresh });
    } catch (err) {
      if (err instanceof TokenDecryptError) return failUnreadable(accountId);
      throw err;
    }
    if (claim.kind === "missing") throw new ReconnectRequiredError("no_account", "No ring connection.");
    if (claim.kind === "unavailable") throw new ReconnectRequiredError("not_active");
    if (claim.kind === "fresh") return decryptOrReconnect(accountId, claim.storedAccessToken);
    if (claim.kind === "claimed") {
      storedRefresh = claim.storedRefreshToken;
      break;
    }
    // Another process is refreshing this account: wait for its result.
    if (clock.now() > deadline) throw new TokenRefreshError("Another process is still refreshing this ring connection.");
    await sleep(100);
  }

  if (!storedRefresh) {
    await markNeedsReconnect(accountId, "no_refresh_token");
    throw new ReconnectRequiredError("no_refresh_token", "The ring connection has no refresh token. Reconnect the ring.");
  }
  let refreshToken: string;
  try {
    refreshToken = decryptToken(storedRefresh);
  } catch (err) {
    await releaseRefreshLease(accountId, LEASE_OWNER);
    if (err instanceof TokenDecryptError) return failUnreadable(accountId);
    throw err;
  }

  let response;
  try {
    response = await requestTokenRefresh(refreshToken);
  } catch (err) {
    if (err instanceof TokenEndpointError && err.isInvalidGrant) {
      await markNeedsReconnect(accountId, "invalid_grant");
      logger.warn({ accountId, status: err.status }, "ring refresh token refused (invalid_grant); connection needs reconnect");
      throw new ReconnectRequiredError("invalid_grant", "The ring service no longer accepts this connection. Reconnect the ring.");
    }
    if (err instanceof TokenEndpointError && err.isWrongPortal) {
      // Every further refresh would be refused the same way: the app now belongs to the newer
      // developer portal, whose identity provider Ringside is not set up for (RING_OAUTH_ISSUER).
      await markNeedsReconnect(accountId, "wrong_portal");
      logger.warn({ accountId, status: err.status }, "ring refresh refused at the legacy token address (invalid_request): set RING_OAUTH_ISSUER");
      throw new ReconnectRequiredError(
        "wrong_portal",
        "The ring service's older token address refuses this app (it belongs to the newer developer portal): set RING_OAUTH_ISSUER and reconnect.",
      );
    }
    await releaseRefreshLease(accountId, LEASE_OWNER);
    logger.warn({ accountId, error: err instanceof Error ? err.name : "error" }, "ring token refresh failed");
    throw new TokenRefreshError(err instanceof Error ? err.message : "The ring token refresh failed.", {
      status: err instanceof TokenEndpointError ? err.status : null,
      code: err instanceof TokenEndpointError ? err.code : null,
    });
  }

  const scope = response.scope ? normalizeScopes(response.scope) : [];
  // Persist the rotated refresh token (encrypted) before the new access token is used.
  await storeRefreshedTokens(accountId, {
    accessToken: encryptToken(response.access_token),
    refreshToken: response.refresh_token ? encryptToken(response.refresh_token) : null,
    expiresAt: response.expires_in ? Math.floor(clock.now() / 1000) + response.expires_in : null,
    tokenType: response.token_type ?? null,
    scope: scope.length > 0 ? scope.join(" ") : null,
  });
  logger.info({ accountId, rotated: Boolean(response.refresh_token) }, "ring token refreshed");
  return response.access_token;
}

/** The person's ring connection (no tokens). */
export async function getRingAccountForUser(userId: string): Promise<{ accountId: string; ringUserId: string; status: string; scopes: string[] } | null> {
  const a = await findRingAccountByUserId(userId);
  if (!a) return null;
  return { accountId: a.accountId, ringUserId: a.ringUserId, status: a.status, scopes: normalizeScopes(a.scope) };
}
