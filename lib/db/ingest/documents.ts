import "server-only";
import { clock } from "@/lib/clock";
import { getResource, RING_COLLECTIONS, type RingCollection } from "@/lib/resources";
import { dbTime, get, ident, ingestTransaction, placeholders, provider, run, statement, type IngestValue, type Statement, type Work } from "./driver";
import { bumpDataVersion } from "./fence";

// A page of ring documents, stored: the documents' upsert (one table per collection of
// lib/resources, by (userId, documentId), or (userId, day) for a collection keyed by day), the
// Trends rows the page's days replace, the rejected documents set aside, the personal_info
// snapshot, and the data version: steps of the page's one transaction (lib/sync/engine/commit.ts).
// Tables, columns and conflict keys come from the registry; each table's statements are made once.

export type CellValue = string | number | null;
/** A row for one of the ring data tables; keys are column names. `day` is null only for documents of no day (the ring's configuration). */
export type DocumentRow = Record<string, CellValue> & { userId: string; documentId: string | null; day: string | null; raw: string; syncedAt: string };

/** Table and conflict key of each collection. */
export const RING_TABLES = Object.fromEntries(
  RING_COLLECTIONS.map((c) => {
    const r = getResource(c);
    return [c, { table: r.table, conflict: r.key === "day" ? "day" : "documentId" }];
  }),
) as { [C in RingCollection]: { table: string; conflict: "documentId" | "day" } };

/**
 * The id prefix of documents made from a Trends CSV row (lib/import/trends.ts): they fill days
 * no document of the service covers, and a document of the service replaces them.
 */
export const TRENDS_ID_PREFIX = "trends:";
const TRENDS_LIKE = `${TRENDS_ID_PREFIX}%`;

export type RejectedInput = { documentId: string | null; day: string | null; raw: string; error: string };

/** PostgreSQL's array type of each column type (a page is written as one statement of arrays there). */
const ARRAY_TYPE = { int: "bigint", float: "double precision", text: "text", bool: "boolean" } as const;

/**
 * INSERT … ON CONFLICT DO UPDATE of every other column, in both forms: SQLite row by row, PostgreSQL
 * a page at once from one array per column. `unlessSame`: leave the row alone when these columns
 * are unchanged (a re-sync of an unchanged document writes nothing).
 */
function upsertForms(table: string, columns: readonly string[], types: readonly string[], conflict: readonly string[], unlessSame: readonly string[] = []) {
  const t = ident(table);
  const head = `INSERT INTO ${t} (${columns.map(ident).join(", ")})`;
  const set = columns
    .filter((c) => !conflict.includes(c))
    .map((c) => `${ident(c)} = excluded.${ident(c)}`)
    .join(", ");
  const onConflict = `ON CONFLICT(${conflict.map(ident).join(", ")}) DO UPDATE SET ${set}`;
  const when = (op: string) => (unlessSame.length ? ` WHERE ${unlessSame.map((c) => `${t}.${ident(c)} ${op} excluded.${ident(c)}`).join(" OR ")}` : "");
  const arrays = types.map((type, i) => `CAST($${i + 1} AS ${type}[])`).join(", ");
  return {
    row: {
      sqlite: `${head} VALUES (${placeholders(columns.length).sqlite}) ${onConflict}${when("IS NOT")}`,
      postgres: `${head} VALUES (${placeholders(columns.length).postgres}) ${onConflict}${when("IS DISTINCT FROM")}`,
    },
    page: `${head} SELECT * FROM unnest(${arrays}) ${onConflict}${when("IS DISTINCT FROM")}`,
  };
}

type TableStatements = {
  columns: string[];
  conflict: "documentId" | "day";
  /** SQLite: one row; PostgreSQL: a page of rows as column arrays */
  upsert: Statement;
  anyTrends: Statement;
  deleteTrendsOfDay: Statement;
};

const tables = new Map<RingCollection, TableStatements>();

