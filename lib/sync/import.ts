import "server-only";
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { env } from "@/lib/env.mjs";
import { AppError } from "@/lib/api/errors";
import { NOTE_TAGS_MAX, NOTE_TEXT_MAX, daySchema, storedText, tagColorSchema, tagNameSchema } from "@/lib/api/schemas";
import { ingestDocuments, upsertPersonalInfo, personalInfoSyncedAt, type DocumentRow, type RejectedInput } from "@/lib/db/queries/ring-documents";
import { mergeSampleDays } from "@/lib/db/queries/time-series";
import { groupByUtcDay } from "@/lib/db/sample-codec";
import { setDayNote, insertTag, listTags } from "@/lib/db/queries/notes";
import { mapDocument, mapPersonalInfo, mapSamples } from "@/lib/sync/map";
import { noteUnknownValues } from "@/lib/sync/unknown-values";
import { ExportScanError, ExportScanner, type ExportScanLimits } from "@/lib/sync/export-scanner";
import { isRingCollection, isSeriesCollection, type RingCollection, type SeriesCollection } from "@/lib/resources";

/**
 * Import of a "ringside-export-v1" file (Settings → Data → Export everything as JSON) into
 * the signed-in person's data, for moving between instances. Every document goes through
 * the same validation and mapping as a sync, so an imported day is stored exactly as a
 * synced one; a document that fails validation is kept aside (shown on the Sync page).
 * Re-importing the same file changes nothing (upserts by document id).
 *
 * Bounded, whatever the file: it is read as a stream (lib/sync/export-scanner.ts) and never
 * held whole. While it arrives it is checked piece by piece against the limits below and
 * spooled to a private file in the data directory; only a file that passed completely is then
 * applied, in a second pass over the spool. A refused file stores nothing.
 */

/**
 * The largest file accepted. A five-year export is about 75 MB, of which heart rate is about
 * 45 MB (half a million samples) and the ring's battery 10 MB; 256 MB holds well over ten years.
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/**
 * The time series' own bounds: a sample is about 90 bytes of JSON (1 KB at most here), and a
 * ring records about 260 heart-rate samples and 50 battery readings a day, so these hold some
 * thirty years each while a file stays within MAX_IMPORT_BYTES anyway.
 */
export const SERIES_IMPORT_LIMITS: Readonly<Record<SeriesCollection, { maxItems: number; maxItemBytes: number }>> = {
  heartrate: { maxItems: 3_000_000, maxItemBytes: 1024 },
  ring_battery_level: { maxItems: 1_000_000, maxItemBytes: 1024 },
};

export const IMPORT_LIMITS: ExportScanLimits = {
  maxItemBytes: 256 * 1024,
  maxFieldBytes: 64 * 1024,
  maxStringBytes: 64 * 1024,
  maxKeyBytes: 128,
  maxDepth: 32,
  maxCollections: 64,
  maxItemsPerCollection: 200_000,
  maxDocuments: 1_000_000,
  collectionLimits: SERIES_IMPORT_LIMITS,
  maxNotes: 40_000,
  maxTags: 1_000,
};

export const EXPORT_FORMAT = "ringside-export-v1";

export const importNoteSchema = z.object({
  day: daySchema,
  text: storedText().max(NOTE_TEXT_MAX),
  tags: z.array(tagNameSchema).max(NOTE_TAGS_MAX),
});
export const importTagSchema = z.object({ name: tagNameSchema, color: tagColorSchema.optional() });

