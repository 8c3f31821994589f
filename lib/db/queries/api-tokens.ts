import "server-only";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";

// Personal access tokens (prisma/schema.prisma ApiToken, table api_token): rows in, rows out.
// Prepared statements: the lookup runs on every API request, like the session lookup. Only the
// token's SHA-256 is ever stored or asked for.

export type ApiTokenRow = {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  /** JSON list of data kinds */
  kinds: string;
  lastUsedAt: Date | null;
  createdAt: Date;
};

type Stored = Omit<ApiTokenRow, "lastUsedAt" | "createdAt"> & { lastUsedAt: string | number | null; createdAt: string | number };

const COLUMNS = `id, userId, name, prefix, kinds, lastUsedAt, createdAt`;

function toRow(r: Stored): ApiTokenRow {
  return { ...r, lastUsedAt: fromDbTime(r.lastUsedAt), createdAt: fromDbTime(r.createdAt) ?? new Date(0) };
}

let cache: { db: Database.Database; byHash: Database.Statement; touch: Database.Statement } | null = null;

function statements() {
  const conn = rawDb();
  if (cache?.db !== conn) {
    cache = {
      db: conn,
      byHash: conn.prepare(`SELECT ${COLUMNS} FROM api_token WHERE tokenHash = ?`),
      touch: conn.prepare(`UPDATE api_token SET lastUsedAt = ? WHERE id = ?`),
    };
  }
  return cache;
}

/** The token with this hash, if it exists (revoked tokens are deleted). */
export function findApiTokenByHash(tokenHash: string): ApiTokenRow | null {
  const row = statements().byHash.get(tokenHash) as Stored | undefined;
  return row ? toRow(row) : null;
}

/** Records a use of the token. */
export function touchApiToken(id: string, at: Date): void {
  statements().touch.run(toDbTime(at), id);
}

/**
 * Stores a new token unless the person has `max` already: one statement, so two requests at
 * once cannot both pass the bound. Null when the bound was reached.
 */
export function insertApiToken(opts: { userId: string; name: string; tokenHash: string; prefix: string; kinds: string; max: number; now?: Date }): ApiTokenRow | null {
  const id = crypto.randomUUID();
  const createdAt = toDbTime(opts.now ?? new Date());
  const { changes } = rawDb()
    .prepare(
      `INSERT INTO api_token (id, userId, name, tokenHash, prefix, kinds, createdAt)
       SELECT ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM api_token WHERE userId = ?) < ?`,
    )
    .run(id, opts.userId, opts.name, opts.tokenHash, opts.prefix, opts.kinds, createdAt, opts.userId, opts.max);
  if (changes === 0) return null;
  return { id, userId: opts.userId, name: opts.name, prefix: opts.prefix, kinds: opts.kinds, lastUsedAt: null, createdAt: fromDbTime(createdAt)! };
}

/** The person's tokens, newest first. */
export function listApiTokens(userId: string): ApiTokenRow[] {
  return (rawDb().prepare(`SELECT ${COLUMNS} FROM api_token WHERE userId = ? ORDER BY createdAt DESC, id`).all(userId) as Stored[]).map(toRow);
}

/** Deletes one of the person's tokens; false when it is not theirs (or gone already). */
export function deleteApiToken(userId: string, id: string): boolean {
  return rawDb().prepare(`DELETE FROM api_token WHERE id = ? AND userId = ?`).run(id, userId).changes === 1;
}
