// One emulated user's documents. Nothing is stored up front: the base history is generated
// lazily (and memoized) from (seed, user id); only overrides are kept — per-day revisions,
// days added by sync outside the base range, deleted document ids, and field edits.
//
// Besides the nine collections of generator/ it holds the derived resources of resources/
// (workouts, sessions, tags, VO2 max, bedtime guidance, rest mode, the ring), generated with the
// history. The two time series (heart rate, battery) are never stored whole: they are generated
// per local day from the current documents when asked for, and a few recent days are cached.
import { dayToIndex, indexToDay } from "@/lib/days";
import { COLLECTIONS, type Collection, type GenerateOptions, type RingDocument } from "./generator";
import { wallClock } from "./date-params";
import {
  DAY_RESOURCES,
  RESOURCE_COLLECTIONS,
  ResourceSource,
  dayKeyOf,
  generateDayResources,
  ringConfigurations,
  type ResourceCollection,
  type TimeSeries,
} from "./resources";
import { batteryDay, heartRateDay, type Series, type SeriesView } from "./timeseries";

export type DocumentCollection = Collection | ResourceCollection;
/** Every document collection a user has: the nine of the interface spec and the derived resources. */
export const DOCUMENT_COLLECTIONS: readonly DocumentCollection[] = [...COLLECTIONS, ...RESOURCE_COLLECTIONS];
export type AnyDocument = Record<string, unknown> & { id?: string };

export type DocumentChange = {
  collection: DocumentCollection;
  event_type: "create" | "update" | "delete";
  document: AnyDocument;
};

export type SyncResult = { day: string; revision: number; changes: DocumentChange[] };

type CollectionCache = { docs: AnyDocument[]; byId: Map<string, AnyDocument> };

/** Generated days of time series kept per user (a day is a few hundred samples). */
const CACHED_SERIES_DAYS = 128;
const EMPTY_SERIES: Series = Object.freeze({ t: new Float64Array(0), v: new Uint8Array(0), k: new Uint8Array(0), n: 0 });

/** Sort key: day, then bedtime_start/timestamp, then id — stable across revisions. */
export function orderKey(doc: RingDocument): string {
  const time = typeof doc.bedtime_start === "string" ? doc.bedtime_start : typeof doc.timestamp === "string" ? doc.timestamp : "";
  return `${doc.day}|${time ? wallClock(time) : ""}|${doc.id ?? ""}`;
}

const wall = (v: unknown) => (typeof v === "string" ? wallClock(v) : "");

/** Each served document's sort key, computed once (documents are never mutated once listed). */
const orderKeys = new WeakMap<object, string>();

/** Sort key of any collection's document: its day, then its start time, then its id. */
export function orderKeyOf(collection: string, doc: Record<string, unknown>): string {
  let key = orderKeys.get(doc);
  if (key === undefined) orderKeys.set(doc, (key = computeOrderKey(collection, doc)));
  return key;
}

/**
 * The index of the first document whose sort key is above `after`, by binary search over a list
 * sorted by orderKeyOf (a list page's continuation starts there instead of scanning from the top).
 */
