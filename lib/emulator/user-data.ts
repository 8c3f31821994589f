// One emulated user's documents. Nothing is stored up front: the base history is generated
// lazily (and memoized) from (seed, user id); only overrides are kept — per-day revisions,
// days added by sync outside the base range, deleted document ids, and field edits.
import { COLLECTIONS, generateDay, generateRange, type Collection, type GenerateOptions, type RingDocument } from "./fixtures";
import { wallClock } from "./dates";

export type DocumentChange = {
  collection: Collection;
  event_type: "create" | "update" | "delete";
  document: RingDocument;
};

export type SyncResult = { day: string; revision: number; changes: DocumentChange[] };

type CollectionCache = { docs: RingDocument[]; byId: Map<string, RingDocument> };

/** Sort key: day, then bedtime_start/timestamp, then id — stable across revisions. */
export function orderKey(doc: RingDocument): string {
  const time = typeof doc.bedtime_start === "string" ? doc.bedtime_start : typeof doc.timestamp === "string" ? doc.timestamp : "";
  return `${doc.day}|${time ? wallClock(time) : ""}|${doc.id ?? ""}`;
}

function byOrderKey(a: RingDocument, b: RingDocument): number {
  const ka = orderKey(a);
  const kb = orderKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function sameContent(a: RingDocument, b: RingDocument): boolean {
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
  private cache: Map<Collection, CollectionCache> | null = null;
  private cacheThrough = "";
  private cacheFirst = "";

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
  }

  get cached(): boolean {
    return this.cache !== null;
  }

  /** Every current document of a collection, sorted by day (then start time). Do not mutate. */
  list(collection: Collection): readonly RingDocument[] {
    return this.ensure().get(collection)!.docs;
  }

  findById(collection: Collection, id: string): RingDocument | undefined {
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
  }

  /**
   * New data for a day: a day without data gets its documents (create events); a day with
   * data gets the next revision — same ids, edited values (update events).
   */
  sync(day: string): SyncResult {
    const cache = this.ensure();
    const existed = this.hasDay(day);
    const revision = existed ? (this.revisions.get(day) ?? 0) + 1 : (this.revisions.get(day) ?? 0);
    if (revision > 0) this.revisions.set(day, revision);
    if (!existed) this.extraDays.add(day);
    const generated = generateDay(this.opts, day, revision);
    const changes: DocumentChange[] = [];
    for (const collection of COLLECTIONS) {
      const entry = cache.get(collection)!;
      const before = existed ? this.docsOfDay(entry, day) : [];
      const after = (generated[collection] ?? []).filter((d) => !this.isDeleted(collection, d)).map((d) => this.edited(collection, d));
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
      this.replaceDay(entry, day, after);
    }
    return { day, revision, changes };
  }

  /** Deletes one document; returns it, or undefined when there is no such document. */
  delete(collection: Collection, id: string): RingDocument | undefined {
    const entry = this.ensure().get(collection)!;
    const doc = entry.byId.get(id);
    if (!doc) return undefined;
    this.deleted.add(`${collection}/${id}`);
    entry.byId.delete(id);
    const i = entry.docs.indexOf(doc);
    if (i >= 0) entry.docs.splice(i, 1);
    return doc;
  }

  /**
   * Sets fields of one document (kept through later revisions, like a deletion); returns the
   * edited document, or undefined when there is no such document. `id` and `day` cannot change.
   */
  edit(collection: Collection, id: string, fields: Record<string, unknown>): RingDocument | undefined {
    const entry = this.ensure().get(collection)!;
    const doc = entry.byId.get(id);
    if (!doc) return undefined;
    const key = `${collection}/${id}`;
    this.edits.set(key, { ...this.edits.get(key), ...fields });
    const next = this.edited(collection, doc);
    entry.byId.set(id, next);
    const i = entry.docs.indexOf(doc);
    if (i >= 0) entry.docs[i] = next;
    return next;
  }

  private edited(collection: Collection, doc: RingDocument): RingDocument {
    const fields = doc.id === undefined ? undefined : this.edits.get(`${collection}/${doc.id}`);
    return fields ? ({ ...doc, ...fields, id: doc.id, day: doc.day } as RingDocument) : doc;
  }

  private isDeleted(collection: Collection, doc: RingDocument): boolean {
    return doc.id !== undefined && this.deleted.has(`${collection}/${doc.id}`);
  }

  private docsOfDay(entry: CollectionCache, day: string): RingDocument[] {
    return entry.docs.filter((d) => d.day === day);
  }

  private replaceDay(entry: CollectionCache, day: string, docs: RingDocument[]): void {
    const kept = entry.docs.filter((d) => d.day !== day);
    for (const d of entry.docs) if (d.day === day && d.id !== undefined) entry.byId.delete(d.id);
    const fresh = [...docs].sort(byOrderKey);
    // Insert the day's documents at their sorted position.
    let at = kept.findIndex((d) => d.day > day);
    if (at < 0) at = kept.length;
    kept.splice(at, 0, ...fresh);
    entry.docs = kept;
    for (const d of fresh) if (d.id !== undefined) entry.byId.set(d.id, d);
  }

  private ensure(): Map<Collection, CollectionCache> {
    this.onAccess(this);
    const today = this.today();
    if (this.cache && this.cacheThrough === today && this.cacheFirst === this.firstDay) return this.cache;
    this.cache = this.build(today);
    this.cacheThrough = today;
    this.cacheFirst = this.firstDay;
    return this.cache;
  }

  private build(today: string): Map<Collection, CollectionCache> {
    const perCollection = new Map<Collection, RingDocument[]>(COLLECTIONS.map((c) => [c, [] as RingDocument[]]));
    const overridden = new Set<string>();
    for (const [day, rev] of this.revisions) if (rev > 0) overridden.add(day);
    for (const day of this.extraDays) overridden.add(day);
    if (this.firstDay <= today) {
      const base = generateRange(this.opts, this.firstDay, today);
      for (const c of COLLECTIONS) {
        const target = perCollection.get(c)!;
        for (const d of base[c] ?? []) if (!overridden.has(d.day)) target.push(d);
      }
    }
    const inBase = (day: string) => day >= this.firstDay && day <= today;
    for (const day of overridden) {
      if (!inBase(day) && !this.extraDays.has(day)) continue;
      const docs = generateDay(this.opts, day, this.revisions.get(day) ?? 0);
      for (const c of COLLECTIONS) perCollection.get(c)!.push(...(docs[c] ?? []));
    }
    const out = new Map<Collection, CollectionCache>();
    for (const c of COLLECTIONS) {
      const docs = perCollection
        .get(c)!
        .filter((d) => !this.isDeleted(c, d))
        .map((d) => this.edited(c, d))
        .sort(byOrderKey);
      const byId = new Map<string, RingDocument>();
      for (const d of docs) if (d.id !== undefined) byId.set(d.id, d);
      out.set(c, { docs, byId });
    }
    return out;
  }
}