/** The file as a whole (what the streaming reader enforces, declared for tests and callers). */
export const ringsideExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  personal_info: z.unknown().optional(),
  notes: z.array(importNoteSchema).max(IMPORT_LIMITS.maxNotes).optional(),
  tags: z.array(importTagSchema).max(IMPORT_LIMITS.maxTags).optional(),
  collections: z
    .record(z.string().max(IMPORT_LIMITS.maxKeyBytes), z.array(z.unknown()))
    .refine((c) => Object.keys(c).length <= IMPORT_LIMITS.maxCollections, { message: `at most ${IMPORT_LIMITS.maxCollections} collections` })
    .refine((c) => Object.entries(c).every(([k, items]) => items.length <= (isSeriesCollection(k) ? SERIES_IMPORT_LIMITS[k].maxItems : IMPORT_LIMITS.maxItemsPerCollection)), {
      message: `at most ${IMPORT_LIMITS.maxItemsPerCollection} documents a collection (time series: ${SERIES_IMPORT_LIMITS.heartrate.maxItems} samples)`,
    }),
});

export type ImportResult = {
  documents: Record<string, number>;
  rejected: number;
  notes: number;
  tags: number;
  ignoredCollections: string[];
};

const CHUNK = 500;
/** Samples applied at a time (a few days of heart rate). */
const SERIES_CHUNK = 5_000;

function refusal(err: ExportScanError): AppError {
  if (err.reason === "too_large") return new AppError("payload_too_large", err.message);
  if (err.reason === "shape") return new AppError("unprocessable_entity", err.message);
  return new AppError("bad_request", err.message);
}

function invalid(message: string): AppError {
  return new AppError("unprocessable_entity", message);
}

type Checked = { personalInfo: unknown; tags: Array<z.infer<typeof importTagSchema>> };

/** Pass 1: reads the file as it arrives, checks every piece, spools the bytes. Throws AppError. */
async function checkAndSpool(source: AsyncIterable<Uint8Array>, spool: fs.promises.FileHandle): Promise<Checked> {
  const scanner = new ExportScanner(IMPORT_LIMITS);
  const checked: Checked = { personalInfo: undefined, tags: [] };
  const take = (events: ReturnType<ExportScanner["write"]>) => {
    for (const e of events) {
      if (e.kind === "field") {
        if (e.key === "format" && e.value !== EXPORT_FORMAT) throw invalid(`This is not a Ringside export (format must be "${EXPORT_FORMAT}").`);
        if (e.key === "personal_info") checked.personalInfo = e.value;
      } else if (e.kind === "note") {
        if (!importNoteSchema.safeParse(e.value).success) throw invalid("A note of the file is not valid.");
      } else if (e.kind === "tag") {
        const tag = importTagSchema.safeParse(e.value);
        if (!tag.success) throw invalid("A tag of the file is not valid.");
        checked.tags.push(tag.data);
      }
    }
  };
  try {
    for await (const chunk of source) {
      take(scanner.write(chunk));
      await spool.write(chunk);
    }
    take(scanner.end());
  } catch (err) {
    if (err instanceof ExportScanError) throw refusal(err);
    throw err;
  }
  if (!scanner.seenFields.has("format")) throw invalid(`This is not a Ringside export (no "format").`);
  if (!scanner.seenFields.has("collections")) throw invalid(`This is not a Ringside export (no "collections").`);
  return checked;
}

