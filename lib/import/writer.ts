import { CYCLE_RESOURCE } from "@/lib/cycle";
import "server-only";
import { getResource, sampleSpecOf, type RingCollection, type SeriesCollection } from "@/lib/resources";
import type { SampleSpec } from "@/lib/resources/define";
import { ingestDocuments, type DocumentRow, type RejectedInput } from "@/lib/db/ingest/documents";
import { mergeSampleDays } from "@/lib/db/ingest/series";
import { daysWithServiceDocuments, storedByKey } from "@/lib/db/queries/ring-documents";
import { diffSampleDays, storedDayCounts } from "@/lib/db/queries/time-series";
import { getDayNote, setDayNote } from "@/lib/db/queries/notes";
import { groupByUtcDay, type Sample, type SampleValue } from "@/lib/db/sample-codec";
import { documentKey, emptyMappedSamples, mapDocument, sampleMapper, type MappedSamples, type UnknownValue } from "@/lib/sync/map";
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
  /** the ring's cycle phases are kept (the person tracks their cycle); otherwise they are read past, never stored or counted */
  keepCycle?: boolean;
};

/** a sync writes a page of 100 documents; a sleep period or a day of activity with its series is ~10 kB */
const DOCUMENT_CHUNK = 100;
/**
 * …or fewer, once their raw JSON reaches this: the write holds a chunk's raw JSON as text, and
 * a hundred days of activity with their minute-by-minute MET (~0.6 MB) alive across it was the
 * import's largest survivor of V8's young-generation collections (what survives them grows
 * the young generation: docs/performance.md#import)
 */
const DOCUMENT_CHUNK_BYTES = 256 * 1024;
/** a time series is written 1,000 samples at a time, as a sync writes a page: few objects stay alive across a write */
const SAMPLE_CHUNK = 1_000;
const NOTE_CHUNK = 200;
/** an int field's "none" in a chunk's columns (a sample's ints are within ±32,767) */
const INT_NONE = -0x80000000;
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

/** A document waiting for its chunk's write: mapped, its raw JSON kept as bytes (off V8's heap); or set aside. */
type PendingDocument = { row: DocumentRow; raw: Buffer; trends: boolean; unknown?: UnknownValue[] } | { rejected: RejectedInput };

/**
 * A document is validated and mapped when it is read (mapDocument, as a sync maps a page's), so
 * that neither it nor its parsed JSON waits for the write: only its row does, with the raw JSON
 * as bytes. Objects that stay alive across V8's young-generation collections are what makes it
 * grow its semi-spaces (tens of MB of the import's memory peak).
 */
function pendingDocument(collection: RingCollection, doc: Record<string, unknown>, trends: boolean, opts: WriterOptions): PendingDocument {
  const mapped = mapDocument(collection, doc, opts.userId, opts.syncedAt);
  if (!mapped.ok) return { rejected: { documentId: mapped.documentId, day: mapped.day, raw: mapped.raw, error: `import: ${mapped.error}` } };
  const raw = Buffer.from(mapped.row.raw, "utf8");
  mapped.row.raw = "";
  return mapped.unknown ? { row: mapped.row, raw, trends, unknown: mapped.unknown } : { row: mapped.row, raw, trends };
}

/**
 * A time series' rows waiting for their chunk's write: each validated and mapped as it comes
 * (sampleMapper, the sync's own), its values kept in typed columns rather than an object per
 * sample (for the same reason as documents' rows: nothing for V8's young generation to copy),
 * and made into samples again for the write.
 */
class PendingSamples {
  private readonly map: (row: unknown, out: MappedSamples) => void;
  private readonly fields: SampleSpec["fields"];
  /** rejected rows and unknown values of the chunk (its samples are moved out as they come) */
  private out = emptyMappedSamples();
  private t = new Float64Array(SAMPLE_CHUNK);
  /** per field: an int, a bool (0, 1; 2 = none) or a text's index in `texts` (-1 = none) */
  private columns: Int32Array[];
  private texts: string[] = [];
  private textIndex = new Map<string, number>();
  private count = 0;
  /** rows read into this chunk (samples and rejected rows) */
  rows = 0;

  constructor(collection: SeriesCollection) {
    this.map = sampleMapper(collection);
    this.fields = sampleSpecOf(collection).fields;
    this.columns = this.fields.map(() => new Int32Array(SAMPLE_CHUNK));
  }

  add(row: unknown): void {
    this.rows++;
    this.map(row, this.out);
    const sample = this.out.samples.pop();
    if (!sample) return;
    if (this.count === this.t.length) this.grow();
    const i = this.count++;
    this.t[i] = sample.t;
    for (let f = 0; f < this.fields.length; f++) {
      const v = sample.v[f] ?? null;
      const type = this.fields[f]!.type;
      this.columns[f]![i] =
        type === "int"
          ? v === null
            ? INT_NONE
            : (v as number)
          : type === "bool"
            ? v === null
              ? 2
              : v
                ? 1
                : 0
            : v === null
              ? -1
              : this.textCode(v as string);
    }
  }

