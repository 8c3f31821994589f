import "server-only";
import { clock } from "@/lib/clock";
import { announceDataChange } from "@/lib/db/data-changes";
import { prisma, type Db } from "@/lib/db/prisma";

// The person's data version (User.dataVersion): one counter that every write able to change
// an answer about the person moves forward — a sync or webhook page, an import, a note or
// tag edit, a preference, "delete my data". The conditional requests (lib/api/conditional.ts)
// build their ETags from it, so an answer is computed again only after something changed.
// Every write bumps it inside its own transaction (`await bumpDataVersion(tx, …)`), so a reader
// never pairs new data with an old version, nor an old answer with a new one. Each move is
// announced to whoever follows the person's data (lib/db/data-changes.ts: the Home Assistant
// publisher): in the process on SQLite, by a trigger's notification on PostgreSQL.

/** Moves the person's data version forward (a step of the caller's transaction). */
export async function bumpDataVersion(db: Db, userId: string): Promise<void> {
  // (Prisma Client writes updatedAt with every update: the clock's)
  await db.user.updateMany({ where: { id: userId }, data: { dataVersion: { increment: 1 }, updatedAt: clock.date() } });
  announceDataChange(userId);
}

/** The person's data version, or null when there is no such person. */
export async function readDataVersion(userId: string): Promise<number | null> {
  const row = await prisma().user.findUnique({ where: { id: userId }, select: { dataVersion: true } });
  return row?.dataVersion ?? null;
}

/** Moves every person's data version forward (a change to everyone's data; a step of the caller's transaction). */
export async function bumpEveryDataVersion(db: Db): Promise<void> {
  await db.user.updateMany({ data: { dataVersion: { increment: 1 } } });
  announceDataChange(null);
}
