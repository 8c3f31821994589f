import "server-only";
import { z } from "zod";
import { env } from "@/lib/env.mjs";
import { getAppSetting, setAppSetting } from "@/lib/db/queries/app-settings";
import type { DataFamily } from "@/lib/ring/client";

// Instance-wide sync settings (AppSetting), each defaulting to its environment variable.

export const DATA_FAMILY_KEY = "data_family";
export const POLL_MINUTES_KEY = "sync_poll_minutes";

export const dataFamilySchema = z.enum(["usercollection", "sandbox"]);
export const pollMinutesSchema = z.number().int().min(1).max(1440);

/** "usercollection" (the person's real data) or "sandbox" (the service's sample data). */
export function getDataFamily(): DataFamily {
  return getAppSetting(DATA_FAMILY_KEY, dataFamilySchema) ?? env.RING_DATA_FAMILY;
}

export function saveDataFamily(family: DataFamily): void {
  setAppSetting(DATA_FAMILY_KEY, family);
}

/** Minutes between incremental polls when no webhooks are active. */
export function getPollMinutes(): number {
  return getAppSetting(POLL_MINUTES_KEY, pollMinutesSchema) ?? env.SYNC_POLL_MINUTES;
}

export function savePollMinutes(minutes: number): void {
  setAppSetting(POLL_MINUTES_KEY, pollMinutesSchema.parse(minutes));
}

/** With webhooks delivering changes, the trailing re-check still runs, but at most every 6 h. */
export const WEBHOOK_POLL_MINUTES = 360;
