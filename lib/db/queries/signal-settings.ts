import "server-only";
import { db } from "@/lib/db";
import type { SignalSettings } from "@/lib/api/schemas";
import { DEFAULT_FREE_DAYS } from "@/lib/signals/catalog";

// The person's settings of the explained signals: the sleep need they set and their free days.

/** "6,7" → [6, 7]; anything unreadable → the default free days. */
function parseFreeDays(text: string | null | undefined): number[] {
  if (text === null || text === undefined) return [...DEFAULT_FREE_DAYS];
  if (text === "") return [];
  const days = text.split(",").map(Number);
  return days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) ? [...new Set(days)].sort((a, b) => a - b) : [...DEFAULT_FREE_DAYS];
}

/** The person's settings, or null when there is no such person. */
export async function findSignalSettings(userId: string): Promise<SignalSettings | null> {
  const u = await db.user.findUnique({ where: { id: userId }, select: { sleepNeedMin: true, freeDays: true } });
  if (!u) return null;
  return { sleepNeedMinutes: u.sleepNeedMin ?? null, freeDays: parseFreeDays(u.freeDays) };
}

export async function updateSignalSettings(userId: string, patch: Partial<SignalSettings>): Promise<void> {
  // the settings change the signals' answers: the same bump as a data change
  await db.user.update({
    where: { id: userId },
    data: {
      ...(patch.sleepNeedMinutes !== undefined ? { sleepNeedMin: patch.sleepNeedMinutes } : {}),
      ...(patch.freeDays !== undefined ? { freeDays: patch.freeDays.join(",") } : {}),
      dataVersion: { increment: 1 },
    },
  });
}
