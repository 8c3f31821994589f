import "server-only";
import { AppError } from "@/lib/http/errors";
import { RING_TAG_COLOR, RING_TAG_MAX_DAYS, ringTagOf, ringTagsOf, entryDays, type RingTagEntry } from "@/lib/metrics/ring-tags";
import { addDays, MAX_DAY, MIN_DAY } from "@/lib/days";
import { getDocumentRows } from "@/lib/db/queries/ring-data";
import {
  deleteTagById,
  findTag,
  getDayNote,
  insertTag,
  listDayNotes,
  listTagDays,
  tagNameTaken,
  updateTagFields,
  type DayNoteEntry,
  type TagSummary,
} from "@/lib/db/queries/notes";
import { resolveDayRange, type PartialDayRange } from "@/lib/schemas/requests";
import type { MetricDef, MetricId } from "@/lib/metrics/catalog";
import type { GroupComparison } from "@/lib/metrics/stats";
import { compareTagDays, getMetricsOverview } from "@/lib/services/metrics";

// The person's tags: their own (names unique per person, only their own visible: another
// person's tag is "not found", never "forbidden") and, read-only, the tags they enter in the
// ring's app (enhanced_tag), one per tag type or custom name, "from the ring".

/** A tag of the ring's app as a Ringside tag (read-only; its id is "ring:<code>" or "ring:custom:<name>"). */
export type RingTagSummary = { id: string; name: string; color: string; days: number; source: "ring" };
/** A tag of the ring's app on a day. */
export type RingTagRef = { id: string; name: string; color: string };
/** A day's note and tags, with the ring app's tags of that day beside the person's own. */
export type DayNoteWithRing = DayNoteEntry & { ringTags: RingTagRef[] };

const TAG_ENTRY_COLUMNS = ["tag_type_code", "custom_name", "end_day", "comment"] as const;

async function ringEntries(userId: string, from = MIN_DAY, to = MAX_DAY): Promise<RingTagEntry[]> {
  return await getDocumentRows<RingTagEntry>({ userId, collection: "enhanced_tag", from, to, columns: TAG_ENTRY_COLUMNS });
}

/** The ring app's tags of the person, most used first. */
export async function listRingTags(userId: string): Promise<RingTagSummary[]> {
  return ringTagsOf(await ringEntries(userId)).map((t) => ({ id: t.id, name: t.name, color: t.color, days: t.days.length, source: "ring" }));
}

/** The days a ring tag marks, and the tag. */
async function ringTagDays(userId: string, id: string): Promise<{ tag: RingTagSummary; days: string[] }> {
  const found = ringTagsOf(await ringEntries(userId)).find((t) => t.id === id);
  if (!found) throw new AppError("not_found", "No such tag.");
  return { tag: { id: found.id, name: found.name, color: found.color, days: found.days.length, source: "ring" }, days: found.days };
}

