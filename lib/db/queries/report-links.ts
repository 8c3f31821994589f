import "server-only";
import { clock } from "@/lib/clock";
import { all, dialect, get, query, run, transaction, type Work } from "@/lib/db/sql";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";

// Report share links (prisma/schema.prisma ReportLink, table report_link): rows in, rows out.
// Only the SHA-256 of a link's secret is ever stored or asked for. A revoked link keeps its row
// (revokedAt set) so that it answers "no longer valid" rather than "never issued".

export type ReportLinkRow = {
  id: string;
  userId: string;
  label: string | null;
  /** the report's query, JSON */
  query: string;
  expiresAt: Date;
  revokedAt: Date | null;
  views: number;
  lastViewAt: Date | null;
  createdAt: Date;
};

type Stored = {
  id: string;
  userId: string;
  label: string | null;
  query: string;
  expiresAt: string | number;
  revokedAt: string | number | null;
  views: number | string;
  lastViewAt: string | number | null;
  createdAt: string | number;
};

const COLUMNS = `id, userId, label, query, expiresAt, revokedAt, views, lastViewAt, createdAt`;

function toRow(r: Stored): ReportLinkRow {
  return {
    id: r.id,
    userId: r.userId,
    label: r.label,
    query: r.query,
    expiresAt: fromDbTime(r.expiresAt) ?? new Date(0),
    revokedAt: fromDbTime(r.revokedAt),
    views: Number(r.views),
    lastViewAt: fromDbTime(r.lastViewAt),
    createdAt: fromDbTime(r.createdAt) ?? new Date(0),
  };
}

/**
 * Stores a new link unless the person has `max` links already (revoked and expired ones
 * included, until they are removed): count and insert in one write transaction, the person's
 * row locked first on PostgreSQL. Null when the bound was reached.
 */
export async function insertReportLink(opts: {
  userId: string;
  secretHash: string;
  label: string | null;
  query: string;
  expiresAt: Date;
  max: number;
  now?: Date;
}): Promise<ReportLinkRow | null> {
  const id = crypto.randomUUID();
  const createdAt = toDbTime(opts.now ?? clock.date());
  const lock = dialect() === "postgres";
  const changes = await transaction(function* () {
    if (lock) yield* get(`SELECT id FROM "User" WHERE id = ? FOR UPDATE`, opts.userId);
    return yield* run(
      `INSERT INTO report_link (id, userId, secretHash, label, query, expiresAt, createdAt)
       SELECT ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM report_link WHERE userId = ?) < ?`,
      id,
      opts.userId,
      opts.secretHash,
      opts.label,
      opts.query,
      toDbTime(opts.expiresAt),
      createdAt,
      opts.userId,
      opts.max,
    );
  });
  if (changes === 0) return null;
  return {
    id,
    userId: opts.userId,
    label: opts.label,
    query: opts.query,
    expiresAt: opts.expiresAt,
    revokedAt: null,
    views: 0,
    lastViewAt: null,
    createdAt: fromDbTime(createdAt)!,
  };
}

/** The link with this secret hash, whatever its state (revoked and expired ones too). */
export async function findReportLinkByHash(secretHash: string): Promise<ReportLinkRow | null> {
  const row = await query(get<Stored>(`SELECT ${COLUMNS} FROM report_link WHERE secretHash = ?`, secretHash));
  return row ? toRow(row) : null;
}

/** Counts a view of a link that is still open at `at`; false when it was revoked or expired meanwhile. */
export async function recordReportLinkView(id: string, at: Date): Promise<boolean> {
  const t = toDbTime(at);
  return (await query(run(`UPDATE report_link SET views = views + 1, lastViewAt = ? WHERE id = ? AND revokedAt IS NULL AND expiresAt > ?`, t, id, t))) === 1;
}

/** The person's links, newest first. */
export async function listReportLinks(userId: string): Promise<ReportLinkRow[]> {
  return (await query(all<Stored>(`SELECT ${COLUMNS} FROM report_link WHERE userId = ? ORDER BY createdAt DESC, id`, userId))).map(toRow);
}

/** Revokes one of the person's open links; false when it is not theirs or was revoked already. */
export async function revokeReportLink(userId: string, id: string, at: Date): Promise<boolean> {
  return (await query(run(`UPDATE report_link SET revokedAt = ? WHERE id = ? AND userId = ? AND revokedAt IS NULL`, toDbTime(at), id, userId))) === 1;
}

/** Revokes every open link of the person ("Delete all my data"), as a step of the caller's transaction; how many. */
export function* reportLinksRevoke(userId: string, at: Date): Work<number> {
  return yield* run(`UPDATE report_link SET revokedAt = ? WHERE userId = ? AND revokedAt IS NULL`, toDbTime(at), userId);
}

/** Removes the person's links that closed (revoked or expired) before `before`; how many. */
export async function deleteClosedReportLinks(userId: string, before: Date): Promise<number> {
  const t = toDbTime(before);
  return query(run(`DELETE FROM report_link WHERE userId = ? AND (revokedAt < ? OR expiresAt < ?)`, userId, t, t));
}