function tableStatements(collection: RingCollection): TableStatements {
  const hit = tables.get(collection);
  if (hit) return hit;
  const { table, conflict } = RING_TABLES[collection];
  const resource = getResource(collection);
  const columns = ["userId", "documentId", "day", ...resource.columns.map((c) => c.name), "raw", "syncedAt"];
  const types = ["text", "text", "text", ...resource.columns.map((c) => ARRAY_TYPE[c.type]), "text", "timestamp(3)"];
  const forms = upsertForms(table, columns, types, ["userId", conflict], ["raw", "day"]);
  const t = ident(table);
  const st: TableStatements = {
    columns,
    conflict,
    upsert: statement(`upsert_${table}`, { sqlite: forms.row.sqlite, postgres: forms.page }),
    anyTrends: statement(`any_trends_${table}`, {
      sqlite: `SELECT 1 AS x FROM ${t} WHERE "userId" = ? AND "documentId" LIKE ? LIMIT 1`,
      postgres: `SELECT 1 AS x FROM ${t} WHERE "userId" = $1 AND "documentId" LIKE $2 LIMIT 1`,
    }),
    deleteTrendsOfDay: statement(`delete_trends_${table}`, {
      sqlite: `DELETE FROM ${t} WHERE "userId" = ? AND day = ? AND "documentId" LIKE ?`,
      postgres: `DELETE FROM ${t} WHERE "userId" = $1 AND day = $2 AND "documentId" LIKE $3`,
    }),
  };
  tables.set(collection, st);
  return st;
}

/**
 * The page's rows as one statement's column arrays (PostgreSQL: one round trip a page instead of
 * one a document). A document twice in a page is written once, the later one (as row by row).
 */
function pageArrays(st: TableStatements, rows: readonly DocumentRow[]): IngestValue[] {
  const byKey = new Map<string, DocumentRow>();
  for (const row of rows) byKey.set(String(row[st.conflict]), row);
  const page = [...byKey.values()];
  return st.columns.map((c) => page.map((row) => row[c] ?? null));
}

