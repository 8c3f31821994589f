import "server-only";
import { z } from "zod";
import { ingestDocuments, upsertPersonalInfo, personalInfoSyncedAt, type DocumentRow, type RejectedInput } from "@/lib/db/queries/ring-documents";
import { setDayNote, insertTag, listTags } from "@/lib/db/queries/notes";
import { mapDocument, mapPersonalInfo } from "@/lib/sync/map";
import { noteUnknownValues } from "@/lib/sync/unknown-values";
import { isRingCollection } from "@/lib/resources";

/**
 * Import of a "ringside-export-v1" file (Settings → Data → Export everything as JSON) into
 * the signed-in person's data, for moving between instances. Every document goes through
 * the same validation and mapping as a sync, so an imported day is stored exactly as a
 * synced one; a document that fails validation is kept aside (shown on the Sync page).
 * Re-importing the same file changes nothing (upserts by document id).
 */
export const ringsideExportSchema = z.object({
  format: z.literal("ringside-export-v1"),
  personal_info: z.unknown().optional(),
  notes: z
    .array(z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), text: z.string().max(10_000), tags: z.array(z.string().min(1).max(60)).max(50) }))
    .max(100_000)
    .optional(),
  tags: z.array(z.object({ name: z.string().min(1).max(60), color: z.string().max(20).nullable().optional() })).max(1000).optional(),
  collections: z.record(z.string(), z.array(z.unknown()).max(200_000)),
});
export type RingsideExport = z.infer<typeof ringsideExportSchema>;

export type ImportResult = {
  documents: Record<string, number>;
  rejected: number;
  notes: number;
  tags: number;
  ignoredCollections: string[];
};

const CHUNK = 500;

export async function importRingsideExport(userId: string, data: RingsideExport): Promise<ImportResult> {
  const result: ImportResult = { documents: {}, rejected: 0, notes: 0, tags: 0, ignoredCollections: [] };
  const now = new Date().toISOString();
  for (const [name, docs] of Object.entries(data.collections)) {
    if (!isRingCollection(name)) {
      result.ignoredCollections.push(name);
      continue;
    }
    const collection = name;
    let stored = 0;
    for (let i = 0; i < docs.length; i += CHUNK) {
      const rows: DocumentRow[] = [];
      const rejected: RejectedInput[] = [];
      for (const doc of docs.slice(i, i + CHUNK)) {
        const mapped = mapDocument(collection, doc, userId, now);
        if (mapped.ok && mapped.unknown) noteUnknownValues(collection, mapped.unknown);
        if (mapped.ok) rows.push(mapped.row);
        else rejected.push({ documentId: mapped.documentId, day: mapped.day, raw: mapped.raw, error: `import: ${mapped.error}` });
      }
      ingestDocuments({ collection, userId, rows, rejected });
      stored += rows.length;
      result.rejected += rejected.length;
    }
    result.documents[collection] = stored;
  }

  // personal_info only when this instance has none yet (a sync replaces it anyway), and only
  // with its account id (without one there is nothing to tie it to; the next sync brings it)
  const info = mapPersonalInfo(data.personal_info, userId, null);
  if (info && !personalInfoSyncedAt(userId)) upsertPersonalInfo(info);

  const existing = new Set((await listTags(userId)).map((t) => t.name));
  for (const tag of data.tags ?? []) {
    if (existing.has(tag.name)) continue;
    await insertTag({ userId, name: tag.name, color: tag.color ?? null });
    existing.add(tag.name);
    result.tags += 1;
  }
  for (const note of data.notes ?? []) {
    await setDayNote({ userId, day: note.day, text: note.text, tags: note.tags });
    result.notes += 1;
  }
  return result;
}
