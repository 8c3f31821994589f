import "server-only";
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import { AppError } from "@/lib/http/errors";
import { parseStoredKinds, type DataKind } from "@/lib/auth/api-scopes";
import { findApiTokenByHash, touchApiToken } from "@/lib/db/queries/api-tokens";

/**
 * Personal access tokens: `rs_pat_` followed by 32 random bytes (base64url, 43 characters). A
 * token that long cannot be guessed, so a plain SHA-256 of it is enough to store (no salt, no
 * slow hash: there is nothing to brute-force) and finding it is one indexed lookup. The prefix
 * makes a leaked token recognisable to secret scanners and to people.
 *
 * Only the `Authorization: Bearer` header authenticates the read API and the MCP endpoint: a
 * session cookie never does, so a page on another site cannot make a signed-in browser read
 * the API.
 */

export const TOKEN_PREFIX = "rs_pat_";
const TOKEN_RE = /^rs_pat_[A-Za-z0-9_-]{43}$/;
/** Characters of the token shown in the list ("rs_pat_" and 4 more). */
const SHOWN = TOKEN_PREFIX.length + 4;
/** A use is written down at most once a minute per token (the list shows minutes). */
const TOUCH_EVERY_MS = 60_000;

export function mintApiToken(): { token: string; tokenHash: string; prefix: string } {
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString("base64url");
  return { token, tokenHash: hashApiToken(token), prefix: token.slice(0, SHOWN) };
}

export function hashApiToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

/** Who a token reads for: its owner, and what it may read. */
export type TokenPrincipal = { tokenId: string; userId: string; kinds: ReadonlySet<DataKind> };

/** The bearer token of a request, if it sends one in the form Ringside issues. */
export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * The principal of a request's bearer token: AppError(unauthorized) without one, or when it is
 * malformed, unknown, revoked or expired (the same answer for each, so nothing is learnt from it).
 */
export async function requireApiToken(req: Request, now = clock.date()): Promise<TokenPrincipal> {
  const token = bearerToken(req);
  if (!token) throw new AppError("unauthorized", "Send a personal access token: `Authorization: Bearer rs_pat_…` (Settings → API).");
  const row = TOKEN_RE.test(token) ? await findApiTokenByHash(hashApiToken(token)) : null;
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= now.getTime()))
    throw new AppError("unauthorized", "This token is not valid (revoked, expired, or never issued here).");
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS) await touchApiToken(row.id, now);
  return { tokenId: row.id, userId: row.userId, kinds: new Set(parseStoredKinds(row.kinds)) };
}
