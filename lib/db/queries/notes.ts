import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type Db } from "@/lib/db/prisma";
import { bumpDataVersion } from "@/lib/db/queries/data-version";

// The person's own notes and tags on days. A day has at most one free-text note and any
// number of tags; tags are reusable by name (stored lower-case, unique per person).

export type TagSummary = { id: number; name: string; color: string | null; days: number };
export type DayNoteEntry = { day: string; text: string; tags: Array<{ id: number; name: string; color: string | null }> };

const TAG = { id: true, name: true, color: true } as const;
/** A tag with the number of days it is on. */
const TAG_SUMMARY = { ...TAG, _count: { select: { days: true } } } as const;

const toSummary = (t: { id: number; name: string; color: string | null; _count: { days: number } }): TagSummary => ({
  id: t.id,
  name: t.name,
  color: t.color,
  days: t._count.days,
});

/** Notes and tags of every day in [from, to], oldest first (days with neither are left out). */
export async function listDayNotes(opts: { userId: string; from: string; to: string }): Promise<DayNoteEntry[]> {
  const where = { userId: opts.userId, day: { gte: opts.from, lte: opts.to } };
  const db = prisma();
  const [notes, dayTags] = await Promise.all([
    db.dayNote.findMany({ where, select: { day: true, text: true } }),
    db.dayTag.findMany({ where, select: { day: true, tag: { select: TAG } }, orderBy: { tag: { name: "asc" } } }),
  ]);
  const byDay = new Map<string, DayNoteEntry>();
  const entry = (day: string) => {
    let e = byDay.get(day);
    if (!e) {
      e = { day, text: "", tags: [] };
      byDay.set(day, e);
    }
    return e;
  };
  for (const n of notes) entry(n.day).text = n.text;
  for (const t of dayTags) entry(t.day).tags.push(t.tag);
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** One day's note and tags (empty when there are none). */
export async function getDayNote(opts: { userId: string; day: string }): Promise<DayNoteEntry> {
  const [entry] = await listDayNotes({ userId: opts.userId, from: opts.day, to: opts.day });
  return entry ?? { day: opts.day, text: "", tags: [] };
}

/** A day's note and tags set, as a step of the caller's transaction. */
async function dayNoteWrite(tx: Db, userId: string, day: string, text: string, names: readonly string[]): Promise<void> {
  const updatedAt = clock.date();
  if (text) {
    await tx.dayNote.upsert({ where: { userId_day: { userId, day } }, create: { userId, day, text, updatedAt }, update: { text, updatedAt } });
  } else {
    await tx.dayNote.deleteMany({ where: { userId, day } });
  }
  const tagIds: number[] = [];
  for (const name of names) {
    // a tag that does not exist yet is created; one that does is left as it is
    tagIds.push((await tx.tag.upsert({ where: { userId_name: { userId, name } }, create: { userId, name }, update: {}, select: { id: true } })).id);
  }
  await tx.dayTag.deleteMany({ where: { userId, day, tagId: { notIn: tagIds } } });
  const have = new Set((await tx.dayTag.findMany({ where: { userId, day }, select: { tagId: true } })).map((e) => e.tagId));
  const missing = tagIds.filter((tagId) => !have.has(tagId));
  if (missing.length > 0) await tx.dayTag.createMany({ data: missing.map((tagId) => ({ userId, day, tagId })) });
  await bumpDataVersion(tx, userId);
}

/**
 * Sets a day's note text and exactly these tags (names, already normalised). Tags that do not
 * exist yet are created. An empty text and no tags clear the day.
 */
export async function setDayNote(opts: { userId: string; day: string; text: string; tags: string[] }): Promise<DayNoteEntry> {
  const { userId, day } = opts;
  await prisma().$transaction((tx) => dayNoteWrite(tx, userId, day, opts.text.trim(), [...new Set(opts.tags)]));
  return getDayNote({ userId, day });
}

/** Every tag of the person with the number of days it is on, most used first. */
export async function listTags(userId: string): Promise<TagSummary[]> {
  const tags = await prisma().tag.findMany({ where: { userId }, select: TAG_SUMMARY });
  return tags.map(toSummary).sort((a, b) => b.days - a.days || a.name.localeCompare(b.name));
}

/** A tag of the person, or null (another person's tags do not exist for them). */
export function findTag(opts: { userId: string; id: number }): Promise<{ id: number; name: string; color: string | null } | null> {
  return prisma().tag.findFirst({ where: { id: opts.id, userId: opts.userId }, select: TAG });
}

/** Whether the person has a tag of that name (other than `exceptId`). */
export async function tagNameTaken(opts: { userId: string; name: string; exceptId?: number }): Promise<boolean> {
  const id = opts.exceptId === undefined ? undefined : { not: opts.exceptId };
  return (await prisma().tag.findFirst({ where: { userId: opts.userId, name: opts.name, id }, select: { id: true } })) !== null;
}

export function insertTag(opts: { userId: string; name: string; color?: string | null }): Promise<TagSummary> {
  return prisma().$transaction(async (tx) => {
    const t = await tx.tag.create({ data: { userId: opts.userId, name: opts.name, color: opts.color ?? null }, select: { id: true } });
    await bumpDataVersion(tx, opts.userId);
    return { id: t.id, name: opts.name, color: opts.color ?? null, days: 0 };
  });
}

/** Renames or recolours one of the person's tags; null when they have no such tag. */
export function updateTagFields(opts: { userId: string; id: number; name?: string; color?: string | null }): Promise<TagSummary | null> {
  return prisma().$transaction(async (tx) => {
    const { count } = await tx.tag.updateMany({ where: { id: opts.id, userId: opts.userId }, data: { name: opts.name, color: opts.color } });
    if (count === 0) return null;
    await bumpDataVersion(tx, opts.userId);
    const t = await tx.tag.findUnique({ where: { id: opts.id }, select: TAG_SUMMARY });
    return t ? toSummary(t) : null;
  });
}

/** Deletes one of the person's tags (and its days); false when they have no such tag. */
export function deleteTagById(opts: { userId: string; id: number }): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    if ((await tx.tag.deleteMany({ where: { id: opts.id, userId: opts.userId } })).count === 0) return false;
    await bumpDataVersion(tx, opts.userId);
    return true;
  });
}

/** The days a tag is on, oldest first. */
export async function listTagDays(opts: { userId: string; tagId: number }): Promise<string[]> {
  const rows = await prisma().dayTag.findMany({ where: { userId: opts.userId, tagId: opts.tagId }, select: { day: true }, orderBy: { day: "asc" } });
  return rows.map((r) => r.day);
}