export function firstAfter(collection: string, docs: readonly Record<string, unknown>[], after: string): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (orderKeyOf(collection, docs[mid]!) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function computeOrderKey(collection: string, doc: Record<string, unknown>): string {
  switch (collection) {
    case "workout":
    case "session":
      return `${String(doc.day)}|${wall(doc.start_datetime)}|${String(doc.id ?? "")}`;
    case "enhanced_tag":
    case "rest_mode_period":
      return `${String(doc.start_day)}|${wall(doc.start_time)}|${String(doc.id ?? "")}`;
    case "ring_configuration":
      return `${typeof doc.set_up_at === "string" ? doc.set_up_at : ""}|${String(doc.id ?? "")}`;
    default:
      return orderKey(doc as RingDocument);
  }
}

function sameContent(a: AnyDocument, b: AnyDocument): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class UserDocuments {
  /** Revision per day (absent = 0). */
  readonly revisions = new Map<string, number>();
  /** Days created by sync outside [firstDay, today]. */
  readonly extraDays = new Set<string>();
  /** Deleted documents, as "collection/id". */
  readonly deleted = new Set<string>();
  /** Field edits (control API), as "collection/id" → fields set on top of the generated document. */
  readonly edits = new Map<string, Record<string, unknown>>();
  private cache: Map<DocumentCollection, CollectionCache> | null = null;
  private cacheThrough = "";
  private cacheFirst = "";
  private readonly series = new Map<string, Series>();
  private meta: ResourceSource | null = null;

  constructor(
    private readonly opts: GenerateOptions,
    public firstDay: string,
    private readonly today: () => string,
    /** Called on every access (the state keeps an LRU of generated histories). */
    private readonly onAccess: (docs: UserDocuments) => void = () => {},
  ) {}

  /** Forgets the generated history (it is rebuilt, with the same overrides, on next access). */
  dropCache(): void {
    this.cache = null;
    this.series.clear();
  }

  get cached(): boolean {
    return this.cache !== null;
  }

  /** Every current document of a collection, sorted by day (then start time). Do not mutate. */
  list(collection: Collection): readonly RingDocument[];
  list(collection: DocumentCollection): readonly AnyDocument[];
  list(collection: DocumentCollection): readonly AnyDocument[] {
    return this.ensure().get(collection)!.docs;
  }

  findById(collection: Collection, id: string): RingDocument | undefined;
  findById(collection: DocumentCollection, id: string): AnyDocument | undefined;
  findById(collection: DocumentCollection, id: string): AnyDocument | undefined {
    return this.ensure().get(collection)!.byId.get(id);
  }

  /** Whether the day currently has data (base range or synced later). */
  hasDay(day: string): boolean {
    return (day >= this.firstDay && day <= this.today()) || this.extraDays.has(day);
  }

  setFirstDay(day: string): void {
    if (day === this.firstDay) return;
    this.firstDay = day;
    this.cache = null;
    this.series.clear();
  }

  /** The UTC offset of the user's local times (minutes). */
  get offsetMinutes(): number {
    return this.opts.tzOffsetMinutes ?? 0;
  }

  /** Local day indices that can hold time-series samples: the day before the first day through the last. */
  seriesDays(): { first: number; last: number } {
    return { first: dayToIndex(this.firstDay) - 1, last: this.lastIndex() };
  }

  /** One local day of a time series (generated from the current documents, cached). */
  seriesDay(kind: TimeSeries, idx: number): Series {
    // A day with no data of its own or of the next (whose evening sleep starts on it) has none.
    if (!this.hasDay(indexToDay(idx)) && !this.hasDay(indexToDay(idx + 1))) return EMPTY_SERIES;
    const key = `${kind}:${idx}`;
    const hit = this.series.get(key);
    if (hit) {
      this.series.delete(key);
      this.series.set(key, hit);
      return hit;
    }
    const view = this.view();
    const s = kind === "heartrate" ? heartRateDay(view, idx) : batteryDay(view, idx, dayToIndex(this.firstDay));
    this.series.set(key, s);
    while (this.series.size > CACHED_SERIES_DAYS) this.series.delete(this.series.keys().next().value as string);
    return s;
  }

  /**
   * New data for a day: a day without data gets its documents (create events); a day with
   * data gets the next revision — same ids, edited values (update events).
   */
  sync(day: string): SyncResult {
    const cache = this.ensure();
    const existed = this.hasDay(day);
    const revision = existed ? (this.revisions.get(day) ?? 0) + 1 : (this.revisions.get(day) ?? 0);
    const lastBefore = this.lastIndex();
    if (revision > 0) this.revisions.set(day, revision);
    if (!existed) this.extraDays.add(day);
    const src = new ResourceSource(this.opts);
    const idx = dayToIndex(day);
    const todayIdx = dayToIndex(this.today());
    const generated = src.at(idx, revision);
    const resources = generateDayResources(src, idx, revision, todayIdx);
    const changes: DocumentChange[] = [];
    for (const collection of DOCUMENT_COLLECTIONS) {
      if (collection === "ring_configuration") continue;
      const fresh: AnyDocument[] = (COLLECTIONS as readonly string[]).includes(collection)
        ? generated[collection as Collection]
        : resources[collection as (typeof DAY_RESOURCES)[number]];
      const entry = cache.get(collection)!;
      const before = existed ? this.docsOfDay(entry, collection, day) : [];
      const after = fresh.filter((d) => !this.isDeleted(collection, d)).map((d) => this.edited(collection, d));
      this.diff(collection, before, after, changes);
      this.replaceDay(entry, collection, day, after);
    }
    // A replacement ring set up on a day that sync just created.
    const lastAfter = this.lastIndex();
    if (lastAfter !== lastBefore) {
      const entry = cache.get("ring_configuration")!;
      const after = ringConfigurations(src, todayIdx, lastAfter)
        .filter((d) => !this.isDeleted("ring_configuration", d))
        .map((d) => this.edited("ring_configuration", d));
      this.diff("ring_configuration", entry.docs, after, changes);
      cache.set("ring_configuration", indexed("ring_configuration", after));
    }
    this.series.clear();
    return { day, revision, changes };
  }

  /** Deletes one document; returns it, or undefined when there is no such document. */
  delete(collection: DocumentCollection, id: string): AnyDocument | undefined {
    const entry = this.ensure().get(collection)!;
    const doc = entry.byId.get(id);
    if (!doc) return undefined;
    this.deleted.add(`${collection}/${id}`);
    entry.byId.delete(id);
    const i = entry.docs.indexOf(doc);
    if (i >= 0) entry.docs.splice(i, 1);
    this.series.clear();
    return doc;
  }

  /**
   * Sets fields of one document (kept through later revisions, like a deletion); returns the
   * edited document, or undefined when there is no such document. `id` and `day` cannot change.
   */
  edit(collection: DocumentCollection, id: string, fields: Record<string, unknown>): AnyDocument | undefined {
    const entry = this.ensure().get(collection)!;
    const doc = entry.byId.get(id);
    if (!doc) return undefined;
    const key = `${collection}/${id}`;
    this.edits.set(key, { ...this.edits.get(key), ...fields });
    const next = this.edited(collection, doc);
    entry.byId.set(id, next);
    const i = entry.docs.indexOf(doc);
    if (i >= 0) entry.docs[i] = next;
    this.series.clear();
    return next;
  }

  private lastIndex(): number {
    let last = dayToIndex(this.today());
    for (const d of this.extraDays) last = Math.max(last, dayToIndex(d));
    return last;
  }

  private diff(collection: DocumentCollection, before: readonly AnyDocument[], after: readonly AnyDocument[], changes: DocumentChange[]): void {
    const beforeById = new Map(before.map((d, i) => [d.id ?? `#${i}`, d] as const));
    const afterKeys = new Set<string>();
    after.forEach((doc, i) => {
      const key = doc.id ?? `#${i}`;
      afterKeys.add(key);
      const old = beforeById.get(key);
      if (!old) changes.push({ collection, event_type: "create", document: doc });
      else if (!sameContent(old, doc)) changes.push({ collection, event_type: "update", document: doc });
    });
    for (const [key, doc] of beforeById) if (!afterKeys.has(key)) changes.push({ collection, event_type: "delete", document: doc });
  }

  private edited(collection: DocumentCollection, doc: AnyDocument): AnyDocument {
    const fields = doc.id === undefined ? undefined : this.edits.get(`${collection}/${doc.id}`);
    if (!fields) return doc;
    const out: AnyDocument = { ...doc, ...fields, id: doc.id };
    if ("day" in doc) out.day = doc.day;
    return out;
  }

  private isDeleted(collection: DocumentCollection, doc: AnyDocument): boolean {
    return doc.id !== undefined && this.deleted.has(`${collection}/${doc.id}`);
  }

  private docsOfDay(entry: CollectionCache, collection: DocumentCollection, day: string): AnyDocument[] {
    return entry.docs.filter((d) => dayKeyOf(collection, d) === day);
  }

  /** The documents of one day, by binary search over the sorted list. */
  private docsOn(entry: CollectionCache, collection: DocumentCollection, day: string): AnyDocument[] {
    const docs = entry.docs;
    let lo = 0;
    let hi = docs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((dayKeyOf(collection, docs[mid]!) ?? "") < day) lo = mid + 1;
      else hi = mid;
    }
    const out: AnyDocument[] = [];
    for (let i = lo; i < docs.length && dayKeyOf(collection, docs[i]!) === day; i++) out.push(docs[i]!);
    return out;
  }

  private replaceDay(entry: CollectionCache, collection: DocumentCollection, day: string, docs: AnyDocument[]): void {
    const dayOf = (d: AnyDocument) => dayKeyOf(collection, d) ?? "";
    const kept = entry.docs.filter((d) => dayOf(d) !== day);
    for (const d of entry.docs) if (dayOf(d) === day && d.id !== undefined) entry.byId.delete(d.id);
    const fresh = [...docs].sort(byOrderKeyOf(collection));
    // Insert the day's documents at their sorted position.
    let at = kept.findIndex((d) => dayOf(d) > day);
    if (at < 0) at = kept.length;
    kept.splice(at, 0, ...fresh);
    entry.docs = kept;
    for (const d of fresh) if (d.id !== undefined) entry.byId.set(d.id, d);
  }

  private ensure(): Map<DocumentCollection, CollectionCache> {
    this.onAccess(this);
    const today = this.today();
    if (this.cache && this.cacheThrough === today && this.cacheFirst === this.firstDay) return this.cache;
    this.cache = this.build(today);
    this.cacheThrough = today;
    this.cacheFirst = this.firstDay;
    this.series.clear();
    return this.cache;
  }

  private view(): SeriesView {
    const cache = this.ensure();
    this.meta ??= new ResourceSource(this.opts);
    const meta = this.meta;
    return {
      prefix: meta.prefix,
      offsetMinutes: meta.offsetMinutes,
      age: meta.age,
      habits: meta.habits,
      isDay: (idx) => this.hasDay(indexToDay(idx)),
      docs: (collection, idx) => this.docsOn(cache.get(collection)!, collection, indexToDay(idx)),
      restModes: () => cache.get("rest_mode_period")!.docs,
      chargerNight: (idx) => this.opts.nights?.get(idx) === "charger",
    };
  }

  private build(today: string): Map<DocumentCollection, CollectionCache> {
    const src = new ResourceSource(this.opts);
    const todayIdx = dayToIndex(today);
    const perCollection = new Map<DocumentCollection, AnyDocument[]>(DOCUMENT_COLLECTIONS.map((c) => [c, [] as AnyDocument[]]));
    const days: Array<[idx: number, revision: number]> = [];
    const inBase = (day: string) => day >= this.firstDay && day <= today;
    if (this.firstDay <= today) {
      for (let idx = dayToIndex(this.firstDay); idx <= todayIdx; idx++) days.push([idx, this.revisions.get(indexToDay(idx)) ?? 0]);
    }
    for (const day of this.extraDays) if (!inBase(day)) days.push([dayToIndex(day), this.revisions.get(day) ?? 0]);
    for (const [idx, revision] of days) {
      const docs = src.at(idx, revision);
      for (const c of COLLECTIONS) perCollection.get(c)!.push(...docs[c]);
      const resources = generateDayResources(src, idx, revision, todayIdx);
      for (const c of DAY_RESOURCES) perCollection.get(c)!.push(...resources[c]);
    }
    perCollection.get("ring_configuration")!.push(...ringConfigurations(src, todayIdx, this.lastIndex()));
    const out = new Map<DocumentCollection, CollectionCache>();
    for (const c of DOCUMENT_COLLECTIONS) {
      const docs = perCollection
        .get(c)!
        .filter((d) => !this.isDeleted(c, d))
        .map((d) => this.edited(c, d));
      out.set(c, indexed(c, docs));
    }
    return out;
  }
}

function byOrderKeyOf(collection: string): (a: AnyDocument, b: AnyDocument) => number {
  return (a, b) => {
    const ka = orderKeyOf(collection, a);
    const kb = orderKeyOf(collection, b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
}

function indexed(collection: DocumentCollection, docs: AnyDocument[]): CollectionCache {
  const sorted = docs.sort(byOrderKeyOf(collection));
  const byId = new Map<string, AnyDocument>();
  for (const d of sorted) if (d.id !== undefined) byId.set(d.id, d);
  return { docs: sorted, byId };
}
