// Looking into the app's SQLite file from the test process (read-only; WAL lets us read while
// the app writes): stored documents against the emulator's, fingerprints of what must not change.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import type { Doc, Emulator } from "./emulator";
import { decodeDay, sampleRow } from "@/lib/db/sample-codec";
import {
  getResource,
  RING_COLLECTIONS,
  SERIES_COLLECTIONS,
  SYNC_COLLECTIONS,
  sampleSpecOf,
  tableOf,
  type RingCollection,
  type SeriesCollection,
} from "@/lib/resources";
import { CYCLE_RESOURCE } from "@/lib/cycle";

/**
 * The document collections a backfill fetches for the suite's people, and their tables: the app's
 * resource registry, but the cycle's phases (fetched only for a person who tracks their cycle,
 * and nobody here does).
 */
export const COLLECTIONS = RING_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE);
export type Collection = RingCollection;
export const TABLE_OF = Object.fromEntries(RING_COLLECTIONS.map((c) => [c, tableOf(c)])) as Record<Collection, string>;
/** Everything a backfill fetches for them (documents and time series): one sync state each that ends backfilled. */
export const SYNCED = SYNC_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE);
/** The time series' tables (heart rate, battery: one row per person and UTC day). */
export const SERIES_TABLES = SERIES_COLLECTIONS.map(tableOf);

/**
 * A time series stored against the emulator's samples, in time order, up to where its sync says
 * it read (the sync state's `cursorStart`: every sample up to the moment its last page was asked
 * for), since the emulator's ring keeps recording while the test runs (as case 12 does). The
 * stored samples are the emulator's from the first on — none missing, none extra, none changed —
 * through the cursor, and those stored after it (a page brings what the service had when it
 * answered) are the emulator's next ones. The sync state and the samples are read in one snapshot
 * (a re-check may commit meanwhile), the emulator's samples after them.
 */
export async function diffSeriesWithEmulator(db: Database.Database, emu: Emulator, userId: string, ringUserId: string, collection: SeriesCollection) {
  const spec = sampleSpecOf(collection);
  const { state, rows } = db.transaction(() => ({
    state: db.prepare(`SELECT cursorStart, documentsTotal FROM sync_state WHERE userId = ? AND collection = ?`).get(userId, collection) as
      { cursorStart: string | null; documentsTotal: number } | undefined,
    rows: db.prepare(`SELECT day, samples FROM "${tableOf(collection)}" WHERE userId = ? ORDER BY day`).all(userId) as Array<{ day: string; samples: Buffer }>,
  }))();
  const through = state?.cursorStart ? Date.parse(state.cursorStart) : Number.NaN;
  const want = await emu.documents(ringUserId, collection);
  const have = rows.flatMap((r) => decodeDay(spec, r.day, r.samples).map((x) => sampleRow(spec, x)));
  const upTo = (list: Array<Record<string, unknown>>) => list.filter((x) => Number(x.timestamp_unix) <= through).length;
  const expected = upTo(want);
  let firstDifference: number | null = null;
  for (let i = 0; i < Math.max(expected, have.length) && firstDifference === null; i++) {
    if (JSON.stringify(want[i] ?? null) !== JSON.stringify(have[i] ?? null)) firstDifference = i;
  }
  return {
    collection,
    through: state?.cursorStart ?? null,
    expected,
    stored: upTo(have),
    firstDifference,
    storedTotal: have.length,
    documentsTotal: state?.documentsTotal ?? null,
  };
}

export function openAppDb(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  return db;
}

/** The key a stored document is unique by: the document id (cardiovascular age: the day). */
/** Whether the registry keys a collection's documents by their day (the service may omit their id). */
export const keyedByDay = (collection: Collection): boolean => getResource(collection).key === "day";

export function keyOf(collection: Collection, d: { id?: unknown; day?: unknown; documentId?: unknown }): string {
  if (keyedByDay(collection)) return String(d.day);
  return String(d.documentId ?? d.id);
}

