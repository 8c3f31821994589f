import "server-only";
import fs from "node:fs";
import { z } from "zod";
import { AppError } from "@/lib/http/errors";
import { NOTE_TAGS_MAX, NOTE_TEXT_MAX, daySchema, storedText, tagColorSchema, tagNameSchema } from "@/lib/schemas/requests";
import { upsertPersonalInfo } from "@/lib/db/ingest/documents";
import { personalInfoSyncedAt } from "@/lib/db/queries/ring-documents";
import { insertTag, listTags } from "@/lib/db/queries/notes";
import { findCycleSettings, insertCycleEntry, listCycleEntries, saveCycleSettingsRow } from "@/lib/db/queries/cycle";
import { CYCLE_DEFAULT_SETTINGS, CYCLE_ENTRY_KINDS, type CycleSettings } from "@/lib/cycle";
import { mapPersonalInfo } from "@/lib/sync/map";
import { ExportScanError, ExportScanner, type ExportScanEvent, type ExportScanLimits } from "@/lib/sync/export-scanner";
import type { ImportWriter } from "@/lib/import/writer";
import { isRingCollection, isSeriesCollection, type SeriesCollection } from "@/lib/resources";

/**
 * Ringside's own export, "ringside-export-v1" (Settings → Data → Export everything as JSON),
 * for moving between instances: its check and its reading into the import's writer
 * (lib/import/writer.ts), which validates and maps every document as a sync does; the import
 * as a whole (spool, lock, dry run, checkpoints) is lib/import/run.ts. A document that fails
 * validation is kept aside (shown on the Sync page). The person's cycle settings and period
 * entries (`cycle`, one top-level field) are stored as they are, an entry already there kept.
 * Re-importing the same file changes nothing.
 *
 * Bounded, whatever the file: it is read as a stream (lib/sync/export-scanner.ts) and never
 * held whole, checked piece by piece against the limits below in a first pass over the spooled
 * upload; only a file that passed completely is read again into the writer. A refused file
 * stores nothing.
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

/** Period entries an export may carry (two a day at most; some fifty years of them). */
export const IMPORT_CYCLE_ENTRIES_MAX = 2_000;

/** The cycle section: the settings (null when the person never changed one) and the period entries. */
export const importCycleSchema = z.object({
  settings: z.object({ tracking: z.boolean(), hormonalContraception: z.boolean(), pregnant: z.boolean() }).nullable().optional(),
  entries: z
    .array(z.object({ day: daySchema, kind: z.enum(CYCLE_ENTRY_KINDS) }))
    .max(IMPORT_CYCLE_ENTRIES_MAX)
    .default([]),
});
export type ImportCycle = z.infer<typeof importCycleSchema>;

/** The file as a whole (what the streaming reader enforces, declared for tests and callers). */
export const ringsideExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  personal_info: z.unknown().optional(),
  notes: z.array(importNoteSchema).max(IMPORT_LIMITS.maxNotes).optional(),
  tags: z.array(importTagSchema).max(IMPORT_LIMITS.maxTags).optional(),
  cycle: importCycleSchema.optional(),
  collections: z
    .record(z.string().max(IMPORT_LIMITS.maxKeyBytes), z.array(z.unknown()))
    .refine((c) => Object.keys(c).length <= IMPORT_LIMITS.maxCollections, { message: `at most ${IMPORT_LIMITS.maxCollections} collections` })
    .refine(
      (c) =>
        Object.entries(c).every(
          ([k, items]) => items.length <= (isSeriesCollection(k) ? SERIES_IMPORT_LIMITS[k].maxItems : IMPORT_LIMITS.maxItemsPerCollection),
        ),
      {
        message: `at most ${IMPORT_LIMITS.maxItemsPerCollection} documents a collection (time series: ${SERIES_IMPORT_LIMITS.heartrate.maxItems} samples)`,
      },
    ),
});

/** What the check of a Ringside export found: the parts applied before and after its items, and how many items it has. */
export type RingsideChecked = { personalInfo: unknown; tags: Array<z.infer<typeof importTagSchema>>; cycle: ImportCycle | null; items: number };

function refusal(err: ExportScanError): AppError {
  if (err.reason === "too_large") return new AppError("payload_too_large", err.message);
  if (err.reason === "shape") return new AppError("unprocessable_entity", err.message);
  return new AppError("bad_request", err.message);
}

function invalid(message: string): AppError {
  return new AppError("unprocessable_entity", message);
}

async function* spoolChunks(file: string): AsyncGenerator<Buffer> {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) yield chunk as Buffer;
}

/**
 * The check of a Ringside export, fed its bytes as they arrive (while the upload is spooled, so
 * a file over a limit is refused after reading only a little of it): every piece is checked
 * against the limits, nothing stored. Throws AppError: 400 not JSON, 413 over a limit, 422 not
 * an export or an invalid note or tag.
 */
export class RingsideChecker {
  private readonly scanner = new ExportScanner(IMPORT_LIMITS);
  private readonly checked: RingsideChecked = { personalInfo: undefined, tags: [], cycle: null, items: 0 };

  constructor(private readonly progress: (items: number) => Promise<void> = async () => undefined) {}

