import "server-only";
import { getResource, type RingCollection, type SeriesCollection } from "@/lib/resources";
import { daysWithServiceDocuments, ingestDocuments, storedByKey, type DocumentRow, type RejectedInput } from "@/lib/db/queries/ring-documents";
import { diffSampleDays, mergeSampleDays, storedDayCounts } from "@/lib/db/queries/time-series";
import { getDayNote, setDayNote } from "@/lib/db/queries/notes";
import { groupByUtcDay } from "@/lib/db/sample-codec";
import { documentKey, emptyMappedSamples, mapDocument, sampleMapper, type MappedSamples } from "@/lib/sync/map";
import { noteUnknownValues } from "@/lib/sync/unknown-values";

// Where every import's rows go, whatever the file: documents and samples validated and mapped
// exactly as a sync maps them (lib/sync/map.ts) and written with the sync's own queries, in
// chunks. A dry run goes through the same steps and compares with what is stored instead of
// writing. Each row is one "item"; a resumed import skips the items an earlier run stored.

/** Per collection: rows read, and what storing them does or would do. */
export type CollectionCounts = {
  rows: number;
  /** not stored before */
  new: number;
  /** stored before with other values: the file's version replaces it (as a sync would) */
  changed: number;
  /** stored before with the same values */
  unchanged: number;
  /** Trends rows on days a document of the service covers: not stored */
  skipped: number;
  /** failed validation: kept aside (the Sync page lists them), as a sync does */
  rejected: number;
};

/** Notes of a Ringside export: `conflicting` days had another note, kept (the first 100 listed in `conflicts`). */
export type NoteCounts = { new: number; unchanged: number; replaced: number; conflicting: number; conflicts: string[] };
export type ImportNote = { day: string; text: string; tags: string[] };

export type WriterOptions = {
  userId: string;
  dryRun: boolean;
  syncedAt: string;
  /** items an earlier run of this import stored: read, not written again */
  skip?: number;
  /** a conflicting note (one with other text or tags) is replaced instead of kept */
  replaceNotes?: boolean;
  /** after each chunk is stored: records the checkpoint (the items stored so far) */
  afterChunk?: (items: number) => Promise<void>;
};

/** a sync writes a page of 100 documents; a sleep period or a day of activity with its series is ~10 kB */
const DOCUMENT_CHUNK = 100;
/** a time series is written 1,000 samples at a time, as a sync writes a page: few objects stay alive across a write */
const SAMPLE_CHUNK = 1_000;
const NOTE_CHUNK = 200;
const MAX_LISTED_CONFLICTS = 100;

/** A value with object keys sorted and null members left out (a CSV cannot tell null from absent). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== null && v !== undefined) out[k] = canonical(v);
    }
    return out;
  }
  return value;
}

/** Whether a stored document's raw JSON holds the same values as a document. */
export function sameDocument(storedRaw: string, doc: unknown): boolean {
  try {
    return JSON.stringify(canonical(JSON.parse(storedRaw))) === JSON.stringify(canonical(doc));
  } catch {
    return false;
  }
}

const emptyCounts = (): CollectionCounts => ({ rows: 0, new: 0, changed: 0, unchanged: 0, skipped: 0, rejected: 0 });

export class ImportWriter {
  readonly counts: Record<string, CollectionCounts> = {};
  readonly notes: NoteCounts = { new: 0, unchanged: 0, replaced: 0, conflicting: 0, conflicts: [] };
  /** items read so far (stored or not) */
  items = 0;
  private readonly docs = new Map<RingCollection, Array<{ doc: Record<string, unknown>; trends: boolean }>>();
  /** a time series' rows, validated and mapped as they come (only the small samples wait for the write) */
  private readonly samples = new Map<SeriesCollection, { map: (row: unknown, out: MappedSamples) => void; out: MappedSamples; rows: number }>();
  private pendingNotes: ImportNote[] = [];
  /** `<collection>:<day>` of the service's documents in this import: Trends rows do not fill them */
  private readonly covered = new Set<string>();

  constructor(private readonly opts: WriterOptions) {}

  private countsOf(collection: string): CollectionCounts {
    return (this.counts[collection] ??= emptyCounts());
  }

  /** Whether the current item was stored by an earlier run of this import. */
  private get skipping(): boolean {
    return !this.opts.dryRun && this.items < (this.opts.skip ?? 0);
  }

  /** A document of the current item; `trends`: made from a Trends row (fills, never replaces). */
  document(collection: RingCollection, doc: Record<string, unknown>, trends = false): void {
    const dayField = getResource(collection).dayField;
    const day = dayField ? doc[dayField] : null;
    if (!trends && typeof day === "string") this.covered.add(`${collection}:${day}`);
    if (this.skipping) return;
    let list = this.docs.get(collection);
    if (!list) this.docs.set(collection, (list = []));
    list.push({ doc, trends });
  }

  /** A time-series row of the current item. */
  sample(collection: SeriesCollection, row: unknown): void {
    if (this.skipping) return;
    let pending = this.samples.get(collection);
    if (!pending) this.samples.set(collection, (pending = { map: sampleMapper(collection), out: emptyMappedSamples(), rows: 0 }));
    pending.map(row, pending.out);
    pending.rows++;
  }

  note(note: ImportNote): void {
    if (!this.skipping) this.pendingNotes.push(note);
  }

