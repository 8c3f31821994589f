import "server-only";
import { db } from "@/lib/db";
import { dataVersionBump } from "@/lib/db/queries/data-version";

// The person's own notes and tags on days. A day has at most one free-text note and any
// number of tags; tags are reusable by name (stored lower-case, unique per person).

export type TagSummary = { id: number; name: string; color: string | null; days: number };
export type DayNoteEntry = { day: string; text: string; tags: Array<{ id: number; name: string; color: string | null }> };

/** Notes and tags of every day in [from, to], oldest first (days with neither are left out). */
export async function listDayNotes(opts: { userId: string; from: string; to: string }): Promise<DayNoteEntry[]> {
  const [notes, dayTags] = await Promise.all([
    db.dayNote.findMany({
      where: { userId: opts.userId, day: { gte: opts.from, lte: opts.to } },
      select: { day: true, text: true },
    }),
    db.dayTag.findMany({
      where: { userId: opts.userId, day: { gte: opts.from, lte: opts.to } },
      select: { day: true, tag: { select: { id: true, name: true, color: true } } },
      orderBy: { tag: { name: "asc" } },
    }),
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

/**
 * Sets a day's note text and exactly these tags (names, already normalised). Tags that do not
 * exist yet are created. An empty text and no tags clear the day.
 */
export async function setDayNote(opts: { userId: string; day: string; text: string; tags: string[] }): Promise<DayNoteEntry> {
  const names = [...new Set(opts.tags)];
  const text = opts.text.trim();
  await db.$transaction(async (tx) => {
    if (text) {
      await tx.dayNote.upsert({
        where: { userId_day: { userId: opts.userId, day: opts.day } },
        create: { userId: opts.userId, day: opts.day, text },
        update: { text },
      });
    } else {
      await tx.dayNote.deleteMany({ where: { userId: opts.userId, day: opts.day } });
    }
    const tagIds: number[] = [];
    for (const name of names) {
      const tag = await tx.tag.upsert({
        where: { userId_name: { userId: opts.userId, name } },
        create: { userId: opts.userId, name },
        update: {},
        select: { id: true },
      });
      tagIds.push(tag.id);
    }
    await tx.dayTag.deleteMany({ where: { userId: opts.userId, day: opts.day, tagId: { notIn: tagIds } } });
    const existing = await tx.dayTag.findMany({ where: { userId: opts.userId, day: opts.day }, select: { tagId: true } });
    const have = new Set(existing.map((e) => e.tagId));
    const missing = tagIds.filter((id) => !have.has(id));
    if (missing.length) {
      await tx.dayTag.createMany({ data: missing.map((tagId) => ({ userId: opts.userId, day: opts.day, tagId })) });
    }
    await dataVersionBump(tx, opts.userId);
  });
  return getDayNote({ userId: opts.userId, day: opts.day });
}

/** Every tag of the person with the number of days it is on, most used first. */
export async function listTags(userId: string): Promise<TagSummary[]> {
  const tags = await db.tag.findMany({
    where: { userId },
    select: { id: true, name: true, color: true, _count: { select: { days: true } } },
  });
  return tags
    .map((t) => ({ id: t.id, name: t.name, color: t.color, days: t._count.days }))
    .sort((a, b) => b.days - a.days || a.name.localeCompare(b.name));
}

/** A tag of the person, or null (another person's tags do not exist for them). */
export async function findTag(opts: { userId: string; id: number }): Promise<{ id: number; name: string; color: string | null } | null> {
  return db.tag.findFirst({ where: { id: opts.id, userId: opts.userId }, select: { id: true, name: true, color: true } });
}

/** Whether the person has a tag of that name (other than `exceptId`). */
export async function tagNameTaken(opts: { userId: string; name: string; exceptId?: number }): Promise<boolean> {
  const found = await db.tag.findFirst({
    where: { userId: opts.userId, name: opts.name, ...(opts.exceptId !== undefined ? { NOT: { id: opts.exceptId } } : {}) },
    select: { id: true },
  });
  return found !== null;
}

export async function insertTag(opts: { userId: string; name: string; color?: string | null }): Promise<TagSummary> {
  const [t] = await db.$transaction([db.tag.create({ data: { userId: opts.userId, name: opts.name, color: opts.color ?? null } }), dataVersionBump(db, opts.userId)]);
  return { id: t.id, name: t.name, color: t.color, days: 0 };
}

export async function updateTagFields(opts: { userId: string; id: number; name?: string; color?: string | null }): Promise<TagSummary> {
  const [t] = await db.$transaction([
    db.tag.update({
      where: { id: opts.id, userId: opts.userId },
      data: { ...(opts.name !== undefined ? { name: opts.name } : {}), ...(opts.color !== undefined ? { color: opts.color } : {}) },
      select: { id: true, name: true, color: true, _count: { select: { days: true } } },
    }),
    dataVersionBump(db, opts.userId),
  ]);
  return { id: t.id, name: t.name, color: t.color, days: t._count.days };
}

export async function deleteTagById(opts: { userId: string; id: number }): Promise<void> {
  await db.$transaction([db.tag.delete({ where: { id: opts.id, userId: opts.userId } }), dataVersionBump(db, opts.userId)]);
}

/** The days a tag is on, oldest first. */
export async function listTagDays(opts: { userId: string; tagId: number }): Promise<string[]> {
  const rows = await db.dayTag.findMany({ where: { userId: opts.userId, tagId: opts.tagId }, select: { day: true }, orderBy: { day: "asc" } });
  return rows.map((r) => r.day);
}
