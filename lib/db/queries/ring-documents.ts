import "server-only";
import { clock } from "@/lib/clock";
import { all, dialect, get, query, run, transaction, type SqlValue, type Work } from "@/lib/db/sql";
import { getResource, RESOURCES, RING_COLLECTIONS, type RingCollection } from "@/lib/resources";
import { ident, inJsonArray, notInJsonArray, toDbTime, upsertSql } from "@/lib/db/dialect";
import { bumpDataVersionWork as bumpDataVersion, bumpEveryDataVersionWork as bumpEveryDataVersion } from "@/lib/db/queries/data-version";
import { bumpEverySyncGeneration } from "@/lib/db/queries/sync-fence";

// The ring data tables (one per resource of lib/resources) written by the sync engine. Bulk
// writes are raw SQL (lib/db/sql.ts: prepared statements on SQLite), one transaction per page:
// this is the hot path of a backfill (thousands of documents), where per-row Prisma calls
// would dominate. Tables, columns and conflict keys come from the registry.

export type CellValue = string | number | null;
/** A row for one of the ring data tables; keys are column names. */
/** `day` is null only for documents of no day (the ring's configuration). */
export type DocumentRow = Record<string, CellValue> & { userId: string; documentId: string | null; day: string | null; raw: string; syncedAt: string };

/** Table and conflict key of each collection. */
export const RING_TABLES = Object.fromEntries(
  RING_COLLECTIONS.map((c) => {
    const r = getResource(c);
    return [c, { table: r.table, conflict: r.key === "day" ? "day" : "documentId" }];
  }),
) as { [C in RingCollection]: { table: string; conflict: "documentId" | "day" } };

const columnNames = (c: RingCollection): string[] => getResource(c).columns.map((col) => col.name);

/**
 * The id prefix of documents made from a Trends CSV row (lib/import/trends.ts): they fill days
 * no document of the service covers, and a document of the service replaces them.
 */
export const TRENDS_ID_PREFIX = "trends:";
const TRENDS_LIKE = `${TRENDS_ID_PREFIX}%`;

export type RejectedInput = { documentId: string | null; day: string | null; raw: string; error: string };

type Statements = { upsert: string; columns: string[]; bulk: string; conflict: string };

const upserts = new Map<RingCollection, Statements>();

function upsertOf(collection: RingCollection): Statements {
  const hit = upserts.get(collection);
  if (hit) return hit;
  const { table, conflict } = RING_TABLES[collection];
  const columns = ["userId", "documentId", "day", ...columnNames(collection), "raw", "syncedAt"];
  const types = ["text", "text", "text", ...getResource(collection).columns.map((c) => ARRAY_TYPE[c.type]), "text", "timestamp(3)"];
  // an unchanged document (same JSON, same day) is not written again
  const st = {
    upsert: upsertSql({ table, columns, conflict: ["userId", conflict], unlessSame: ["raw", "day"] }),
    bulk: upsertSql({ table, columns, conflict: ["userId", conflict], unlessSame: ["raw", "day"], fromArrays: types }),
    columns,
    conflict,
  };
  upserts.set(collection, st);
  return st;
}

/** PostgreSQL's array type of each column type (a page is written as one statement of arrays there). */
const ARRAY_TYPE = { int: "bigint", float: "double precision", text: "text", bool: "boolean" } as const;

/**
 * The page's rows as one statement's column arrays (PostgreSQL: one round trip a page instead of
 * one a document). A document twice in a page is written once, the later one (as row by row).
 */
function pageArrays(st: Statements, rows: readonly DocumentRow[]): SqlValue[] {
  const byKey = new Map<string, DocumentRow>();
  for (const row of rows) byKey.set(String(row[st.conflict]), row);
  const page = [...byKey.values()];
  return st.columns.map((c) => page.map((row) => row[c] ?? null));
}

const CLEAR_REJECTED = `DELETE FROM rejected_document WHERE userId = ? AND collection = ? AND documentId = ?`;
// Without an id only the very same document supersedes its earlier rejection (not every id-less one).
const CLEAR_REJECTED_SAME_RAW = `DELETE FROM rejected_document WHERE userId = ? AND collection = ? AND documentId IS NULL AND raw = ?`;
const INSERT_REJECTED = `INSERT INTO rejected_document (userId, collection, documentId, day, raw, error, seenAt) VALUES (?, ?, ?, ?, ?, ?, ?)`;

/** Sets rejected documents aside (a step of the caller's transaction); each supersedes an earlier rejection of the same document. */
export function* insertRejected(userId: string, collection: string, rejected: readonly RejectedInput[]): Work<void> {
  if (rejected.length === 0) return;
  const now = toDbTime(clock.date());
  for (const r of rejected) {
    const raw = r.raw.slice(0, 65_536);
    if (r.documentId) yield* run(CLEAR_REJECTED, userId, collection, r.documentId);
    else yield* run(CLEAR_REJECTED_SAME_RAW, userId, collection, raw);
    yield* run(INSERT_REJECTED, userId, collection, r.documentId, r.day, raw, r.error, now);
  }
}