  /** The chunk's samples (and rejected rows), in the order they came; the chunk starts empty again. */
  take(): MappedSamples {
    const samples: Sample[] = new Array<Sample>(this.count);
    for (let i = 0; i < this.count; i++) {
      const v: SampleValue[] = new Array<SampleValue>(this.fields.length);
      for (let f = 0; f < this.fields.length; f++) {
        const code = this.columns[f]![i]!;
        const type = this.fields[f]!.type;
        v[f] = type === "int" ? (code === INT_NONE ? null : code) : type === "bool" ? (code === 2 ? null : code === 1) : code === -1 ? null : this.texts[code]!;
      }
      samples[i] = { t: this.t[i]!, v };
    }
    const out = { ...this.out, samples };
    this.out = emptyMappedSamples();
    this.count = 0;
    this.rows = 0;
    return out;
  }

  private textCode(v: string): number {
    let code = this.textIndex.get(v);
    if (code === undefined) {
      code = this.texts.length;
      this.texts.push(v);
      this.textIndex.set(v, code);
    }
    return code;
  }

  /** More room (a chunk only ends at the end of an item, which may hold more than one row). */
  private grow(): void {
    const t = new Float64Array(this.t.length * 2);
    t.set(this.t);
    this.t = t;
    this.columns = this.columns.map((c) => {
      const wider = new Int32Array(c.length * 2);
      wider.set(c);
      return wider;
    });
  }
}

const emptyCounts = (): CollectionCounts => ({ rows: 0, new: 0, changed: 0, unchanged: 0, skipped: 0, rejected: 0 });

export class ImportWriter {
  readonly counts: Record<string, CollectionCounts> = {};
  readonly notes: NoteCounts = { new: 0, unchanged: 0, replaced: 0, conflicting: 0, conflicts: [] };
  /** items read so far (stored or not) */
  items = 0;
  /** documents validated and mapped as they come: what waits for the write is their row, its raw JSON off the heap */
  private readonly docs = new Map<RingCollection, PendingDocument[]>();
  /** the raw JSON of the pending documents, in bytes */
  private pendingDocumentBytes = 0;
  /** a time series' rows, validated and mapped as they come (only their values wait for the write, in columns) */
  private readonly samples = new Map<SeriesCollection, PendingSamples>();
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
    if (collection === CYCLE_RESOURCE && !this.opts.keepCycle) return;
    const dayField = getResource(collection).dayField;
    const day = dayField ? doc[dayField] : null;
    if (!trends && typeof day === "string") this.covered.add(`${collection}:${day}`);
    if (this.skipping) return;
    let list = this.docs.get(collection);
    if (!list) this.docs.set(collection, (list = []));
    const pending = pendingDocument(collection, doc, trends, this.opts);
    if ("raw" in pending) this.pendingDocumentBytes += pending.raw.length;
    list.push(pending);
  }

  /** A time-series row of the current item. */
  sample(collection: SeriesCollection, row: unknown): void {
    if (this.skipping) return;
    let pending = this.samples.get(collection);
    if (!pending) this.samples.set(collection, (pending = new PendingSamples(collection)));
    pending.add(row);
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
    let full = this.pendingNotes.length >= NOTE_CHUNK || this.pendingDocumentBytes >= DOCUMENT_CHUNK_BYTES;
    for (const list of this.docs.values()) if (list.length >= DOCUMENT_CHUNK) full = true;
    for (const pending of this.samples.values()) if (pending.rows >= SAMPLE_CHUNK) full = true;
    return full;
  }

  /** Stores (or compares) everything pending, then records the checkpoint. */
  async flush(): Promise<void> {
    this.pendingDocumentBytes = 0;
    for (const [collection, list] of this.docs) if (list.length) await this.flushDocuments(collection, list.splice(0));
    for (const [collection, pending] of this.samples) {
      if (pending.rows === 0) continue;
      const rows = pending.rows;
      await this.flushSamples(collection, pending.take(), rows);
    }
    if (this.pendingNotes.length) await this.flushNotes(this.pendingNotes.splice(0));
    if (!this.opts.dryRun && this.opts.afterChunk) await this.opts.afterChunk(this.items);
  }

  private async flushDocuments(collection: RingCollection, list: PendingDocument[]): Promise<void> {
    const { userId } = this.opts;
    const c = this.countsOf(collection);
    c.rows += list.length;
    const rows = new Map<string, { row: DocumentRow; trends: boolean }>();
    const rejected: RejectedInput[] = [];
    for (const pending of list) {
      if ("rejected" in pending) {
        rejected.push(pending.rejected);
        continue;
      }
      const { row, trends } = pending;
      row.raw = pending.raw.toString("utf8");
      if (pending.unknown) noteUnknownValues(collection, pending.unknown);
      const key = documentKey(collection, row) ?? `row:${rows.size}`;
      // a key twice in a chunk: the later row wins, as in a page of a sync
      if (rows.has(key)) c.unchanged++;
      rows.set(key, { row, trends });
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
    const stored = await storedByKey(
      collection,
      userId,
      [...rows.keys()].filter((k) => !k.startsWith("row:")),
    );
    const write: DocumentRow[] = [];
    for (const [key, r] of rows) {
      const before = stored.get(key);
      if (!before) c.new++;
      // the document as read back from its raw JSON: a validated document is plain JSON data (zod
      // refuses infinite numbers; every other value is text, a boolean, null or came from
      // JSON.parse), so it reads back as equal values
      else if (before.day === r.row.day && sameDocument(before.raw, JSON.parse(r.row.raw))) {
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