const COUNT_REJECTED = statement("count_rejected", {
  sqlite: `SELECT COUNT(*) AS n FROM rejected_document WHERE "userId" = ? AND collection = ?`,
  postgres: `SELECT COUNT(*) AS n FROM rejected_document WHERE "userId" = $1 AND collection = $2`,
});
const CLEAR_REJECTED = statement("clear_rejected", {
  sqlite: `DELETE FROM rejected_document WHERE "userId" = ? AND collection = ? AND "documentId" = ?`,
  postgres: `DELETE FROM rejected_document WHERE "userId" = $1 AND collection = $2 AND "documentId" = $3`,
});
// Without an id only the very same document supersedes its earlier rejection (not every id-less one).
const CLEAR_REJECTED_SAME_RAW = statement("clear_rejected_same_raw", {
  sqlite: `DELETE FROM rejected_document WHERE "userId" = ? AND collection = ? AND "documentId" IS NULL AND raw = ?`,
  postgres: `DELETE FROM rejected_document WHERE "userId" = $1 AND collection = $2 AND "documentId" IS NULL AND raw = $3`,
});
const INSERT_REJECTED = statement("insert_rejected", {
  sqlite: `INSERT INTO rejected_document ("userId", collection, "documentId", day, raw, error, "seenAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
  postgres: `INSERT INTO rejected_document ("userId", collection, "documentId", day, raw, error, "seenAt") VALUES ($1, $2, $3, $4, $5, $6, $7)`,
});

/** Sets rejected documents aside (a step of the page's transaction); each supersedes an earlier rejection of the same document. */
export function* insertRejected(userId: string, collection: string, rejected: readonly RejectedInput[]): Work<void> {
  if (rejected.length === 0) return;
  const now = dbTime(clock.date());
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
 * Upserts a page of documents and keeps rejected documents aside, as a step of the page's
 * transaction (the sync engine commits it with its checkpoint). Returns the number of rows
 * inserted, changed or replaced.
 */
export function* documentsWrite(opts: IngestOptions): Work<number> {
  const st = tableStatements(opts.collection);
  let changed = 0;
  // A document that validates now supersedes an earlier rejection of the same id.
  const counted = yield* get<{ n: number | string }>(COUNT_REJECTED, opts.userId, opts.collection);
  const hadRejections = Number(counted?.n ?? 0) > 0;
  if ((yield* provider()) === "postgresql") {
    if (opts.rows.length > 0) changed += yield* run(st.upsert, ...pageArrays(st, opts.rows));
  } else for (const row of opts.rows) changed += yield* run(st.upsert, ...st.columns.map((c) => row[c] ?? null));
  if (hadRejections) for (const row of opts.rows) if (row.documentId) yield* run(CLEAR_REJECTED, opts.userId, opts.collection, row.documentId);
  changed += yield* replaceTrendsRows(st, opts.userId, opts.rows);
  yield* insertRejected(opts.userId, opts.collection, opts.rejected ?? []);
  // an unchanged page (every document the same as stored) changes no answer
  if (changed > 0) yield* bumpDataVersion(opts.userId);
  return changed;
}

/** `documentsWrite` in a transaction of its own (an import). */
export function ingestDocuments(opts: IngestOptions): Promise<number> {
  return ingestTransaction(() => documentsWrite(opts));
}

/**
 * A document of the service replaces the Trends rows of its day (one indexed probe a page when
 * the person has none, the common case). Returns how many were removed.
 */
function* replaceTrendsRows(st: TableStatements, userId: string, rows: readonly DocumentRow[]): Work<number> {
  const days = new Set<string>();
  for (const r of rows) if (r.day && r.documentId && !r.documentId.startsWith(TRENDS_ID_PREFIX)) days.add(r.day);
  if (days.size === 0) return 0;
  if (!(yield* get<{ x: number }>(st.anyTrends, userId, TRENDS_LIKE))) return 0;
  let removed = 0;
  for (const day of days) removed += yield* run(st.deleteTrendsOfDay, userId, day, TRENDS_LIKE);
  return removed;
}

/** A snapshot row (personal_info): the person, the ring account it names, its columns, the raw JSON. */
export type SnapshotRow = Record<string, CellValue> & { userId: string; ringUserId: string; raw: string };

let snapshot: { names: string[]; before: Statement; upsert: Statement } | undefined;

function snapshotStatements() {
  if (snapshot) return snapshot;
  const { table, columns } = getResource("personal_info");
  const names = ["userId", "ringUserId", ...columns.map((c) => c.name), "raw", "syncedAt"];
  const forms = upsertForms(table, names, [], ["userId"]);
  snapshot = {
    names,
    before: statement("personal_info_raw", {
      sqlite: `SELECT raw FROM ${ident(table)} WHERE "userId" = ?`,
      postgres: `SELECT raw FROM ${ident(table)} WHERE "userId" = $1`,
    }),
    upsert: statement("personal_info_upsert", forms.row),
  };
  return snapshot;
}

/** The personal_info snapshot: one row per person, replaced on each fetch (a step of the caller's transaction). */
export function* personalInfoWrite(row: SnapshotRow): Work<void> {
  const st = snapshotStatements();
  const values: Record<string, CellValue> = { ...row, syncedAt: dbTime(clock.date()) };
  const before = yield* get<{ raw: string }>(st.before, row.userId);
  yield* run(st.upsert, ...st.names.map((c) => values[c] ?? null));
  // the same snapshot again (each sync takes one) changes no answer
  if (before?.raw !== row.raw) yield* bumpDataVersion(row.userId);
}

/** `personalInfoWrite` in a transaction of its own (an import). */
export function upsertPersonalInfo(row: SnapshotRow): Promise<void> {
  return ingestTransaction(() => personalInfoWrite(row));
}

export type CollectionSummary = { documents: number; newestDay: string | null; oldestDay: string | null };

const summaries = new Map<string, Statement>();

/** Count and newest day of a person's documents in one collection, read in the page's transaction (a finished backfill's totals). */
export function* documentSummary(collection: RingCollection, userId: string): Work<CollectionSummary> {
  const table = RING_TABLES[collection].table;
  let st = summaries.get(table);
  if (!st) {
    const head = `SELECT COUNT(*) AS documents, MAX(day) AS "newestDay", MIN(day) AS "oldestDay" FROM ${ident(table)} WHERE "userId" =`;
    summaries.set(table, (st = statement(`summary_${table}`, { sqlite: `${head} ?`, postgres: `${head} $1` })));
  }
  const r = yield* get<{ documents: number | string; newestDay: string | null; oldestDay: string | null }>(st, userId);
  return { documents: Number(r?.documents ?? 0), newestDay: r?.newestDay ?? null, oldestDay: r?.oldestDay ?? null };
}
