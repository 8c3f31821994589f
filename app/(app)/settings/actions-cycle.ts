"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { isActionError, runAction } from "@/lib/api/action";
import type { CycleRemoveState, CycleSettingsState } from "@/lib/api/contract-cycle";
import { requireUser } from "@/lib/services/auth/session";
import { removeCycleData, saveCycleSettings } from "@/lib/services/cycle-entries";

/**
 * Server actions of Settings → Your cycle. Each gets the person from requireUser() and changes
 * only their own settings and data; the patch is validated by the service (a bad one is the
 * error envelope, nothing changed). Every page may show or hide cycle things (the nav link,
 * Today's card, the Calendar's and Trends' shading), so the whole app is drawn anew.
 */

/** Saves the settings the patch names (tracking, hormonal contraception, pregnancy). */
export async function saveCycleSettingsAction(patch: unknown): Promise<CycleSettingsState> {
  const r = await runAction(async () => {
    const user = await requireUser();
    const settings = await saveCycleSettings(user.id, patch);
    revalidatePath("/", "layout");
    return { settings };
  });
  return isActionError(r) ? { error: r.error } : r;
}

/** What the confirmation of "Remove cycle data" sends: nothing is removed without it. */
const confirmSchema = z.literal("remove", { message: 'confirm with "remove"' });

/** Deletes the person's cycle entries and the cycle documents the ring service sent, once confirmed; the settings stay. */
export async function removeCycleDataAction(confirm: unknown): Promise<CycleRemoveState> {
  const r = await runAction(async () => {
    const user = await requireUser();
    confirmSchema.parse(confirm);
    const deleted = await removeCycleData(user.id);
    revalidatePath("/", "layout");
    return { deleted };
  });
  return isActionError(r) ? { error: r.error } : r;
}
