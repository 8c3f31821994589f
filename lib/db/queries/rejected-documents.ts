import "server-only";
import { rawDb } from "@/lib/db";

// Documents the ring service sent that failed validation: kept aside (never dropped
// silently) and shown on the sync page. Written together with the page they came in
// (ring-documents.ts ingestDocuments); read here.

export type RejectedDocumentRow = {
  id: number;
  collection: string;
  documentId: string | null;
  day: string | null;
  error: string;
  seenAt: string;
};

export function listRejectedDocuments(userId: string, limit = 50): RejectedDocumentRow[] {
  return rawDb()
    .prepare(
      `SELECT id, collection, documentId, day, error, seenAt FROM rejected_document WHERE userId = ? ORDER BY seenAt DESC, id DESC LIMIT ?`,
    )
    .all(userId, limit) as RejectedDocumentRow[];
}

/** Rejected documents per collection of a person. */
export function countRejectedByCollection(userId: string): Record<string, number> {
  const rows = rawDb()
    .prepare(`SELECT collection, COUNT(*) AS n FROM rejected_document WHERE userId = ? GROUP BY collection`)
    .all(userId) as Array<{ collection: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.collection, r.n]));
}

/** The raw JSON of one rejected document of the person (for a closer look). */
export function getRejectedDocumentRaw(userId: string, id: number): string | undefined {
  const row = rawDb().prepare(`SELECT raw FROM rejected_document WHERE userId = ? AND id = ?`).get(userId, id) as { raw: string } | undefined;
  return row?.raw;
}
