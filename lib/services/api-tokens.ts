import "server-only";
import { AppError } from "@/lib/http/errors";
import { API_TOKEN_DEFAULT_EXPIRY, API_TOKENS_PER_PERSON } from "@/lib/schemas/requests";
import { parseStoredKinds, type DataKind } from "@/lib/auth/api-scopes";
import { mintApiToken } from "@/lib/auth/api-tokens";
import { deleteApiToken, insertApiToken, listApiTokens, type ApiTokenRow } from "@/lib/db/queries/api-tokens";
import { apiRateLimiter } from "@/lib/limits/api-limiter";
import { logger } from "@/lib/log";
import { clock } from "@/lib/clock";

// Settings → API: a person's personal access tokens. Created with a name and data kinds, shown
// once, listed with their last use, revoked by deleting them (a revoked token answers 401 at
// once: every request looks the token up). Ids in requests only ever select among the
// person's own tokens.

/** Settings → API: one of the person's tokens (never the token itself). */
export type ApiTokenSummary = {
  id: string;
  name: string;
  prefix: string;
  kinds: DataKind[];
  lastUsedAt: string | null;
  expiresAt: string | null;
  createdAt: string;
};

function summary(r: ApiTokenRow): ApiTokenSummary {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    kinds: parseStoredKinds(r.kinds),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Creates a token (name, kinds and lifetime already validated: `expires` in days, null for
 * never; not given: the form's default); the token is in the answer and nowhere else.
 */
export async function createApiToken(
  userId: string,
  input: { name: string; kinds: readonly DataKind[]; expires?: number | null },
): Promise<{ token: string; summary: ApiTokenSummary }> {
  const minted = mintApiToken();
  const now = clock.now();
  const days = input.expires === undefined ? Number(API_TOKEN_DEFAULT_EXPIRY) : input.expires;
  const expiresAt = days === null ? null : new Date(now + days * 86_400_000);
  const row = await insertApiToken({
    userId,
    name: input.name,
    tokenHash: minted.tokenHash,
    prefix: minted.prefix,
    kinds: JSON.stringify(input.kinds),
    max: API_TOKENS_PER_PERSON,
    expiresAt,
    now: new Date(now),
  });
  if (!row) throw new AppError("conflict", `You have ${API_TOKENS_PER_PERSON} tokens: revoke one first.`);
  logger.info({ userId, patId: row.id, kinds: input.kinds.length }, "api token created");
  return { token: minted.token, summary: summary(row) };
}

export async function listApiTokenSummaries(userId: string): Promise<ApiTokenSummary[]> {
  return (await listApiTokens(userId)).map(summary);
}

/** Revokes one of the person's tokens (404 when it is not theirs). */
export async function revokeApiToken(userId: string, id: string): Promise<void> {
  if (!(await deleteApiToken(userId, id))) throw new AppError("not_found", "No such token.");
  apiRateLimiter().drop(id);
  logger.info({ userId, patId: id }, "api token revoked");
}
