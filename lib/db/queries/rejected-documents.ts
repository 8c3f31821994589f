import "server-only";
import { prisma } from "@/lib/db/prisma";

// Documents the ring service sent that failed validation: kept aside (never dropped
// silently) and shown on the sync page. Written together with the page they came in
// (ring-documents.ts ingestDocuments); read here.

export function listRejectedDocuments(userId: string, limit = 50) {
  return prisma().rejectedDocument.findMany({
    where: { userId },
    select: { id: true, collection: true, documentId: true, day: true, error: true, seenAt: true },
    orderBy: [{ seenAt: "desc" }, { id: "desc" }],
    take: limit,
  });
}

/** Rejected documents per collection of a person. */
export async function countRejectedByCollection(userId: string): Promise<Record<string, number>> {
  const rows = await prisma().rejectedDocument.groupBy({ by: ["collection"], where: { userId }, _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.collection, r._count._all]));
}

/** The raw JSON of one rejected document of the person (for a closer look). */
export async function getRejectedDocumentRaw(userId: string, id: number): Promise<string | undefined> {
  const row = await prisma().rejectedDocument.findFirst({ where: { userId, id }, select: { raw: true } });
  return row?.raw;
}
