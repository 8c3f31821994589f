import "server-only";
import { clock } from "@/lib/clock";
import { announceDataChange } from "@/lib/db/data-changes";
import { prisma } from "@/lib/db/prisma";

// The person's settings of the explained signals as stored: the sleep need they set
// (User.sleepNeedMin) and their free days (User.freeDays, ISO weekdays as "6,7"). What a
// setting never made means (the default free days) is the signals' to say (lib/services/signals.ts).

export type StoredSignalSettings = {
  /** minutes; null: estimated from the person's nights */
  sleepNeedMinutes: number | null;
  /** ISO weekdays, sorted; null: never set, or unreadable (the default applies) */
  freeDays: number[] | null;
};

/** "6,7" → [6, 7]; "" → none; anything unreadable → null. */
function parseFreeDays(text: string): number[] | null {
  if (text === "") return [];
  const days = text.split(",").map(Number);
  return days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) ? [...new Set(days)].sort((a, b) => a - b) : null;
}

/** The person's settings, or null when there is no such person. */
export async function findSignalSettings(userId: string): Promise<StoredSignalSettings | null> {
  const u = await prisma().user.findUnique({ where: { id: userId }, select: { sleepNeedMin: true, freeDays: true } });
  if (!u) return null;
  return { sleepNeedMinutes: u.sleepNeedMin, freeDays: parseFreeDays(u.freeDays) };
}

/** Changes what the patch names (a null sleep need: estimated again). */
export async function updateSignalSettings(userId: string, patch: { sleepNeedMinutes?: number | null; freeDays?: readonly number[] }): Promise<void> {
  // the settings change the signals' answers: the same bump as a data change
  await prisma().user.updateMany({
    where: { id: userId },
    data: { sleepNeedMin: patch.sleepNeedMinutes, freeDays: patch.freeDays?.join(","), dataVersion: { increment: 1 }, updatedAt: clock.date() },
  });
  announceDataChange(userId);
}
