import "server-only";
import type { Statement } from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { getResource, RESOURCES, RING_COLLECTIONS, type RingCollection } from "@/lib/resources";
import { ident, notInJsonArray, toDbTime, upsertSql } from "@/lib/db/dialect";
import { bumpDataVersion, bumpEveryDataVersion } from "@/lib/db/queries/data-version";

// The ring data tables (one per resource of lib/resources) written by the sync engine. Bulk
// writes use prepared better-sqlite3 statements, one transaction per page: this is the hot path
// of a backfill (thousands of documents), where per-row Prisma calls would dominate. Tables,
// columns and conflict keys come from the registry.

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

export type RejectedInput = { documentId: string | null; day: string | null; raw: string; error: string };

type Prepared = {
  upsert: Statement;
  clearRejected: Statement;
  clearRejectedSameRaw: Statement;
  insertRejected: Statement;
  countRejected: Statement;
};

const prepared = new WeakMap<object, Map<RingCollection, Prepared>>();

function statements(collection: RingCollection): Prepared {
  const db = rawDb();
  let byCollection = prepared.get(db);
  if (!byCollection) prepared.set(db, (byCollection = new Map()));
  const hit = byCollection.get(collection);
  if (hit) return hit;
  const { table, conflict } = RING_TABLES[collection];
  const sql = upsertSql({
    table,
    columns: ["userId", "documentId", "day", ...columnNames(collection), "raw", "syncedAt"],
    conflict: ["userId", conflict],
    // an unchanged document (same JSON, same day) is not written again
    unlessSame: ["raw", "day"],
  });
  const p: Prepared = {
    upsert: db.prepare(sql),
    clearRejected: db.prepare(`DELETE FROM rejected_document WHERE userId = ? AND collection = ? AND documentId = ?`),
    // Without an id only the very same document supersedes its earlier rejection (not every id-less one).
    clearRejectedSameRaw: db.prepare(`DELETE FROM rejected_document WHERE userId = ? AND collection = ? AND documentId IS NULL AND raw = ?`),
    insertRejected: db.prepare(
      `INSERT INTO rejected_document (userId, collection, documentId, day, raw, error, seenAt) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    countRejected: db.prepare(`SELECT COUNT(*) AS n FROM rejected_document WHERE userId = ? AND collection = ?`),
  };
  byCollection.set(collection, p);
  return p;
}

export type IngestOptions = {
  collection: RingCollection;
  userId: string;
  rows: DocumentRow[];
  rejected?: RejectedInput[];
  /** runs inside the same transaction (the SyncState checkpoint), so a crash loses both or neither */
  inTransaction?: () => void;
};

/**
 * Upserts a page of documents (by (userId, documentId); cardiovascular age by (userId, day)),
 * keeps rejected documents aside, and runs the checkpoint, all in one transaction.
 * Returns the number of rows inserted or changed.
 */
export function ingestDocuments(opts: IngestOptions): number {
  const db = rawDb();
  const st = statements(opts.collection);
  const run = db.transaction(() => {
    let changed = 0;
    const rejected = opts.rejected ?? [];
    // A document that validates now supersedes an earlier rejection of the same id.
    const hadRejections = (st.countRejected.get(opts.userId, opts.collection) as { n: number }).n > 0;
    for (const row of opts.rows) {
      changed += st.upsert.run(row).changes;
      if (hadRejections && row.documentId) st.clearRejected.run(opts.userId, opts.collection, row.documentId);
    }
    if (rejected.length > 0) {
      const now = toDbTime(new Date());
      for (const r of rejected) {
        if (r.documentId) st.clearRejected.run(opts.userId, opts.collection, r.documentId);
        else st.clearRejectedSameRaw.run(opts.userId, opts.collection, r.raw.slice(0, 65_536));
        st.insertRejected.run(opts.userId, opts.collection, r.documentId, r.day, r.raw.slice(0, 65_536), r.error, now);
      }
    }
    // an unchanged page (every document the same as stored) changes no answer
    if (changed > 0) bumpDataVersion(opts.userId);
    opts.inTransaction?.();
    return changed;
  });
  return run.immediate();
}

/**
 * After a window [fromDay, toDay] was fetched completely: deletes the person's stored
 * documents in that window that the service no longer has. `seenKeys` are document ids
 * (days for cardiovascular age). Without a window (a route listed whole, like the ring's
 * configuration) every stored document of the collection is in it. Returns how many were deleted.
 */
export function deleteMissingDocuments(opts: {
  collection: RingCollection;
  userId: string;
  window: { fromDay: string; toDay: string } | null;
  seenKeys: string[];
}): number {
  const { table, conflict } = RING_TABLES[opts.collection];
  const db = rawDb();
  return db.transaction(() => {
    const deleted = !opts.window
      ? db.prepare(`DELETE FROM ${ident(table)} WHERE userId = ? AND ${notInJsonArray(conflict)}`).run(opts.userId, JSON.stringify(opts.seenKeys)).changes
      : db
          .prepare(`DELETE FROM ${ident(table)} WHERE userId = ? AND day >= ? AND day <= ? AND ${notInJsonArray(conflict)}`)
          .run(opts.userId, opts.window.fromDay, opts.window.toDay, JSON.stringify(opts.seenKeys)).changes;
    if (deleted > 0) bumpDataVersion(opts.userId);
    return deleted;
  })();
}

/** Deletes one document by its id (a webhook delete event). */
export function deleteDocumentById(collection: RingCollection, userId: string, documentId: string): number {
  const { table } = RING_TABLES[collection];
  const db = rawDb();
  return db.transaction(() => {
    const deleted = db.prepare(`DELETE FROM "${table}" WHERE userId = ? AND documentId = ?`).run(userId, documentId).changes;
    if (deleted > 0) bumpDataVersion(userId);
    return deleted;
  })();
}

const summaryStatements = new WeakMap<object, Map<RingCollection, Statement>>();

/** Count and newest day of a person's documents in one collection. */
export function collectionSummary(collection: RingCollection, userId: string): { documents: number; newestDay: string | null; oldestDay: string | null } {
  const db = rawDb();
  let byCollection = summaryStatements.get(db);
  if (!byCollection) summaryStatements.set(db, (byCollection = new Map()));
  let stmt = byCollection.get(collection);
  if (!stmt) {
    stmt = db.prepare(`SELECT COUNT(*) AS documents, MAX(day) AS newestDay, MIN(day) AS oldestDay FROM "${RING_TABLES[collection].table}" WHERE userId = ?`);
    byCollection.set(collection, stmt);
  }
  return stmt.get(userId) as { documents: number; newestDay: string | null; oldestDay: string | null };
}

/** Every stored document of a person in one collection, as raw JSON, ordered by day (checks, export). */
export function listRawDocuments(collection: RingCollection, userId: string): Array<{ documentId: string | null; day: string | null; raw: string }> {
  const { table } = RING_TABLES[collection];
  return rawDb()
    .prepare(`SELECT documentId, day, raw FROM "${table}" WHERE userId = ? ORDER BY day, documentId`)
    .all(userId) as Array<{ documentId: string | null; day: string | null; raw: string }>;
}

/** Removes every synced ring document of a person, or of everyone (data family switch). */
export function deleteAllRingDocuments(userId?: string): void {
  const db = rawDb();
  db.transaction(() => {
    for (const table of [...RESOURCES.map((r) => r.table), "rejected_document"]) {
      if (userId === undefined) db.prepare(`DELETE FROM "${table}"`).run();
      else db.prepare(`DELETE FROM "${table}" WHERE userId = ?`).run(userId);
    }
    if (userId === undefined) bumpEveryDataVersion();
    else bumpDataVersion(userId);
  })();
}

/** A snapshot row (personal_info): the person, the ring account it names, its columns, the raw JSON. */
export type SnapshotRow = Record<string, CellValue> & { userId: string; ringUserId: string; raw: string };

/** The personal_info snapshot: one row per person, replaced on each fetch. */
export function upsertPersonalInfo(row: SnapshotRow): void {
  const { table, columns } = getResource("personal_info");
  const sql = upsertSql({ table, columns: ["userId", "ringUserId", ...columns.map((c) => c.name), "raw", "syncedAt"], conflict: ["userId"] });
  const db = rawDb();
  db.transaction(() => {
    const before = db.prepare(`SELECT raw FROM ${ident(table)} WHERE userId = ?`).pluck().get(row.userId) as string | undefined;
    db.prepare(sql).run({ ...row, syncedAt: toDbTime(new Date()) });
    // the same snapshot again (each sync takes one) changes no answer
    if (before !== row.raw) bumpDataVersion(row.userId);
  })();
}

/** When the personal_info snapshot was last taken. */
export function personalInfoSyncedAt(userId: string): string | null {
  const row = rawDb().prepare(`SELECT syncedAt FROM personal_info WHERE userId = ?`).get(userId) as { syncedAt: string } | undefined;
  return row?.syncedAt ?? null;
}