export type IngestOptions = {
  collection: RingCollection;
  userId: string;
  rows: DocumentRow[];
  rejected?: RejectedInput[];
};

/**
 * Upserts a page of documents (by (userId, documentId); cardiovascular age by (userId, day)) and
 * keeps rejected documents aside, as a step of the caller's transaction (the sync engine commits
 * it with its checkpoint). Returns the number of rows inserted or changed.
 */
export function* documentsWrite(opts: IngestOptions): Work<number> {
  const st = upsertOf(opts.collection);
  let changed = 0;
  // A document that validates now supersedes an earlier rejection of the same id.
  const counted = yield* get<{ n: number }>(`SELECT COUNT(*) AS n FROM rejected_document WHERE userId = ? AND collection = ?`, opts.userId, opts.collection);
  const hadRejections = Number(counted?.n ?? 0) > 0;
  if (dialect() === "postgres" && opts.rows.length > 1) changed += yield* run(st.bulk, ...pageArrays(st, opts.rows));
  else for (const row of opts.rows) changed += yield* run(st.upsert, ...st.columns.map((c) => row[c] ?? null));
  if (hadRejections) for (const row of opts.rows) if (row.documentId) yield* run(CLEAR_REJECTED, opts.userId, opts.collection, row.documentId);
  changed += yield* replaceTrendsRows(opts.collection, opts.userId, opts.rows);
  yield* insertRejected(opts.userId, opts.collection, opts.rejected ?? []);
  // an unchanged page (every document the same as stored) changes no answer
  if (changed > 0) yield* bumpDataVersion(opts.userId);
  return changed;
}

/** `documentsWrite` in a transaction of its own. */
export function ingestDocuments(opts: IngestOptions): Promise<number> {
  return transaction(() => documentsWrite(opts));
}

/**
 * A document of the service replaces the Trends rows of its day (one indexed probe a page when
 * the person has none, the common case). Returns how many were removed.
 */
function* replaceTrendsRows(collection: RingCollection, userId: string, rows: readonly DocumentRow[]): Work<number> {
  const days = new Set<string>();
  for (const r of rows) if (r.day && r.documentId && !r.documentId.startsWith(TRENDS_ID_PREFIX)) days.add(r.day);
  if (days.size === 0) return 0;
  const t = ident(RING_TABLES[collection].table);
  const any = yield* get<{ x: number }>(`SELECT 1 AS x FROM ${t} WHERE userId = ? AND documentId LIKE ? LIMIT 1`, userId, TRENDS_LIKE);
  if (!any) return 0;
  let removed = 0;
  for (const day of days) removed += yield* run(`DELETE FROM ${t} WHERE userId = ? AND day = ? AND documentId LIKE ?`, userId, day, TRENDS_LIKE);
  return removed;
}

/** The days in `days` on which the person has a document of the service (not a Trends row) in a collection. */
export function daysWithServiceDocuments(collection: RingCollection, userId: string, days: readonly string[]): Promise<Set<string>> {
  if (days.length === 0) return Promise.resolve(new Set());
  const t = ident(RING_TABLES[collection].table);
  return query(
    (function* () {
      const rows = yield* all<{ day: string }>(
        `SELECT DISTINCT day FROM ${t} WHERE userId = ? AND ${inJsonArray("day")} AND (documentId IS NULL OR documentId NOT LIKE ?)`,
        userId,
        JSON.stringify(days),
        TRENDS_LIKE,
      );
      return new Set(rows.map((r) => r.day));
    })(),
  );
}

/** The stored raw JSON and day of the documents with these keys (ids, or days for a collection keyed by day). */
export function storedByKey(collection: RingCollection, userId: string, keys: readonly string[]): Promise<Map<string, { day: string | null; raw: string }>> {
  if (keys.length === 0) return Promise.resolve(new Map());
  const { table, conflict } = RING_TABLES[collection];
  return query(
    (function* () {
      const rows = yield* all<{ k: string; day: string | null; raw: string }>(
        `SELECT ${conflict} AS k, day, raw FROM ${ident(table)} WHERE userId = ? AND ${inJsonArray(conflict)}`,
        userId,
        JSON.stringify(keys),
      );
      return new Map(rows.map((r) => [r.k, { day: r.day, raw: r.raw }]));
    })(),
  );
}

/**
 * After a window [fromDay, toDay] was fetched completely: deletes the person's stored
 * documents in that window that the service no longer has. `seenKeys` are document ids
 * (days for cardiovascular age). Without a window (a route listed whole, like the ring's
 * configuration) every stored document of the collection is in it. Returns how many were deleted.
 */
export type MissingDocuments = {
  collection: RingCollection;
  userId: string;
  window: { fromDay: string; toDay: string } | null;
  seenKeys: string[];
};

