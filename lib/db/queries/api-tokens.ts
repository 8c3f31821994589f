import "server-only";
import { clock } from "@/lib/clock";
import { all, dialect, get, query, run, transaction } from "@/lib/db/sql";
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
  /** null: never expires */
  expiresAt: Date | null;
  createdAt: Date;
};

type Stored = Omit<ApiTokenRow, "lastUsedAt" | "createdAt" | "expiresAt"> & {
  lastUsedAt: string | number | null;
  expiresAt: string | number | null;
  createdAt: string | number;
};

const COLUMNS = `id, userId, name, prefix, kinds, lastUsedAt, expiresAt, createdAt`;

function toRow(r: Stored): ApiTokenRow {
  return { ...r, lastUsedAt: fromDbTime(r.lastUsedAt), expiresAt: fromDbTime(r.expiresAt), createdAt: fromDbTime(r.createdAt) ?? new Date(0) };
}

/** The token with this hash, if it exists (revoked tokens are deleted). */
export async function findApiTokenByHash(tokenHash: string): Promise<ApiTokenRow | null> {
  const row = await query(get<Stored>(`SELECT ${COLUMNS} FROM api_token WHERE tokenHash = ?`, tokenHash));
  return row ? toRow(row) : null;
}

/** Records a use of the token. */
export async function touchApiToken(id: string, at: Date): Promise<void> {
  await query(run(`UPDATE api_token SET lastUsedAt = ? WHERE id = ?`, toDbTime(at), id));
}

/**
 * Stores a new token unless the person has `max` already: count and insert in one write
 * transaction, the person's row locked first on PostgreSQL (SQLite has one writer at a time),
 * so two requests at once, on any process, cannot both pass the bound. Null when it was reached.
 */
export async function insertApiToken(opts: {
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  kinds: string;
  max: number;
  expiresAt?: Date | null;
  now?: Date;
}): Promise<ApiTokenRow | null> {
  const id = crypto.randomUUID();
  const createdAt = toDbTime(opts.now ?? clock.date());
  const expiresAt = opts.expiresAt ? toDbTime(opts.expiresAt) : null;
  const lock = dialect() === "postgres";
  const changes = await transaction(function* () {
    if (lock) yield* get(`SELECT id FROM "User" WHERE id = ? FOR UPDATE`, opts.userId);
    return yield* run(
      `INSERT INTO api_token (id, userId, name, tokenHash, prefix, kinds, expiresAt, createdAt)
       SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM api_token WHERE userId = ?) < ?`,
      id,
      opts.userId,
      opts.name,
      opts.tokenHash,
      opts.prefix,
      opts.kinds,
      expiresAt,
      createdAt,
      opts.userId,
      opts.max,
    );
  });
  if (changes === 0) return null;
  return {
    id,
    userId: opts.userId,
    name: opts.name,
    prefix: opts.prefix,
    kinds: opts.kinds,
    lastUsedAt: null,
    expiresAt: fromDbTime(expiresAt),
    createdAt: fromDbTime(createdAt)!,
  };
}

/** The person's tokens, newest first. */
export async function listApiTokens(userId: string): Promise<ApiTokenRow[]> {
  return (await query(all<Stored>(`SELECT ${COLUMNS} FROM api_token WHERE userId = ? ORDER BY createdAt DESC, id`, userId))).map(toRow);
}

/** Deletes every token of a person (a member removed by the owner); their ids. */
export async function deleteApiTokensOf(userId: string): Promise<string[]> {
  const ids = (await query(all<{ id: string }>(`SELECT id FROM api_token WHERE userId = ?`, userId))).map((r) => r.id);
  await query(run(`DELETE FROM api_token WHERE userId = ?`, userId));
  return ids;
}

/** Deletes one of the person's tokens; false when it is not theirs (or gone already). */
export async function deleteApiToken(userId: string, id: string): Promise<boolean> {
  return (await query(run(`DELETE FROM api_token WHERE id = ? AND userId = ?`, id, userId))) === 1;
}
