import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type Db } from "@/lib/db/prisma";
import { lockUserRow } from "@/lib/db/queries/user-lock";

// Report share links (prisma/schema.prisma ReportLink, table report_link): rows in, rows out.
// Only the SHA-256 of a link's secret is ever stored or asked for. A revoked link keeps its row
// (revokedAt set) so that it answers "no longer valid" rather than "never issued".

export type ReportLinkRow = {
  id: string;
  userId: string;
  label: string | null;
  /** the report's query, JSON */
  query: string;
  expiresAt: Date;
  revokedAt: Date | null;
  views: number;
  lastViewAt: Date | null;
  createdAt: Date;
};

const LINK = {
  id: true,
  userId: true,
  label: true,
  query: true,
  expiresAt: true,
  revokedAt: true,
  views: true,
  lastViewAt: true,
  createdAt: true,
} as const;

/**
 * Stores a new link unless the person has `max` links already (revoked and expired ones
 * included, until they are removed): count and insert in one write transaction, the person's
 * row locked first on PostgreSQL. Null when the bound was reached.
 */
export function insertReportLink(opts: {
  userId: string;
  secretHash: string;
  label: string | null;
  query: string;
  expiresAt: Date;
  max: number;
  now?: Date;
}): Promise<ReportLinkRow | null> {
  return prisma().$transaction(async (tx) => {
    await lockUserRow(tx, opts.userId);
    if ((await tx.reportLink.count({ where: { userId: opts.userId } })) >= opts.max) return null;
    return tx.reportLink.create({
      data: {
        id: crypto.randomUUID(),
        userId: opts.userId,
        secretHash: opts.secretHash,
        label: opts.label,
        query: opts.query,
        expiresAt: opts.expiresAt,
        createdAt: opts.now ?? clock.date(),
      },
      select: LINK,
    });
  });
}

/** The link with this secret hash, whatever its state (revoked and expired ones too). */
export function findReportLinkByHash(secretHash: string): Promise<ReportLinkRow | null> {
  return prisma().reportLink.findUnique({ where: { secretHash }, select: LINK });
}

/** Counts a view of a link that is still open at `at`; false when it was revoked or expired meanwhile. */
export async function recordReportLinkView(id: string, at: Date): Promise<boolean> {
  const { count } = await prisma().reportLink.updateMany({
    where: { id, revokedAt: null, expiresAt: { gt: at } },
    data: { views: { increment: 1 }, lastViewAt: at },
  });
  return count === 1;
}

/** The person's links, newest first. */
export function listReportLinks(userId: string): Promise<ReportLinkRow[]> {
  return prisma().reportLink.findMany({ where: { userId }, select: LINK, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
}

/** Revokes one of the person's open links; false when it is not theirs or was revoked already. */
export async function revokeReportLink(userId: string, id: string, at: Date): Promise<boolean> {
  return (await prisma().reportLink.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: at } })).count === 1;
}

/** Revokes every open link of the person ("Delete all my data"), as a step of the caller's transaction; how many. */
export async function reportLinksRevoke(tx: Db, userId: string, at: Date): Promise<number> {
  return (await tx.reportLink.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: at } })).count;
}

/** Removes the person's links that closed (revoked or expired) before `before`; how many. */
export async function deleteClosedReportLinks(userId: string, before: Date): Promise<number> {
  return (await prisma().reportLink.deleteMany({ where: { userId, OR: [{ revokedAt: { lt: before } }, { expiresAt: { lt: before } }] } })).count;
}
