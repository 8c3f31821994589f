import "server-only";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// The person's data version (User.dataVersion): one counter that every write able to change
// an answer about the person moves forward — a sync or webhook page, an import, a note or
// tag edit, a preference, "delete my data". The conditional requests (lib/api/conditional.ts)
// build their ETags from it, so an answer is computed again only after something changed.
// Writes on the raw connection bump it inside their own transaction; writes through Prisma
// bump it right after they commit (never before: a reader must not pair new data with an old
// version, nor an old answer with a new one).

type Prepared = { db: Database.Database; bump: Database.Statement; bumpAll: Database.Statement; read: Database.Statement };
let prepared: Prepared | null = null;

function statements(): Prepared {
  const db = rawDb();
  if (prepared?.db !== db) {
    prepared = {
      db,
      bump: db.prepare(`UPDATE "User" SET dataVersion = dataVersion + 1 WHERE id = ?`),
      bumpAll: db.prepare(`UPDATE "User" SET dataVersion = dataVersion + 1`),
      read: db.prepare(`SELECT dataVersion FROM "User" WHERE id = ?`).pluck(),
    };
  }
  return prepared;
}

/** Moves the person's data version forward (inside the caller's transaction when there is one). */
export function bumpDataVersion(userId: string): void {
  statements().bump.run(userId);
}

/** Moves every person's data version forward (a change to everyone's data). */
export function bumpEveryDataVersion(): void {
  statements().bumpAll.run();
}

/** The person's data version, or null when there is no such person. */
export function readDataVersion(userId: string): number | null {
  const v = statements().read.get(userId) as number | undefined;
  return v === undefined ? null : v;
}

/** The same bump as a Prisma operation, for a Prisma transaction (it commits with the write). */
export function dataVersionBump(tx: Pick<PrismaClient, "user">, userId: string) {
  return tx.user.update({ where: { id: userId }, data: { dataVersion: { increment: 1 } }, select: { id: true } });
}
