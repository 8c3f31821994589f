import "server-only";
import { dbProvider, prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { registryRow, sqlName, sqlNames } from "@/lib/db/queries/registry-rows";
import { columnsOf, tableOf, type RingCollection as CollectionId } from "@/lib/resources";
import { findCycleSettings, listCycleEntries } from "@/lib/db/queries/cycle";
import type { CycleEntryKind, CycleSettings } from "@/lib/cycle";

// Documents of no day (the ring's configuration) belong to every range and sort first: the
// cursor and the order read `COALESCE(day, '')`.
const DAY_KEY = Prisma.sql`COALESCE(day, '')`;

// Exports of the stored rows. CSV carries the typed columns exactly as stored (one row per
// document; cells as registry-rows.ts cell gives them); JSON carries the documents as the ring
// service sent them (the raw column). Prisma Client's tagged templates; names from the registry.

/** The exported columns of a collection's table, in table order (the registry's; not id, userId or raw). */
export function exportColumns(collection: CollectionId): string[] {
  return ["documentId", "day", ...columnsOf(collection).map((c) => c.name), "syncedAt"];
}

type RangeOpts = { userId: string; collection: CollectionId; from?: string; to?: string };

function rangeSql(opts: RangeOpts & { after: PageCursor }): Prisma.Sql {
  const from = opts.from ? Prisma.sql` AND (day IS NULL OR day >= ${opts.from})` : Prisma.empty;
  const to = opts.to ? Prisma.sql` AND (day IS NULL OR day <= ${opts.to})` : Prisma.empty;
  const cursor = opts.after ? Prisma.sql` AND (${DAY_KEY}, id) > (${opts.after.day}, ${opts.after.id})` : Prisma.empty;
  return Prisma.sql`"userId" = ${opts.userId}${from}${to}${cursor}`;
}

export type PageCursor = { day: string; id: number } | null;
export type Page<T> = { items: T[]; next: PageCursor };

/**
 * One page of a collection's rows in a range, typed columns only, oldest first. Pages are read
 * with a keyset cursor so a slow download never keeps a statement open on the shared
 * connection between two pages.
 */
export async function readCollectionRows(opts: RangeOpts & { after: PageCursor; limit: number }): Promise<Page<Record<string, unknown>>> {
  const cols = exportColumns(opts.collection);
  const rows = (
    await prisma().$queryRaw<Array<Record<string, unknown> & { _cursor_id: number; day: string | null }>>`SELECT id AS _cursor_id, ${sqlNames(cols)}
      FROM ${sqlName(tableOf(opts.collection))} WHERE ${rangeSql(opts)} ORDER BY ${DAY_KEY}, id LIMIT ${opts.limit}`
  ).map(registryRow);
  const last = rows[rows.length - 1];
  const items = rows.map(({ _cursor_id: _c, ...r }) => r);
  return { items, next: rows.length === opts.limit && last ? { day: last.day ?? "", id: last._cursor_id } : null };
}

/** One page of a collection's raw documents (as the ring service sent them), oldest first. */
export async function readCollectionDocuments(opts: RangeOpts & { after: PageCursor; limit: number }): Promise<Page<unknown>> {
  const rows = await prisma().$queryRaw<Array<{ id: number; day: string; raw: string }>>`SELECT id, ${DAY_KEY} AS day, raw
    FROM ${sqlName(tableOf(opts.collection))} WHERE ${rangeSql(opts)} ORDER BY ${DAY_KEY}, id LIMIT ${opts.limit}`;
  const last = rows[rows.length - 1];
  const items = rows.map((r) => {
    try {
      return JSON.parse(r.raw) as unknown;
    } catch {
      return { unparsable_raw: r.raw };
    }
  });
  return { items, next: rows.length === opts.limit && last ? { day: last.day, id: last.id } : null };
}

export type NoteExportRow = { day: string; text: string; tags: string[] };

/** The person's notes and tags per day in a range, oldest first. */
export async function getNotesForExport(opts: { userId: string; from?: string; to?: string }): Promise<NoteExportRow[]> {
  const from = opts.from ?? "0000-01-01";
  const to = opts.to ?? "9999-12-31";
  // the day's tag names joined by U+001F, in name order
  const db = prisma();
  const joined = dbProvider(db) === "postgresql" ? Prisma.sql`string_agg(name, chr(31) ORDER BY name)` : Prisma.sql`group_concat(name, char(31))`;
  const rows = await db.$queryRaw<Array<{ day: string; text: string; tags: string | null }>>`SELECT d.day AS day, coalesce(n.text, '') AS text,
              (SELECT ${joined} FROM (SELECT t.name FROM day_tag dt JOIN tag t ON t.id = dt."tagId"
                 WHERE dt."userId" = d."userId" AND dt.day = d.day ORDER BY t.name) AS day_tags) AS tags
         FROM (SELECT "userId", day FROM day_note WHERE "userId" = ${opts.userId} AND day >= ${from} AND day <= ${to}
               UNION SELECT "userId", day FROM day_tag WHERE "userId" = ${opts.userId} AND day >= ${from} AND day <= ${to}) d
         LEFT JOIN day_note n ON n."userId" = d."userId" AND n.day = d.day
        ORDER BY d.day`;
  return rows.map((r) => ({ day: r.day, text: r.text, tags: r.tags ? r.tags.split("\u001f") : [] }));
}

/** Tags with their colours. */
export function getTagsForExport(userId: string): Promise<Array<{ name: string; color: string | null }>> {
  return prisma().tag.findMany({ where: { userId }, select: { name: true, color: true }, orderBy: { name: "asc" } });
}

/** The personal_info document the ring service sent (raw), or null. */
export async function getPersonalInfoRaw(userId: string): Promise<unknown> {
  const r = await prisma().personalInfo.findUnique({ where: { userId }, select: { raw: true } });
  if (!r) return null;
  try {
    return JSON.parse(r.raw);
  } catch {
    return null;
  }
}

/** The cycle section of Ringside's export: the person's cycle settings (null: never changed) and period entries, oldest first. */
export type CycleExport = { settings: CycleSettings | null; entries: Array<{ day: string; kind: CycleEntryKind }> };

/** The person's cycle settings and their entries of a range (every entry without one), for the export. */
export async function getCycleForExport(opts: { userId: string; from?: string; to?: string }): Promise<CycleExport> {
  const range = opts.from || opts.to ? { from: opts.from ?? "0000-01-01", to: opts.to ?? "9999-12-31" } : undefined;
  const entries = await listCycleEntries(opts.userId, range);
  return { settings: await findCycleSettings(opts.userId), entries: entries.map((e) => ({ day: e.day, kind: e.kind })) };
}
