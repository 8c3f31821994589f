import "server-only";
import { clock } from "@/lib/clock";
import { toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction } from "@/lib/db/sql";
import { bumpDataVersion } from "@/lib/db/queries/data-version";

// The person's own notes and tags on days. A day has at most one free-text note and any
// number of tags; tags are reusable by name (stored lower-case, unique per person).

export type TagSummary = { id: number; name: string; color: string | null; days: number };
export type DayNoteEntry = { day: string; text: string; tags: Array<{ id: number; name: string; color: string | null }> };

/** Notes and tags of every day in [from, to], oldest first (days with neither are left out). */
export async function listDayNotes(opts: { userId: string; from: string; to: string }): Promise<DayNoteEntry[]> {
  const { notes, dayTags } = await query(
    (function* () {
      const notes = yield* all<{ day: string; text: string }>(
        `SELECT day, text FROM day_note WHERE userId = ? AND day >= ? AND day <= ?`,
        opts.userId,
        opts.from,
        opts.to,
      );
      const dayTags = yield* all<{ day: string; id: number; name: string; color: string | null }>(
        `SELECT d.day, t.id, t.name, t.color FROM day_tag d JOIN tag t ON t.id = d.tagId
          WHERE d.userId = ? AND d.day >= ? AND d.day <= ? ORDER BY t.name`,
        opts.userId,
        opts.from,
        opts.to,
      );
      return { notes, dayTags };
    })(),
  );
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
  for (const t of dayTags) entry(t.day).tags.push({ id: t.id, name: t.name, color: t.color });
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
  const { userId, day } = opts;
  const names = [...new Set(opts.tags)];
  const text = opts.text.trim();
  const now = toDbTime(clock.date());
  await transaction(function* () {
    if (text) {
      yield* run(
        `INSERT INTO day_note (userId, day, text, updatedAt) VALUES (?, ?, ?, ?)
         ON CONFLICT(userId, day) DO UPDATE SET text = excluded.text, updatedAt = excluded.updatedAt`,
        userId,
        day,
        text,
        now,
      );
    } else {
      yield* run(`DELETE FROM day_note WHERE userId = ? AND day = ?`, userId, day);
    }
    const tagIds: number[] = [];
    for (const name of names) {
      yield* run(`INSERT OR IGNORE INTO tag (userId, name) VALUES (?, ?)`, userId, name);
      const tag = yield* get<{ id: number }>(`SELECT id FROM tag WHERE userId = ? AND name = ?`, userId, name);
      tagIds.push(tag!.id);
    }
    const existing = yield* all<{ tagId: number }>(`SELECT tagId FROM day_tag WHERE userId = ? AND day = ?`, userId, day);
    const keep = new Set(tagIds);
    for (const e of existing) if (!keep.has(e.tagId)) yield* run(`DELETE FROM day_tag WHERE userId = ? AND day = ? AND tagId = ?`, userId, day, e.tagId);
    const have = new Set(existing.map((e) => e.tagId));
    for (const tagId of tagIds) if (!have.has(tagId)) yield* run(`INSERT INTO day_tag (userId, day, tagId) VALUES (?, ?, ?)`, userId, day, tagId);
    yield* bumpDataVersion(userId);
  });
  return getDayNote({ userId, day });
}

const TAG_SUMMARY = `SELECT t.id, t.name, t.color, (SELECT COUNT(*) FROM day_tag d WHERE d.tagId = t.id) AS days FROM tag t`;

const toSummary = (t: TagSummary): TagSummary => ({ id: t.id, name: t.name, color: t.color, days: Number(t.days) });

/** Every tag of the person with the number of days it is on, most used first. */
export async function listTags(userId: string): Promise<TagSummary[]> {
  const tags = await query(all<TagSummary>(`${TAG_SUMMARY} WHERE t.userId = ?`, userId));
  return tags.map(toSummary).sort((a, b) => b.days - a.days || a.name.localeCompare(b.name));
}

/** A tag of the person, or null (another person's tags do not exist for them). */
export async function findTag(opts: { userId: string; id: number }): Promise<{ id: number; name: string; color: string | null } | null> {
  return (
    (await query(
      get<{ id: number; name: string; color: string | null }>(`SELECT id, name, color FROM tag WHERE id = ? AND userId = ?`, opts.id, opts.userId),
    )) ?? null
  );
}

/** Whether the person has a tag of that name (other than `exceptId`). */
export async function tagNameTaken(opts: { userId: string; name: string; exceptId?: number }): Promise<boolean> {
  const found =
    opts.exceptId !== undefined
      ? await query(get(`SELECT id FROM tag WHERE userId = ? AND name = ? AND id <> ?`, opts.userId, opts.name, opts.exceptId))
      : await query(get(`SELECT id FROM tag WHERE userId = ? AND name = ?`, opts.userId, opts.name));
  return found !== undefined;
}

export function insertTag(opts: { userId: string; name: string; color?: string | null }): Promise<TagSummary> {
  return transaction(function* () {
    const t = yield* get<{ id: number }>(`INSERT INTO tag (userId, name, color) VALUES (?, ?, ?) RETURNING id`, opts.userId, opts.name, opts.color ?? null);
    yield* bumpDataVersion(opts.userId);
    return { id: t!.id, name: opts.name, color: opts.color ?? null, days: 0 };
  });
}

/** Renames or recolours one of the person's tags; null when they have no such tag. */
export function updateTagFields(opts: { userId: string; id: number; name?: string; color?: string | null }): Promise<TagSummary | null> {
  return transaction(function* () {
    const changed = yield* run(
      `UPDATE tag SET name = CASE WHEN ? THEN ? ELSE name END, color = CASE WHEN ? THEN ? ELSE color END WHERE id = ? AND userId = ?`,
      opts.name !== undefined,
      opts.name ?? null,
      opts.color !== undefined,
      opts.color ?? null,
      opts.id,
      opts.userId,
    );
    if (changed === 0) return null;
    yield* bumpDataVersion(opts.userId);
    const t = yield* get<TagSummary>(`${TAG_SUMMARY} WHERE t.id = ?`, opts.id);
    return t ? toSummary(t) : null;
  });
}

/** Deletes one of the person's tags (and its days); false when they have no such tag. */
export function deleteTagById(opts: { userId: string; id: number }): Promise<boolean> {
  return transaction(function* () {
    if ((yield* run(`DELETE FROM tag WHERE id = ? AND userId = ?`, opts.id, opts.userId)) === 0) return false;
    yield* bumpDataVersion(opts.userId);
    return true;
  });
}

/** The days a tag is on, oldest first. */
export async function listTagDays(opts: { userId: string; tagId: number }): Promise<string[]> {
  const rows = await query(all<{ day: string }>(`SELECT day FROM day_tag WHERE userId = ? AND tagId = ? ORDER BY day`, opts.userId, opts.tagId));
  return rows.map((r) => r.day);
}
