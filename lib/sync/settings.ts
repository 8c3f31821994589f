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
export async function getDataFamily(): Promise<DataFamily> {
  return (await getAppSetting(DATA_FAMILY_KEY, dataFamilySchema)) ?? env.RING_DATA_FAMILY;
}

export async function saveDataFamily(family: DataFamily): Promise<void> {
  await setAppSetting(DATA_FAMILY_KEY, family);
}

/** Minutes between incremental polls when no webhooks are active. */
export async function getPollMinutes(): Promise<number> {
  return (await getAppSetting(POLL_MINUTES_KEY, pollMinutesSchema)) ?? env.SYNC_POLL_MINUTES;
}

export async function savePollMinutes(minutes: number): Promise<void> {
  await setAppSetting(POLL_MINUTES_KEY, pollMinutesSchema.parse(minutes));
}

/** With webhooks delivering changes, the trailing re-check still runs, but at most every 6 h. */
export const WEBHOOK_POLL_MINUTES = 360;