  private async take(events: ExportScanEvent[]): Promise<void> {
    const checked = this.checked;
    for (const e of events) {
      if (e.kind === "field") {
        if (e.key === "format" && e.value !== EXPORT_FORMAT) throw invalid(`This is not a Ringside export (format must be "${EXPORT_FORMAT}").`);
        if (e.key === "personal_info") checked.personalInfo = e.value;
        if (e.key === "cycle") {
          const cycle = importCycleSchema.safeParse(e.value);
          if (!cycle.success) throw invalid("The cycle section of the file is not valid.");
          checked.cycle = cycle.data;
        }
      } else if (e.kind === "note") {
        if (!importNoteSchema.safeParse(e.value).success) throw invalid(`Note ${checked.items + 1} of the file is not valid.`);
        checked.items++;
      } else if (e.kind === "tag") {
        const tag = importTagSchema.safeParse(e.value);
        if (!tag.success) throw invalid("A tag of the file is not valid.");
        checked.tags.push(tag.data);
      } else {
        checked.items++;
        if (checked.items % 5_000 === 0) await this.progress(checked.items);
      }
    }
  }

  async write(chunk: Uint8Array): Promise<void> {
    try {
      await this.take(this.scanner.write(chunk));
    } catch (err) {
      throw err instanceof ExportScanError ? refusal(err) : err;
    }
  }

  async end(): Promise<RingsideChecked> {
    try {
      await this.take(this.scanner.end());
    } catch (err) {
      throw err instanceof ExportScanError ? refusal(err) : err;
    }
    if (!this.scanner.seenFields.has("format")) throw invalid(`This is not a Ringside export (no "format").`);
    if (!this.scanner.seenFields.has("collections")) throw invalid(`This is not a Ringside export (no "collections").`);
    await this.progress(this.checked.items);
    return this.checked;
  }
}

/** The check of a spooled Ringside export (RingsideChecker over the file). */
export async function checkRingsideFile(file: string, progress: (items: number) => Promise<void>): Promise<RingsideChecked> {
  const checker = new RingsideChecker(progress);
  for await (const chunk of spoolChunks(file)) await checker.write(chunk);
  return checker.end();
}

const sameSettings = (a: CycleSettings, b: CycleSettings) =>
  a.tracking === b.tracking && a.hormonalContraception === b.hormonalContraception && a.pregnant === b.pregnant;

/**
 * Stores (or, in a dry run, counts) the cycle section: the entries not there yet, and the
 * settings when they differ from the person's. How many entries are new.
 */
async function applyCycle(userId: string, cycle: ImportCycle | null, dryRun: boolean): Promise<number> {
  if (!cycle) return 0;
  const have = new Set((await listCycleEntries(userId)).map((e) => `${e.day}|${e.kind}`));
  let added = 0;
  for (const e of cycle.entries) {
    const key = `${e.day}|${e.kind}`;
    if (have.has(key)) continue;
    have.add(key);
    added += 1;
    if (!dryRun) await insertCycleEntry(userId, e);
  }
  const current = (await findCycleSettings(userId)) ?? CYCLE_DEFAULT_SETTINGS;
  if (!dryRun && cycle.settings && !sameSettings(cycle.settings, current)) await saveCycleSettingsRow(userId, cycle.settings);
  return added;
}

/**
 * Reads a checked Ringside export into the writer (every document, sample and note is an
 * item, in file order); stores the tags first, and the cycle section and personal_info last,
 * unless it is a dry run. Returns the collections of the file Ringside does not keep, and how
 * many tags and period entries are new.
 */
export async function readRingsideFile(
  userId: string,
  file: string,
  checked: RingsideChecked,
  writer: ImportWriter,
  opts: { dryRun: boolean; progress: (items: number) => Promise<void> },
): Promise<{ ignoredCollections: string[]; tags: number; cycleEntries: number }> {
  const ignoredCollections: string[] = [];
  // Tags first, so notes find them with their colours.
  let tags = 0;
  const existing = new Set((await listTags(userId)).map((t) => t.name));
  for (const tag of checked.tags) {
    if (existing.has(tag.name)) continue;
    if (!opts.dryRun) await insertTag({ userId, name: tag.name, color: tag.color ?? null });
    existing.add(tag.name);
    tags += 1;
  }
  const scanner = new ExportScanner(IMPORT_LIMITS);
  const take = async (events: ExportScanEvent[]) => {
    for (const e of events) {
      if (e.kind === "document") {
        const collection = e.collection;
        if (isSeriesCollection(collection)) writer.sample(collection, e.value);
        else if (isRingCollection(collection)) writer.document(collection, e.value as Record<string, unknown>);
        else if (!ignoredCollections.includes(collection)) ignoredCollections.push(collection);
      } else if (e.kind === "note") writer.note(importNoteSchema.parse(e.value));
      else continue;
      if (writer.endItem()) await writer.flush();
      if (writer.items % 5_000 === 0) await opts.progress(writer.items);
    }
  };
  for await (const chunk of spoolChunks(file)) await take(scanner.write(chunk));
  await take(scanner.end());
  await writer.flush();

  // personal_info only when this instance has none yet (a sync replaces it anyway), and only
  // with its account id (without one there is nothing to tie it to; the next sync brings it)
  const cycleEntries = await applyCycle(userId, checked.cycle, opts.dryRun);
  const info = mapPersonalInfo(checked.personalInfo, userId, null);
  if (!opts.dryRun && info && !(await personalInfoSyncedAt(userId))) await upsertPersonalInfo(info);
  return { ignoredCollections, tags, cycleEntries };
}