/** The ring app's tags per day in [from, to] (an entry with a duration marks each of its days). */
async function ringTagsByDay(userId: string, from: string, to: string): Promise<Map<string, RingTagRef[]>> {
  const out = new Map<string, RingTagRef[]>();
  for (const e of await ringEntries(userId, addDays(from, -(RING_TAG_MAX_DAYS - 1)), to)) {
    const tag = ringTagOf(e);
    if (!tag) continue;
    for (const d of entryDays(e)) {
      if (d < from || d > to) continue;
      const list = out.get(d) ?? [];
      if (!list.some((t) => t.id === tag.key)) list.push({ id: tag.key, name: tag.name, color: RING_TAG_COLOR });
      out.set(d, list);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

/** Notes and tags of every day in [from, to], the ring app's tags included, oldest first. */
export async function listNotes(opts: { userId: string; from: string; to: string }): Promise<DayNoteWithRing[]> {
  const own = await listDayNotes(opts);
  const ring = await ringTagsByDay(opts.userId, opts.from, opts.to);
  const byDay = new Map<string, DayNoteWithRing>(own.map((n) => [n.day, { ...n, ringTags: ring.get(n.day) ?? [] }]));
  for (const [day, tags] of ring) if (!byDay.has(day)) byDay.set(day, { day, text: "", tags: [], ringTags: tags });
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** One day's note and tags, the ring app's included. */
export async function getNote(opts: { userId: string; day: string }): Promise<DayNoteWithRing> {
  const note = await getDayNote(opts);
  return { ...note, ringTags: (await ringTagsByDay(opts.userId, opts.day, opts.day)).get(opts.day) ?? [] };
}

async function ownTag(userId: string, id: number) {
  const tag = await findTag({ userId, id });
  if (!tag) throw new AppError("not_found", "No such tag.");
  return tag;
}

/** A tag id from a URL: the person's own (a number) or one of the ring's ("ring:…"). */
export type TagRef = { kind: "own"; id: number } | { kind: "ring"; id: string };

const refOf = (id: number | TagRef): TagRef => (typeof id === "number" ? { kind: "own", id } : id);

/** The person's own tag behind a ref; a ring tag exists (or 404) but is read-only (403). */
async function ownId(userId: string, id: number | TagRef): Promise<number> {
  const ref = refOf(id);
  if (ref.kind === "own") return ref.id;
  await ringTagDays(userId, ref.id);
  throw new AppError("forbidden", "Tags from the ring are read-only: change them in the ring's app.");
}

export async function createTag(opts: { userId: string; name: string; color?: string | null }): Promise<TagSummary> {
  if (await tagNameTaken(opts)) throw new AppError("conflict", `A tag named "${opts.name}" exists already.`);
  return insertTag(opts);
}

export async function updateTag(opts: { userId: string; id: number | TagRef; name?: string; color?: string | null }): Promise<TagSummary> {
  const id = await ownId(opts.userId, opts.id);
  await ownTag(opts.userId, id);
  if (opts.name !== undefined && (await tagNameTaken({ userId: opts.userId, name: opts.name, exceptId: id }))) {
    throw new AppError("conflict", `A tag named "${opts.name}" exists already.`);
  }
  const updated = await updateTagFields({ userId: opts.userId, id, name: opts.name, color: opts.color });
  if (!updated) throw new AppError("not_found", "No such tag.");
  return updated;
}

export async function deleteTag(opts: { userId: string; id: number | TagRef }): Promise<void> {
  const id = await ownId(opts.userId, opts.id);
  await ownTag(opts.userId, id);
  await deleteTagById({ userId: opts.userId, id });
}

/** The tag (if it is the person's, or one of their ring's) and the days it is on. */
export async function getTagDays(opts: { userId: string; id: number | TagRef }): Promise<{ tag: TagSummary | RingTagSummary; days: string[] }> {
  const ref = refOf(opts.id);
  if (ref.kind === "ring") return await ringTagDays(opts.userId, ref.id);
  const tag = await ownTag(opts.userId, ref.id);
  const days = await listTagDays({ userId: opts.userId, tagId: ref.id });
  return { tag: { ...tag, days: days.length }, days };
}

/** A tag's days against the other days for one metric (GET /api/tags/:id/comparison). */
export type TagComparisonResponse = {
  tag: TagSummary | RingTagSummary;
  metric: MetricId;
  lag: 0 | 1;
  from: string | null;
  to: string | null;
  comparison: GroupComparison | null;
};

/**
 * A metric on days with the tag against days without it (lag 1: the day after each day). A
 * missing end of the range is the person's first/last day with data, within the range cap.
 */
export async function getTagComparison(
  opts: PartialDayRange & { userId: string; id: number | TagRef; metric: MetricDef; lag: 0 | 1 },
): Promise<TagComparisonResponse> {
  const { userId, metric, lag } = opts;
  const { tag, days } = await getTagDays({ userId, id: opts.id });
  const overview = await getMetricsOverview(userId);
  const hasDefaults = overview.firstDay !== null && overview.lastDay !== null;
  if (!(opts.from && opts.to) && !hasDefaults) {
    return { tag, metric: metric.id, lag, from: opts.from ?? null, to: opts.to ?? null, comparison: null };
  }
  const { from, to } = resolveDayRange(opts, { from: overview.firstDay ?? opts.from!, to: overview.lastDay ?? opts.to! });
  const comparison = await compareTagDays({ userId, metric, lag, from, to, taggedDays: days });
  return { tag, metric: metric.id, lag, from, to, comparison };
}
