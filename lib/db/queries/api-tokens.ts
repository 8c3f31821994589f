import "server-only";
import { clock } from "@/lib/clock";
import { prisma } from "@/lib/db/prisma";
import { lockUserRow } from "@/lib/db/queries/user-lock";

// Personal access tokens (prisma/schema.prisma ApiToken, table api_token): rows in, rows out.
// The lookup runs on every API request, like the session lookup. Only the token's SHA-256 is
// ever stored or asked for.

/** A token as the app sees it (its hash aside). */
const TOKEN = { id: true, userId: true, name: true, prefix: true, kinds: true, lastUsedAt: true, expiresAt: true, createdAt: true } as const;

export type ApiTokenRow = {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  /** JSON list of data kinds */
  kinds: string;
  lastUsedAt: Date | null;
  /** null: never expires */
  expiresAt: Date | null;
  createdAt: Date;
};

/** The token with this hash, if it exists (revoked tokens are deleted). */
export function findApiTokenByHash(tokenHash: string): Promise<ApiTokenRow | null> {
  return prisma().apiToken.findUnique({ where: { tokenHash }, select: TOKEN });
}

/** Records a use of the token. */
export async function touchApiToken(id: string, at: Date): Promise<void> {
  await prisma().apiToken.updateMany({ where: { id }, data: { lastUsedAt: at } });
}

/**
 * Stores a new token unless the person has `max` already: count and insert in one write
 * transaction, the person's row locked first on PostgreSQL (SQLite has one writer at a time),
 * so two requests at once, on any process, cannot both pass the bound. Null when it was reached.
 */
export function insertApiToken(opts: {
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  kinds: string;
  max: number;
  expiresAt?: Date | null;
  now?: Date;
}): Promise<ApiTokenRow | null> {
  return prisma().$transaction(async (tx) => {
    await lockUserRow(tx, opts.userId);
    if ((await tx.apiToken.count({ where: { userId: opts.userId } })) >= opts.max) return null;
    return tx.apiToken.create({
      data: {
        id: crypto.randomUUID(),
        userId: opts.userId,
        name: opts.name,
        tokenHash: opts.tokenHash,
        prefix: opts.prefix,
        kinds: opts.kinds,
        expiresAt: opts.expiresAt ?? null,
        createdAt: opts.now ?? clock.date(),
      },
      select: TOKEN,
    });
  });
}

/** The person's tokens, newest first. */
export function listApiTokens(userId: string): Promise<ApiTokenRow[]> {
  return prisma().apiToken.findMany({ where: { userId }, select: TOKEN, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
}

/** Deletes every token of a person (a member removed by the owner); their ids. */
export function deleteApiTokensOf(userId: string): Promise<string[]> {
  return prisma().$transaction(async (tx) => {
    const ids = (await tx.apiToken.findMany({ where: { userId }, select: { id: true } })).map((r) => r.id);
    await tx.apiToken.deleteMany({ where: { userId } });
    return ids;
  });
}

/** Deletes one of the person's tokens; false when it is not theirs (or gone already). */
export async function deleteApiToken(userId: string, id: string): Promise<boolean> {
  return (await prisma().apiToken.deleteMany({ where: { id, userId } })).count === 1;
}