  /**
   * Ends the current item. True when a chunk is full: the caller then awaits flush() (most rows
   * end here without a promise).
   */
  endItem(): boolean {
    this.items++;
    let full = this.pendingNotes.length >= NOTE_CHUNK;
    for (const list of this.docs.values()) if (list.length >= DOCUMENT_CHUNK) full = true;
    for (const pending of this.samples.values()) if (pending.rows >= SAMPLE_CHUNK) full = true;
    return full;
  }

  /** Stores (or compares) everything pending, then records the checkpoint. */
  async flush(): Promise<void> {
    for (const [collection, list] of this.docs) if (list.length) await this.flushDocuments(collection, list.splice(0));
    for (const [collection, pending] of this.samples) {
      if (pending.rows === 0) continue;
      const { out, rows } = pending;
      pending.out = emptyMappedSamples();
      pending.rows = 0;
      await this.flushSamples(collection, out, rows);
    }
    if (this.pendingNotes.length) await this.flushNotes(this.pendingNotes.splice(0));
    if (!this.opts.dryRun && this.opts.afterChunk) await this.opts.afterChunk(this.items);
  }

  private async flushDocuments(collection: RingCollection, list: Array<{ doc: Record<string, unknown>; trends: boolean }>): Promise<void> {
    const { userId, syncedAt } = this.opts;
    const c = this.countsOf(collection);
    c.rows += list.length;
    const rows = new Map<string, { row: DocumentRow; doc: Record<string, unknown>; trends: boolean }>();
    const rejected: RejectedInput[] = [];
    for (const { doc, trends } of list) {
      const mapped = mapDocument(collection, doc, userId, syncedAt);
      if (!mapped.ok) {
        rejected.push({ documentId: mapped.documentId, day: mapped.day, raw: mapped.raw, error: `import: ${mapped.error}` });
        continue;
      }
      if (mapped.unknown) noteUnknownValues(collection, mapped.unknown);
      const key = documentKey(collection, mapped.row) ?? `row:${rows.size}`;
      // a key twice in a chunk: the later row wins, as in a page of a sync
      if (rows.has(key)) c.unchanged++;
      rows.set(key, { row: mapped.row, doc, trends });
    }
    // Trends rows only fill days no document of the service covers (in this import or stored)
    const trendsDays = [...rows.values()].filter((r) => r.trends && r.row.day).map((r) => r.row.day!);
    const coveredStored = trendsDays.length ? await daysWithServiceDocuments(collection, userId, trendsDays) : new Set<string>();
    for (const [key, r] of rows) {
      if (r.trends && (coveredStored.has(r.row.day!) || this.covered.has(`${collection}:${r.row.day}`))) {
        rows.delete(key);
        c.skipped++;
      }
    }
    const stored = await storedByKey(collection, userId, [...rows.keys()].filter((k) => !k.startsWith("row:")));
    const write: DocumentRow[] = [];
    for (const [key, r] of rows) {
      const before = stored.get(key);
      if (!before) c.new++;
      else if (before.day === r.row.day && sameDocument(before.raw, r.doc)) {
        c.unchanged++;
        continue;
      } else c.changed++;
      write.push(r.row);
    }
    c.rejected += rejected.length;
    if (!this.opts.dryRun && (write.length || rejected.length)) await ingestDocuments({ collection, userId, rows: write, rejected });
  }

  private async flushSamples(collection: SeriesCollection, mapped: MappedSamples, rows: number): Promise<void> {
    const { userId } = this.opts;
    const c = this.countsOf(collection);
    c.rows += rows;
    if (mapped.unknown.length) noteUnknownValues(collection, mapped.unknown);
    c.rejected += mapped.rejectedCount;
    const days = groupByUtcDay(mapped.samples);
    if (this.opts.dryRun) {
      const diff = await diffSampleDays({ collection, userId, days });
      c.new += diff.new;
      c.unchanged += mapped.samples.length - diff.new;
      return;
    }
    // only the days whose samples change are written (an import again leaves the rest as they are)
    const before = await storedDayCounts(collection, userId, [...days.keys()]);
    const rejected = mapped.rejected.map((r) => ({ documentId: null, day: r.day, raw: r.raw, error: `import: ${r.error}` }));
    const after = await mergeSampleDays({ collection, userId, days, rejected, skipUnchanged: true });
    c.new += after - before;
    c.unchanged += mapped.samples.length - (after - before);
  }

  /** Notes: a day with no note gets the file's; one with the same is left; one with another is kept (a conflict) unless replacing was chosen. */
  private async flushNotes(list: ImportNote[]): Promise<void> {
    const { userId } = this.opts;
    for (const note of list) {
      const existing = await getDayNote({ userId, day: note.day });
      const text = note.text.trim();
      const tags = [...new Set(note.tags)].sort();
      const had = existing.tags.map((t) => t.name).sort();
      if (!existing.text && had.length === 0) {
        if (!text && tags.length === 0) continue;
        this.notes.new++;
      } else if (existing.text === text && had.join("\n") === tags.join("\n")) {
        this.notes.unchanged++;
        continue;
      } else if (this.opts.replaceNotes) this.notes.replaced++;
      else {
        this.notes.conflicting++;
        if (this.notes.conflicts.length < MAX_LISTED_CONFLICTS) this.notes.conflicts.push(note.day);
        continue;
      }
      if (!this.opts.dryRun) await setDayNote({ userId, day: note.day, text, tags });
    }
  }
}
