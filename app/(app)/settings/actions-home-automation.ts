"use server";

import { revalidatePath } from "next/cache";
import { clock } from "@/lib/clock";
import { formDataArg, isActionError, runAction } from "@/lib/api/action";
import type { HomeAssistantSaveState } from "@/lib/api/contract-home-automation";
import { requireUser } from "@/lib/services/auth/session";
import { saveHomeAssistantSettings } from "@/lib/services/home-assistant";

/**
 * The server action of Settings → Home automation. It changes the signed-in person's own setting
 * only: no field of the form names a person (an owner cannot turn it on for anyone else). A bad
 * form (an unknown kind, none while on) is the error envelope and changes nothing.
 */

/** Turns "Publish to Home Assistant" on or off, with the data kinds ticked. */
export async function saveHomeAssistantAction(_prev: HomeAssistantSaveState, form: FormData): Promise<HomeAssistantSaveState> {
  const r = await runAction(
    async () => {
      const user = await requireUser();
      const f = formDataArg(form);
      const settings = await saveHomeAssistantSettings(user.id, { enabled: f.get("enabled") === "on", kinds: f.getAll("kinds") });
      revalidatePath("/settings");
      return { settings };
    },
    { signInWhenSignedOut: true },
  );
  return isActionError(r) ? { error: r.error, at: clock.now() } : { ...r, at: clock.now() };
}
