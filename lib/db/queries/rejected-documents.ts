import "server-only";
import { all, get, query } from "@/lib/db/sql";

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

export function listRejectedDocuments(userId: string, limit = 50): Promise<RejectedDocumentRow[]> {
  return query(
    all<RejectedDocumentRow>(
      `SELECT id, collection, documentId, day, error, seenAt FROM rejected_document WHERE userId = ? ORDER BY seenAt DESC, id DESC LIMIT ?`,
      userId,
      limit,
    ),
  );
}

/** Rejected documents per collection of a person. */
export async function countRejectedByCollection(userId: string): Promise<Record<string, number>> {
  const rows = await query(
    all<{ collection: string; n: number }>(`SELECT collection, COUNT(*) AS n FROM rejected_document WHERE userId = ? GROUP BY collection`, userId),
  );
  return Object.fromEntries(rows.map((r) => [r.collection, Number(r.n)]));
}

/** The raw JSON of one rejected document of the person (for a closer look). */
export async function getRejectedDocumentRaw(userId: string, id: number): Promise<string | undefined> {
  const row = await query(get<{ raw: string }>(`SELECT raw FROM rejected_document WHERE userId = ? AND id = ?`, userId, id));
  return row?.raw;
}
