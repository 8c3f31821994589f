import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/http/errors";
import { logger } from "@/lib/log";
import { todayIn } from "@/lib/days";
import { CYCLE_DEFAULT_SETTINGS, type CycleEntry, type CycleSettings } from "@/lib/cycle";
import { getAlertSettings } from "@/lib/db/queries/alerts";
import { findRingAccountByUserId } from "@/lib/db/queries/accounts";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { enqueueCollectionBackfill } from "@/lib/sync/jobs";
import {
  deleteCycleData,
  deleteCycleEntry,
  findCycleEntry,
  findCycleSettings,
  insertCycleEntry,
  listCycleEntries,
  saveCycleSettingsRow,
  updateCycleEntry,
} from "@/lib/db/queries/cycle";
import { cycleEntriesRangeSchema, cycleEntryIdSchema, cycleEntryInputSchema, cycleEntryPatchSchema, cycleSettingsPatchSchema } from "@/lib/schemas/cycle";

// The person's own cycle data: their cycle settings (tracking off until they turn it on) and
// the period starts and ends they log, edit and remove. Nothing of the ring service's cycle is
// kept while tracking is off: turning it on queues the backfill of its phases, turning it off
// deletes them (lib/db/queries/cycle.ts, in the settings' own transaction). Every input is validated here (a bad
// one is a 422 that changes nothing); another person's entry is "not found", never "forbidden".
// Logs carry ids and counts only, never a day or a kind.

function parseOr422<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new AppError("unprocessable_entity", r.error.issues[0]?.message ?? "The request is not valid.");
  return r.data;
}

const NO_ENTRY = "No such cycle entry.";

/** The person's today, in the zone their alerts use (the same "today" as the state endpoint's). */
async function personToday(userId: string): Promise<string> {
  return todayIn((await getAlertSettings(userId)).timeZone);
}

async function refuseFuture(userId: string, day: string): Promise<void> {
  if (day > (await personToday(userId))) throw new AppError("unprocessable_entity", "A period cannot be logged on a day after today.");
}

/** The person's cycle settings; the defaults (tracking off) when they never changed one. */
export async function getCycleSettings(userId: string): Promise<CycleSettings> {
  return (await findCycleSettings(userId)) ?? { ...CYCLE_DEFAULT_SETTINGS };
}

/** Changes the settings the patch names; answers all of them. Tracking on fetches the ring's phases, off deletes them. */
export async function saveCycleSettings(userId: string, patch: unknown): Promise<CycleSettings> {
  const p = parseOr422(cycleSettingsPatchSchema, patch);
  const { documents } = await saveCycleSettingsRow(userId, p);
  logger.info({ userId, ...(p.tracking === false ? { cycleDocumentsDeleted: documents } : {}) }, "cycle settings saved");
  if (p.tracking === true && (await findRingAccountByUserId(userId))) await enqueueCollectionBackfill(userId, CYCLE_RESOURCE);
  return getCycleSettings(userId);
}

/** Logs a period start or end on a day (not after the person's today, not before 2000-01-01); the same again answers the entry there is. */
export async function logCycleEntry(userId: string, input: unknown): Promise<CycleEntry> {
  const { day, kind } = parseOr422(cycleEntryInputSchema, input);
  await refuseFuture(userId, day);
  const { created, ...entry } = await insertCycleEntry(userId, { day, kind });
  if (created) logger.info({ userId, cycleEntryId: entry.id }, "cycle entry logged");
  return entry;
}

/** Moves one of the person's entries to another day or kind: 404 when they have none such, 409 when that day already has that kind. */
export async function editCycleEntry(userId: string, id: unknown, patch: unknown): Promise<CycleEntry> {
  const entryId = parseOr422(cycleEntryIdSchema, id);
  const p = parseOr422(cycleEntryPatchSchema, patch);
  const current = await findCycleEntry(userId, entryId);
  if (!current) throw new AppError("not_found", NO_ENTRY);
  const next = { day: p.day ?? current.day, kind: p.kind ?? current.kind };
  if (next.day === current.day && next.kind === current.kind) return current;
  if (p.day !== undefined) await refuseFuture(userId, p.day);
  const clash = (await listCycleEntries(userId, { from: next.day, to: next.day })).some((e) => e.kind === next.kind && e.id !== entryId);
  if (clash) throw new AppError("conflict", "That day already has this entry.");
  const updated = await updateCycleEntry(userId, entryId, p);
  if (!updated) throw new AppError("not_found", NO_ENTRY);
  logger.info({ userId, cycleEntryId: entryId }, "cycle entry changed");
  return updated;
}

/** Removes one of the person's entries: 404 when they have none such. */
export async function removeCycleEntry(userId: string, id: unknown): Promise<void> {
  const entryId = parseOr422(cycleEntryIdSchema, id);
  if (!(await deleteCycleEntry(userId, entryId))) throw new AppError("not_found", NO_ENTRY);
  logger.info({ userId, cycleEntryId: entryId }, "cycle entry removed");
}

/** The person's entries of the days in [from, to], by day. */
export async function listCycleEntriesFor(userId: string, from: unknown, to: unknown): Promise<CycleEntry[]> {
  const range = parseOr422(cycleEntriesRangeSchema, { from, to });
  return listCycleEntries(userId, range);
}

/** Removes every entry and the cycle documents the ring service sent; the settings stay. How many of each. */
export async function removeCycleData(userId: string): Promise<{ entries: number; documents: number }> {
  const counts = await deleteCycleData(userId);
  logger.info({ userId, ...counts }, "cycle data removed");
  return counts;
}
