import "server-only";
import { dbProvider, type Db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Locks the person's row for the caller's transaction, so that a count-then-insert bounded per
 * person (API tokens, share links) is one at a time on any process: on PostgreSQL `FOR UPDATE`
 * (the model API has no row lock); on SQLite the IMMEDIATE transaction is the lock already.
 */
export async function lockUserRow(tx: Db, userId: string): Promise<void> {
  if (dbProvider(tx) === "postgresql") await tx.$queryRaw<Array<Pick<Prisma.UserModel, "id">>>`SELECT id FROM "User" WHERE id = ${userId} FOR UPDATE`;
}
