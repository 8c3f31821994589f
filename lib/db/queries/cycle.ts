import "server-only";
import crypto from "node:crypto";
import { clock } from "@/lib/clock";
import { prisma, type Db } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { bumpDataVersion } from "@/lib/db/queries/data-version";
import { CYCLE_ENTRY_KINDS, CYCLE_RESOURCE, type CycleEntry, type CycleEntryKind, type CycleSettings } from "@/lib/cycle";

// The menstrual cycle's own rows (prisma/schema.prisma CycleEntry and CycleSettings): the
// period starts and ends a person logged, and their cycle settings. Rows in, rows out; every
// write moves the person's data version in its transaction, so cached answers (the cycle, the
// phase-aware signals) are computed again. What the ring service sends (daily_cycle_phases) is
// stored by the sync like every resource, and only while the person tracks their cycle: turning
// tracking off deletes it with its sync state (in the same transaction), and the sync's page
// commit asks cycleTrackingIn in its own; "remove my cycle data" deletes it here too.

const ENTRY = { id: true, day: true, kind: true } as const;

const isKind = (k: string): k is CycleEntryKind => (CYCLE_ENTRY_KINDS as readonly string[]).includes(k);

/** Rows of a kind Ringside does not know (none are written) are left out rather than guessed. */
function toEntries(rows: Array<{ id: string; day: string; kind: string }>): CycleEntry[] {
  const out: CycleEntry[] = [];
  for (const r of rows) if (isKind(r.kind)) out.push({ id: r.id, day: r.day, kind: r.kind });
  return out;
}

/** The person's entries (of every day, or of the days in [from, to]), by day, a start before an end. */
export async function listCycleEntries(userId: string, range?: { from: string; to: string }): Promise<CycleEntry[]> {
  const rows = await prisma().cycleEntry.findMany({
    where: { userId, day: range ? { gte: range.from, lte: range.to } : undefined },
    select: ENTRY,
    orderBy: [{ day: "asc" }, { kind: "desc" }, { id: "asc" }],
  });
  return toEntries(rows);
}

/** One of the person's entries, or null (another person's entries do not exist for them). */
export async function findCycleEntry(userId: string, id: string): Promise<CycleEntry | null> {
  return toEntries(await prisma().cycleEntry.findMany({ where: { id, userId }, select: ENTRY }))[0] ?? null;
}

/** Stores an entry; the same day and kind again answers the entry there is (`created: false`) and writes nothing. */
export async function insertCycleEntry(userId: string, entry: { day: string; kind: CycleEntryKind }): Promise<CycleEntry & { created: boolean }> {
  const key = { userId_day_kind: { userId, day: entry.day, kind: entry.kind } };
  const existing = async (db: Db) => {
    const row = await db.cycleEntry.findUnique({ where: key, select: { id: true } });
    return row && { id: row.id, day: entry.day, kind: entry.kind, created: false };
  };
  try {
    return await prisma().$transaction(async (tx) => {
      const there = await existing(tx);
      if (there) return there;
      const now = clock.date();
      const { id } = await tx.cycleEntry.create({
        data: { id: crypto.randomUUID(), userId, day: entry.day, kind: entry.kind, createdAt: now, updatedAt: now },
        select: { id: true },
      });
      await bumpDataVersion(tx, userId);
      return { id, day: entry.day, kind: entry.kind, created: true };
    });
  } catch (err) {
    // the same entry stored meanwhile by another request (the unique key): that one is the answer
    const there = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002" ? await existing(prisma()) : null;
    if (there) return there;
    throw err;
  }
}

/**
 * Moves one of the person's entries to another day or kind. Null when they have no such entry;
 * throws the database's unique-key error (P2002) when another entry already has that day and kind
 * (the service asks first and answers 409).
 */
export function updateCycleEntry(userId: string, id: string, patch: { day?: string; kind?: CycleEntryKind }): Promise<CycleEntry | null> {
  return prisma().$transaction(async (tx) => {
    const { count } = await tx.cycleEntry.updateMany({ where: { id, userId }, data: { day: patch.day, kind: patch.kind, updatedAt: clock.date() } });
    if (count === 0) return null;
    await bumpDataVersion(tx, userId);
    return toEntries(await tx.cycleEntry.findMany({ where: { id }, select: ENTRY }))[0] ?? null;
  });
}

/** Deletes one of the person's entries; false when they have no such entry. */
export function deleteCycleEntry(userId: string, id: string): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    if ((await tx.cycleEntry.deleteMany({ where: { id, userId } })).count === 0) return false;
    await bumpDataVersion(tx, userId);
    return true;
  });
}

/** Deletes the person's entries and the cycle documents the ring service sent (daily_cycle_phases); how many of each. Settings stay. */
export function deleteCycleData(userId: string): Promise<{ entries: number; documents: number }> {
  return prisma().$transaction(async (tx) => {
    const entries = (await tx.cycleEntry.deleteMany({ where: { userId } })).count;
    const documents = (await tx.dailyCyclePhases.deleteMany({ where: { userId } })).count;
    await bumpDataVersion(tx, userId);
    return { entries, documents };
  });
}

/** The person's cycle settings as stored, or null when they never changed one (the defaults apply). */
export function findCycleSettings(userId: string): Promise<CycleSettings | null> {
  return prisma().cycleSettings.findUnique({ where: { userId }, select: { tracking: true, hormonalContraception: true, pregnant: true } });
}

/**
 * Changes the settings the patch names (a first change stores the others at their defaults).
 * Tracking turned off deletes the ring service's cycle documents and their sync state (turned on
 * again, the sync fetches them anew): how many documents went. The settings row is written first:
 * on PostgreSQL its row lock waits for a page commit that read it FOR SHARE (lib/db/ingest/fence.ts cycleTrackingIn), so
 * the delete that follows sees what that page stored.
 */
export async function saveCycleSettingsRow(userId: string, patch: Partial<CycleSettings>): Promise<{ documents: number }> {
  const named = { tracking: patch.tracking, hormonalContraception: patch.hormonalContraception, pregnant: patch.pregnant, updatedAt: clock.date() };
  return prisma().$transaction(async (tx) => {
    await tx.cycleSettings.upsert({ where: { userId }, create: { userId, ...named }, update: named });
    let documents = 0;
    if (patch.tracking === false) {
      documents = (await tx.dailyCyclePhases.deleteMany({ where: { userId } })).count;
      await tx.syncState.deleteMany({ where: { userId, collection: CYCLE_RESOURCE } });
    }
    await bumpDataVersion(tx, userId);
    return { documents };
  });
}
