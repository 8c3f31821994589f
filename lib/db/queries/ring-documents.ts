import "server-only";
import { prisma, type Db } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { RESOURCES, type RingCollection } from "@/lib/resources";
import { RING_TABLES, TRENDS_ID_PREFIX, type CollectionSummary } from "@/lib/db/ingest/documents";
import { bumpDataVersion, bumpEveryDataVersion } from "@/lib/db/queries/data-version";
import { bumpEverySyncGeneration } from "@/lib/db/queries/sync-fence";
import { lookupText } from "@/lib/db/queries/registry-rows";

// The ring data tables (one per resource of lib/resources) outside a page's commit: reads for the
// sync and the imports, the deletes of what the service no longer has, the data family switch.
// A page's writes are the ingest store's (lib/db/ingest/documents.ts). Raw SQL through Prisma
// Client's tagged templates; table and column names come from the registry (Prisma.raw), never
// from a request; ids are looked up as the ingest store stores them (lookupText).

const TRENDS_LIKE = `${TRENDS_ID_PREFIX}%`;

/** A quoted table or column name from the registry. */
const name = (n: string) => Prisma.raw(`"${n.replaceAll('"', '""')}"`);

/** Values bound a statement at most (SQLite allows 32,766 parameters, PostgreSQL 65,535). */
const IN_LIST_MAX = 500;

/** `values` in lists of at most IN_LIST_MAX. */
function inLists<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += IN_LIST_MAX) out.push(values.slice(i, i + IN_LIST_MAX));
  return out;
}

/** The days in `days` on which the person has a document of the service (not a Trends row) in a collection. */
export async function daysWithServiceDocuments(collection: RingCollection, userId: string, days: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const list of inLists(days)) {
    const rows = await prisma().$queryRaw<Array<{ day: string }>>`SELECT DISTINCT day FROM ${name(RING_TABLES[collection].table)}
      WHERE "userId" = ${userId} AND day IN (${Prisma.join(list)}) AND ("documentId" IS NULL OR "documentId" NOT LIKE ${TRENDS_LIKE})`;
    for (const r of rows) found.add(r.day);
  }
  return found;
}

/** The stored raw JSON and day of the documents with these keys (ids, or days for a collection keyed by day). */
export async function storedByKey(
  collection: RingCollection,
  userId: string,
  keys: readonly string[],
): Promise<Map<string, { day: string | null; raw: string }>> {
  const { table, conflict } = RING_TABLES[collection];
  const found = new Map<string, { day: string | null; raw: string }>();
  for (const list of inLists(keys)) {
    const rows = await prisma().$queryRaw<Array<{ k: string; day: string | null; raw: string }>>`SELECT ${name(conflict)} AS k, day, raw
      FROM ${name(table)} WHERE "userId" = ${userId} AND ${name(conflict)} IN (${Prisma.join(list.map(lookupText))})`;
    for (const r of rows) found.set(r.k, { day: r.day, raw: r.raw });
  }
  return found;
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

/** `MissingDocuments`' delete as a step of the caller's transaction (the sync engine's, fenced). */
export async function missingDocumentsDelete(tx: Db, opts: MissingDocuments): Promise<number> {
  const { table, conflict } = RING_TABLES[opts.collection];
  const inWindow = opts.window ? Prisma.sql` AND day >= ${opts.window.fromDay} AND day <= ${opts.window.toDay}` : Prisma.empty;
  // (a trailing window's keys: tens to a few hundred)
  const unseen = opts.seenKeys.length ? Prisma.sql` AND ${name(conflict)} NOT IN (${Prisma.join(opts.seenKeys.map(lookupText))})` : Prisma.empty;
  const deleted = await tx.$executeRaw`DELETE FROM ${name(table)} WHERE "userId" = ${opts.userId}${inWindow}${unseen}`;
  if (deleted > 0) await bumpDataVersion(tx, opts.userId);
  return deleted;
}

/** Deletes one document by its id (a webhook delete event), as a step of the caller's transaction. */
export async function documentDelete(tx: Db, collection: RingCollection, userId: string, documentId: string): Promise<number> {
  const deleted =
    await tx.$executeRaw`DELETE FROM ${name(RING_TABLES[collection].table)} WHERE "userId" = ${userId} AND "documentId" = ${lookupText(documentId)}`;
  if (deleted > 0) await bumpDataVersion(tx, userId);
  return deleted;
}

/** Count, oldest and newest day of a person's documents in one collection. */
export async function collectionSummary(collection: RingCollection, userId: string): Promise<CollectionSummary> {
  const [r] = await prisma().$queryRaw<Array<{ documents: number | bigint; newestDay: string | null; oldestDay: string | null }>>`SELECT COUNT(*) AS documents,
    MAX(day) AS "newestDay", MIN(day) AS "oldestDay" FROM ${name(RING_TABLES[collection].table)} WHERE "userId" = ${userId}`;
  return { documents: Number(r?.documents ?? 0), newestDay: r?.newestDay ?? null, oldestDay: r?.oldestDay ?? null };
}

/** Every stored document of a person in one collection, as raw JSON, ordered by day (checks, export). */
export function listRawDocuments(collection: RingCollection, userId: string): Promise<Array<{ documentId: string | null; day: string | null; raw: string }>> {
  return prisma().$queryRaw`SELECT "documentId", day, raw FROM ${name(RING_TABLES[collection].table)} WHERE "userId" = ${userId} ORDER BY day, "documentId"`;
}

/** Removes every synced ring document of a person, or of everyone (data family switch: every sync in flight stopped first). */
export function deleteAllRingDocuments(userId?: string): Promise<void> {
  return prisma().$transaction(
    async (tx) => {
      if (userId === undefined) await bumpEverySyncGeneration(tx);
      for (const table of [...RESOURCES.map((r) => r.table), "rejected_document"]) {
        if (userId === undefined) await tx.$executeRaw`DELETE FROM ${name(table)}`;
        else await tx.$executeRaw`DELETE FROM ${name(table)} WHERE "userId" = ${userId}`;
      }
      if (userId === undefined) await bumpEveryDataVersion(tx);
      else await bumpDataVersion(tx, userId);
    },
    { timeout: 60_000 },
  );
}

/** When the personal_info snapshot was last taken. */
export async function personalInfoSyncedAt(userId: string): Promise<Date | null> {
  const row = await prisma().personalInfo.findUnique({ where: { userId }, select: { syncedAt: true } });
  return row?.syncedAt ?? null;
}