/** Pass 2: applies a checked file from its spool. */
async function apply(userId: string, spoolFile: string, checked: Checked): Promise<ImportResult> {
  const result: ImportResult = { documents: {}, rejected: 0, notes: 0, tags: 0, ignoredCollections: [] };
  const now = clock.date().toISOString();

  // Tags first, so notes find them with their colours.
  const existing = new Set((await listTags(userId)).map((t) => t.name));
  for (const tag of checked.tags) {
    if (existing.has(tag.name)) continue;
    await insertTag({ userId, name: tag.name, color: tag.color ?? null });
    existing.add(tag.name);
    result.tags += 1;
  }

  const batch: { collection: RingCollection | SeriesCollection | null; docs: unknown[] } = { collection: null, docs: [] };
  const flush = async () => {
    const { collection, docs } = batch;
    if (!collection || docs.length === 0) return;
    if (isSeriesCollection(collection)) {
      // samples: validated like a synced page, merged into their days (a sample twice is stored once)
      const mapped = mapSamples(collection, docs);
      if (mapped.unknown.length) noteUnknownValues(collection, mapped.unknown);
      await mergeSampleDays({ collection, userId, days: groupByUtcDay(mapped.samples), rejected: mapped.rejected.map((r) => ({ documentId: null, day: r.day, raw: r.raw, error: `import: ${r.error}` })) });
      result.documents[collection] = (result.documents[collection] ?? 0) + mapped.samples.length;
      result.rejected += mapped.rejectedCount;
      batch.docs = [];
      return;
    }
    const rows: DocumentRow[] = [];
    const rejected: RejectedInput[] = [];
    for (const doc of docs) {
      const mapped = mapDocument(collection, doc, userId, now);
      if (mapped.ok && mapped.unknown) noteUnknownValues(collection, mapped.unknown);
      if (mapped.ok) rows.push(mapped.row);
      else rejected.push({ documentId: mapped.documentId, day: mapped.day, raw: mapped.raw, error: `import: ${mapped.error}` });
    }
    await ingestDocuments({ collection, userId, rows, rejected });
    result.documents[collection] = (result.documents[collection] ?? 0) + rows.length;
    result.rejected += rejected.length;
    batch.docs = [];
  };

  const scanner = new ExportScanner(IMPORT_LIMITS);
  const notes: unknown[] = [];
  const applyNotes = async () => {
    for (const value of notes.splice(0)) {
      const note = importNoteSchema.parse(value);
      await setDayNote({ userId, day: note.day, text: note.text, tags: note.tags });
      result.notes += 1;
    }
  };
  for await (const chunk of fs.createReadStream(spoolFile, { highWaterMark: 64 * 1024 })) {
    for (const e of scanner.write(chunk as Buffer)) {
      if (e.kind === "document") {
        const collection = e.collection;
        if (!isRingCollection(collection) && !isSeriesCollection(collection)) {
          if (!result.ignoredCollections.includes(collection)) result.ignoredCollections.push(collection);
          continue;
        }
        if (batch.collection !== collection) {
          await flush();
          batch.collection = collection;
          result.documents[collection] ??= 0;
        }
        batch.docs.push(e.value);
        if (batch.docs.length >= (isSeriesCollection(collection) ? SERIES_CHUNK : CHUNK)) await flush();
      } else if (e.kind === "note") notes.push(e.value);
    }
    await flush();
    await applyNotes();
  }
  scanner.end();
  await flush();
  await applyNotes();

  // personal_info only when this instance has none yet (a sync replaces it anyway), and only
  // with its account id (without one there is nothing to tie it to; the next sync brings it)
  const info = mapPersonalInfo(checked.personalInfo, userId, null);
  if (info && !await personalInfoSyncedAt(userId)) await upsertPersonalInfo(info);
  return result;
}

export type ImportOptions = {
  /** where the checked file is spooled (default: the data directory, which only Ringside's user can read) */
  spoolDir?: string;
};

/**
 * Imports an export arriving as a byte stream (the request body). Refuses with AppError:
 * 400 not JSON, 413 over a limit, 422 not an export or an invalid note/tag; nothing is stored then.
 */
export async function importRingsideExport(userId: string, source: AsyncIterable<Uint8Array>, opts: ImportOptions = {}): Promise<ImportResult> {
  const dir = path.resolve(/*turbopackIgnore: true*/ opts.spoolDir ?? env.DATA_DIR);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const spoolFile = path.join(dir, `import-${crypto.randomUUID()}.tmp`);
  const spool = await fs.promises.open(spoolFile, "wx", 0o600);
  try {
    let checked: Checked;
    try {
      checked = await checkAndSpool(source, spool);
    } finally {
      await spool.close();
    }
    return await apply(userId, spoolFile, checked);
  } finally {
    await fs.promises.rm(spoolFile, { force: true });
  }
}