/** `deleteMissingDocuments` as a step of the caller's transaction (the sync engine's, fenced). */
export function* missingDocumentsDelete(opts: MissingDocuments): Work<number> {
  const { table, conflict } = RING_TABLES[opts.collection];
  const seen = JSON.stringify(opts.seenKeys);
  const deleted = !opts.window
    ? yield* run(`DELETE FROM ${ident(table)} WHERE userId = ? AND ${notInJsonArray(conflict)}`, opts.userId, seen)
    : yield* run(
        `DELETE FROM ${ident(table)} WHERE userId = ? AND day >= ? AND day <= ? AND ${notInJsonArray(conflict)}`,
        opts.userId,
        opts.window.fromDay,
        opts.window.toDay,
        seen,
      );
  if (deleted > 0) yield* bumpDataVersion(opts.userId);
  return deleted;
}

export function deleteMissingDocuments(opts: MissingDocuments): Promise<number> {
  return transaction(() => missingDocumentsDelete(opts));
}

/** Deletes one document by its id (a webhook delete event), as a step of the caller's transaction. */
export function* documentDelete(collection: RingCollection, userId: string, documentId: string): Work<number> {
  const { table } = RING_TABLES[collection];
  const deleted = yield* run(`DELETE FROM ${ident(table)} WHERE userId = ? AND documentId = ?`, userId, documentId);
  if (deleted > 0) yield* bumpDataVersion(userId);
  return deleted;
}

export type CollectionSummary = { documents: number; newestDay: string | null; oldestDay: string | null };

/** Count and newest day of a person's documents in one collection (a step of a transaction too). */
export function* documentSummary(collection: RingCollection, userId: string): Work<CollectionSummary> {
  const r = yield* get<CollectionSummary>(
    `SELECT COUNT(*) AS documents, MAX(day) AS newestDay, MIN(day) AS oldestDay FROM ${ident(RING_TABLES[collection].table)} WHERE userId = ?`,
    userId,
  );
  return { documents: Number(r?.documents ?? 0), newestDay: r?.newestDay ?? null, oldestDay: r?.oldestDay ?? null };
}

/** Count and newest day of a person's documents in one collection. */
export const collectionSummary = (collection: RingCollection, userId: string): Promise<CollectionSummary> => query(documentSummary(collection, userId));

/** Every stored document of a person in one collection, as raw JSON, ordered by day (checks, export). */
export function listRawDocuments(collection: RingCollection, userId: string): Promise<Array<{ documentId: string | null; day: string | null; raw: string }>> {
  const { table } = RING_TABLES[collection];
  return query(all(`SELECT documentId, day, raw FROM ${ident(table)} WHERE userId = ? ORDER BY day, documentId`, userId));
}

/** Removes every synced ring document of a person, or of everyone (data family switch: every sync in flight stopped first). */
export function deleteAllRingDocuments(userId?: string): Promise<void> {
  return transaction(function* () {
    if (userId === undefined) yield* bumpEverySyncGeneration();
    for (const table of [...RESOURCES.map((r) => r.table), "rejected_document"]) {
      if (userId === undefined) yield* run(`DELETE FROM ${ident(table)}`);
      else yield* run(`DELETE FROM ${ident(table)} WHERE userId = ?`, userId);
    }
    if (userId === undefined) yield* bumpEveryDataVersion();
    else yield* bumpDataVersion(userId);
  });
}

/** A snapshot row (personal_info): the person, the ring account it names, its columns, the raw JSON. */
export type SnapshotRow = Record<string, CellValue> & { userId: string; ringUserId: string; raw: string };

/** The personal_info snapshot: one row per person, replaced on each fetch (a step of the caller's transaction). */
export function* personalInfoWrite(row: SnapshotRow): Work<void> {
  const { table, columns } = getResource("personal_info");
  const names = ["userId", "ringUserId", ...columns.map((c) => c.name), "raw", "syncedAt"];
  const sql = upsertSql({ table, columns: names, conflict: ["userId"] });
  const values: Record<string, CellValue> = { ...row, syncedAt: toDbTime(clock.date()) };
  const before = yield* get<{ raw: string }>(`SELECT raw FROM ${ident(table)} WHERE userId = ?`, row.userId);
  yield* run(sql, ...names.map((c) => values[c] ?? null));
  // the same snapshot again (each sync takes one) changes no answer
  if (before?.raw !== row.raw) yield* bumpDataVersion(row.userId);
}

/** `personalInfoWrite` in a transaction of its own (an import). */
export function upsertPersonalInfo(row: SnapshotRow): Promise<void> {
  return transaction(() => personalInfoWrite(row));
}

/** When the personal_info snapshot was last taken. */
export async function personalInfoSyncedAt(userId: string): Promise<string | null> {
  const row = await query(get<{ syncedAt: string }>(`SELECT syncedAt FROM personal_info WHERE userId = ?`, userId));
  return row?.syncedAt ?? null;
}
