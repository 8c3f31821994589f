import "server-only";
import { AppError } from "@/lib/api/errors";
import { deleteTagById, findTag, insertTag, listTagDays, tagNameTaken, updateTagFields, type TagSummary } from "@/lib/db/queries/notes";

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