export function storedDocuments(
  db: Database.Database,
  collection: Collection,
  userId: string,
): Array<{ documentId: string | null; day: string | null; raw: string }> {
  return db.prepare(`SELECT documentId, day, raw FROM "${TABLE_OF[collection]}" WHERE userId = ? ORDER BY day, documentId`).all(userId) as Array<{
    documentId: string | null;
    day: string | null;
    raw: string;
  }>;
}

export function countStored(db: Database.Database, userId: string): number {
  let n = 0;
  for (const c of COLLECTIONS) n += (db.prepare(`SELECT COUNT(*) AS n FROM "${TABLE_OF[c]}" WHERE userId = ?`).get(userId) as { n: number }).n;
  return n;
}

export type Difference = {
  collection: Collection;
  expected: number;
  stored: number;
  missing: string[];
  extra: string[];
  changed: string[];
  duplicates: number;
};

/** Stored documents of one person against the emulator's: same keys, same JSON, no key twice. */
export async function diffWithEmulator(db: Database.Database, emu: Emulator, userId: string, ringUserId: string, collection: Collection): Promise<Difference> {
  const upstream = await emu.documents(ringUserId, collection);
  return diffDocuments(collection, upstream, storedDocuments(db, collection, userId));
}

export function diffDocuments(
  collection: Collection,
  upstream: Doc[],
  stored: Array<{ documentId: string | null; day: string | null; raw: string }>,
): Difference {
  const want = new Map(upstream.map((d) => [keyOf(collection, d), JSON.stringify(d)]));
  const have = new Map<string, string>();
  let duplicates = 0;
  for (const r of stored) {
    const k = keyOf(collection, r);
    if (have.has(k)) duplicates++;
    have.set(k, r.raw);
  }
  return {
    collection,
    expected: upstream.length,
    stored: stored.length,
    missing: [...want.keys()].filter((k) => !have.has(k)),
    extra: [...have.keys()].filter((k) => !want.has(k)),
    changed: [...want.keys()].filter((k) => have.has(k) && have.get(k) !== want.get(k)),
    duplicates,
  };
}

/** Summary of a difference for assertions (counts, and the first few keys). */
export function summarize(d: Difference) {
  return {
    collection: d.collection,
    missing: d.missing.length,
    extra: d.extra.length,
    changed: d.changed.length,
    duplicates: d.duplicates,
    stored: d.stored,
    expected: d.expected,
    sample: [...d.missing, ...d.extra, ...d.changed].slice(0, 3),
  };
}

/** A hash of every row of the given tables (in a stable order), leaving out volatile columns. */
/**
 * Rows that record how a request went rather than what a person has: an import's lease and its
 * status (a refused upload is shown as failed on the import page; nothing of it is stored).
 */
const BOOKKEEPING: Record<string, string> = { AppSetting: `key LIKE 'lease:import:%' OR key LIKE 'import-state:%'` };

export function fingerprint(db: Database.Database, tables: string[], ignoreColumns: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tables) {
    const cols = (db.prepare(`PRAGMA table_info("${t}")`).all() as Array<{ name: string }>).map((c) => c.name).filter((c) => !ignoreColumns.includes(c));
    const rows = db
      .prepare(`SELECT ${cols.map((c) => `"${c}"`).join(", ")} FROM "${t}"${BOOKKEEPING[t] ? ` WHERE NOT (${BOOKKEEPING[t]})` : ""} ORDER BY rowid`)
      .all();
    out[t] = crypto.createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16) + `:${rows.length}`;
  }
  return out;
}

/** Every table of the person-facing state: what bad input must never change. */
export const STATE_TABLES = [
  "User",
  "Account",
  "Invite",
  "AppSetting",
  "day_note",
  "tag",
  "day_tag",
  "personal_info",
  "rejected_document",
  "alert_settings",
  "alert_rule",
  "alert_channel",
  "alert_episode",
  "alert_delivery",
  "api_token",
  "cycle_entry",
  "cycle_settings",
  "home_assistant_publish",
  "home_assistant_retraction",
  ...Object.values(TABLE_OF),
  ...SERIES_TABLES,
];

export async function waitFor<T>(what: string, fn: () => T | Promise<T>, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 300)})`);
}
