// The ring app's enhanced tags as Ringside tags: each distinct tag type (or custom name) is one
// read-only tag "from the ring", named readably, on the days its entries cover. Pure, safe in
// the browser.
import { addDays, diffDays } from "@/lib/days";

/** Readable names of the tag types the ring's app offers (tag_type_code → name). */
const TAG_NAMES: Record<string, string> = {
  tag_generic_alcohol: "Alcohol",
  tag_generic_caffeine: "Caffeine",
  tag_generic_nocaffeine: "No caffeine",
  tag_generic_late_meal: "Late meal",
  tag_generic_sick: "Sick",
  tag_generic_sauna: "Sauna",
  tag_generic_headache: "Headache",
  tag_generic_travel: "Travel",
  tag_generic_stress: "Stress",
  tag_generic_meditation: "Meditation",
  tag_generic_nap: "Nap",
  tag_generic_period: "Period",
  tag_generic_cold_shower: "Cold shower",
  tag_generic_sleep_aid: "Sleep aid",
  tag_generic_screen_time: "Screen time",
  tag_generic_workout: "Workout",
};

/** The colour of tags from the ring (a CSS colour; the person's own tags pick theirs). */
export const RING_TAG_COLOR = "#0d9488";

/** The longest span one tag entry marks (a tag with a duration, e.g. sick for some days). */
export const RING_TAG_MAX_DAYS = 31;

/** "tag_generic_late_meal" → "Late meal"; an unknown code is made readable the same way. */
export function tagTypeName(code: string): string {
  const known = TAG_NAMES[code];
  if (known) return known;
  const words = code
    .replace(/^tag_(generic_)?/, "")
    .replace(/_/g, " ")
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : code;
}

/** One entry of the ring app (the stored columns of an enhanced tag). */
export type RingTagEntry = { day: string; tag_type_code: string | null; custom_name: string | null; end_day: string | null; comment: string | null };

/**
 * What an entry is a tag of: its type, or its custom name (kept as typed; `custom` and text-only
 * entries without a name are left out). `key` is stable across syncs: it is the tag's id.
 */
export function ringTagOf(e: Pick<RingTagEntry, "tag_type_code" | "custom_name">): { key: string; name: string } | null {
  const custom = e.custom_name?.trim();
  if (custom) return { key: `ring:custom:${custom}`, name: custom };
  if (!e.tag_type_code || e.tag_type_code === "custom") return null;
  return { key: `ring:${e.tag_type_code}`, name: tagTypeName(e.tag_type_code) };
}

/** The days an entry marks: its start day through its end day (at most RING_TAG_MAX_DAYS). */
export function entryDays(e: Pick<RingTagEntry, "day" | "end_day">): string[] {
  const span = e.end_day && e.end_day > e.day ? Math.min(diffDays(e.day, e.end_day), RING_TAG_MAX_DAYS - 1) : 0;
  return Array.from({ length: span + 1 }, (_, i) => addDays(e.day, i));
}

export type RingTag = { id: string; name: string; color: string; days: string[] };

/** The ring's tags of a person from their entries: one per type or custom name, days sorted, most used first. */
export function ringTagsOf(entries: readonly RingTagEntry[]): RingTag[] {
  const byKey = new Map<string, { name: string; days: Set<string> }>();
  for (const e of entries) {
    const tag = ringTagOf(e);
    if (!tag) continue;
    let t = byKey.get(tag.key);
    if (!t) byKey.set(tag.key, (t = { name: tag.name, days: new Set() }));
    for (const d of entryDays(e)) t.days.add(d);
  }
  return [...byKey]
    .map(([id, t]) => ({ id, name: t.name, color: RING_TAG_COLOR, days: [...t.days].sort() }))
    .sort((a, b) => b.days.length - a.days.length || a.name.localeCompare(b.name));
}

/** Whether a tag id is one of the ring's (the person's own tags have numeric ids). */
export function isRingTagId(id: string): boolean {
  return /^ring:.{1,300}$/.test(id);
}
