import "server-only";
import { AppError } from "@/lib/api/errors";
import { resolveDayRange, type PartialDayRange } from "@/lib/api/schemas";
import type { TagComparisonResponse } from "@/lib/api/contract";
import { deleteTagById, findTag, insertTag, listTagDays, tagNameTaken, updateTagFields, type TagSummary } from "@/lib/db/queries/notes";
import type { MetricDef } from "@/lib/metrics/catalog";
import { compareTagDays, getMetricsOverview } from "@/lib/services/metrics";

// The person's tags: names unique per person, only their own tags visible (another person's
// tag is "not found", never "forbidden").

async function ownTag(userId: string, id: number) {
  const tag = await findTag({ userId, id });
  if (!tag) throw new AppError("not_found", "No such tag.");
  return tag;
}

export async function createTag(opts: { userId: string; name: string; color?: string | null }): Promise<TagSummary> {
  if (await tagNameTaken(opts)) throw new AppError("conflict", `A tag named "${opts.name}" exists already.`);
  return insertTag(opts);
}

export async function updateTag(opts: { userId: string; id: number; name?: string; color?: string | null }): Promise<TagSummary> {
  await ownTag(opts.userId, opts.id);
  if (opts.name !== undefined && (await tagNameTaken({ userId: opts.userId, name: opts.name, exceptId: opts.id }))) {
    throw new AppError("conflict", `A tag named "${opts.name}" exists already.`);
  }
  return updateTagFields(opts);
}

export async function deleteTag(opts: { userId: string; id: number }): Promise<void> {
  await ownTag(opts.userId, opts.id);
  await deleteTagById(opts.id);
}

/** The tag (if it is the person's) and the days it is on. */
export async function getTagDays(opts: { userId: string; id: number }): Promise<{ tag: TagSummary; days: string[] }> {
  const tag = await ownTag(opts.userId, opts.id);
  const days = await listTagDays({ userId: opts.userId, tagId: opts.id });
  return { tag: { ...tag, days: days.length }, days };
}

/**
 * A metric on days with the tag against days without it (lag 1: the day after each day). A
 * missing end of the range is the person's first/last day with data, within the range cap.
 */
export async function getTagComparison(opts: PartialDayRange & { userId: string; id: number; metric: MetricDef; lag: 0 | 1 }): Promise<TagComparisonResponse> {
  const { userId, metric, lag } = opts;
  const { tag, days } = await getTagDays({ userId, id: opts.id });
  const overview = getMetricsOverview(userId);
  const hasDefaults = overview.firstDay !== null && overview.lastDay !== null;
  if (!(opts.from && opts.to) && !hasDefaults) {
    return { tag, metric: metric.id, lag, from: opts.from ?? null, to: opts.to ?? null, comparison: null };
  }
  const { from, to } = resolveDayRange(opts, { from: overview.firstDay ?? opts.from!, to: overview.lastDay ?? opts.to! });
  const comparison = compareTagDays({ userId, metric, lag, from, to, taggedDays: days });
  return { tag, metric: metric.id, lag, from, to, comparison };
}
