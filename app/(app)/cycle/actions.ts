"use server";

import { clock } from "@/lib/clock";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/http/errors";
import { formDataArg, isActionError, runAction } from "@/lib/api/action";
import type { CycleEntryState } from "@/lib/api/contract-cycle";
import { requireUser } from "@/lib/services/auth/session";
import { editCycleEntry, getCycleSettings, logCycleEntry, removeCycleEntry } from "@/lib/services/cycle-entries";
import { stateToday } from "@/lib/services/person-today";

/**
 * Server actions of the person's cycle entries: "Log period start" on Today (their today, in
 * their time zone), a start or end on a day's page, and the Cycle view's edit and remove. Each
 * gets the person from requireUser(); an id in the form only ever selects among the person's own
 * entries (another's is "not found"). Nothing is logged while tracking is off. Refusals come
 * back as the error envelope, with `at` so a repeat shows again.
 */

async function run(fn: (userId: string, form: FormData) => Promise<Omit<CycleEntryState, "at">>, form: unknown): Promise<CycleEntryState> {
  const r = await runAction(
    async () => {
      const user = await requireUser();
      const f = formDataArg(form);
      if (!(await getCycleSettings(user.id)).tracking) throw new AppError("conflict", "Cycle tracking is off: turn it on in Settings → Your cycle.");
      const out = await fn(user.id, f);
      revalidatePath("/", "layout");
      return out;
    },
    { signInWhenSignedOut: true },
  );
  return isActionError(r) ? { error: r.error, at: clock.now() } : { ...r, at: clock.now() };
}

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};

/** Today's "Log period start": one tap logs a period start on the person's today. */
export async function logPeriodStartAction(_prev: CycleEntryState, form: FormData): Promise<CycleEntryState> {
  return run(async (userId) => ({ entry: await logCycleEntry(userId, { day: (await stateToday(userId)).today, kind: "period_start" }) }), form);
}

/** The Day page's "Log period start" / "Log period end": the form's day and kind. */
export async function logCycleEntryAction(_prev: CycleEntryState, form: FormData): Promise<CycleEntryState> {
  return run(async (userId, f) => ({ entry: await logCycleEntry(userId, { day: field(f, "day"), kind: field(f, "kind") }) }), form);
}

/** The Cycle view's edit: an entry's day or kind. */
export async function editCycleEntryAction(_prev: CycleEntryState, form: FormData): Promise<CycleEntryState> {
  return run(async (userId, f) => ({ entry: await editCycleEntry(userId, field(f, "id"), { day: field(f, "day"), kind: field(f, "kind") }) }), form);
}

/** Removes one of the person's entries. */
export async function removeCycleEntryAction(_prev: CycleEntryState, form: FormData): Promise<CycleEntryState> {
  return run(async (userId, f) => {
    await removeCycleEntry(userId, field(f, "id"));
    return { removed: true };
  }, form);
}
