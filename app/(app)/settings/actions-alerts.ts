"use server";

import { clock } from "@/lib/clock";
import { revalidatePath } from "next/cache";
import { formDataArg, isActionError, runAction, settingsRowAction } from "@/lib/api/action";
import { rowIdSchema } from "@/lib/schemas/requests";
import { publicOrigin } from "@/lib/auth/origin";
import { requireUser } from "@/lib/services/auth/session";
import * as alerts from "@/lib/services/alerts";
import { ruleParamsFromForm } from "@/lib/alerts/kinds";
import type { AlertFormState } from "@/lib/api/contract";

/**
 * Server actions of Settings → Alerts (the page hands them to components/settings/alerts-*.tsx
 * as props). Each one gets the person from requireUser(); ids in the form only ever select among
 * the person's own rules and channels. Refusals come back as `{ error }` for the form, never
 * as a 500.
 */

const field = (form: FormData, name: string): string | undefined => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};

/** Runs a form of Settings → Alerts for the signed-in person: `fn`'s outcome, or the error envelope, stamped with the time. */
async function asState(form: unknown, fn: (user: Awaited<ReturnType<typeof requireUser>>, f: FormData) => Promise<AlertFormState>): Promise<AlertFormState> {
  const r = await runAction(
    async () => {
      const user = await requireUser();
      return fn(user, formDataArg(form));
    },
    { signInWhenSignedOut: true },
  );
  return isActionError(r) ? { error: r.error, at: clock.now() } : { ...r, at: clock.now() };
}

/** Include values, time zone. Also remembers this Ringside's address for links in messages. */
export async function saveAlertSettingsAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const settings = {
      includeValues: f.get("includeValues") === "on",
      timeZone: field(f, "timeZone") ?? "",
      quietFrom: field(f, "quietFrom"),
      quietTo: field(f, "quietTo"),
    };
    await alerts.saveAlertSettings(user.id, settings, await publicOrigin());
    revalidatePath("/settings", "layout");
    return { ok: true, message: "Saved." };
  });
}

/** Adds a rule of the kind chosen in the form with that kind's fields (lib/alerts/kinds: each kind's form). */
export async function addAlertRuleAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const kind = field(f, "kind");
    const params = ruleParamsFromForm(kind, (name) => field(f, name));
    await alerts.addAlertRule(user.id, { kind, params });
    revalidatePath("/settings", "layout");
    return { ok: true, message: "Rule added." };
  });
}

export const toggleAlertRuleAction = settingsRowAction(requireUser, "id", (user, id, f) =>
  alerts.setAlertRuleEnabled(user.id, id, f.get("enabled") === "true"),
);

export const removeAlertRuleAction = settingsRowAction(requireUser, "id", (user, id) => alerts.removeAlertRule(user.id, id));

/** Adds a channel; a webhook's signing secret comes back once, to be shown and copied now. */
export async function addAlertChannelAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const kind = field(f, "kind");
    const input =
      kind === "email"
        ? { kind, label: field(f, "label"), recipient: field(f, "recipient") }
        : kind === "ntfy"
          ? { kind, label: field(f, "label"), url: field(f, "url"), token: field(f, "token") }
          : { kind, label: field(f, "label"), url: field(f, "url") };
    const { secret, confirmation } = await alerts.addAlertChannel(user.id, input, await publicOrigin());
    revalidatePath("/settings", "layout");
    const message = !confirmation
      ? "Channel added."
      : confirmation.ok
        ? "Channel added. A code was sent to the address: enter it at the channel to confirm it."
        : `Channel added, but its code could not be sent (${confirmation.error}): send a new one at the channel.`;
    return { ok: true, message, ...(secret ? { secret } : {}) };
  });
}

export const toggleAlertChannelAction = settingsRowAction(requireUser, "id", (user, id, f) =>
  alerts.setAlertChannelEnabled(user.id, id, f.get("enabled") === "true"),
);

export const removeAlertChannelAction = settingsRowAction(requireUser, "id", (user, id) => alerts.removeAlertChannel(user.id, id));

/** Confirms one of the person's e-mail channels with the code that was sent to the address. */
export async function confirmAlertChannelAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const id = rowIdSchema.parse(f.get("id"));
    await alerts.confirmAlertChannel(user.id, id, f.get("code"));
    revalidatePath("/settings", "layout");
    return { ok: true, message: "Address confirmed." };
  });
}

/** Sends a new confirmation code to one of the person's unconfirmed e-mail channels. */
export async function resendAlertConfirmationAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const id = rowIdSchema.parse(f.get("id"));
    const result = await alerts.resendAlertConfirmation(user.id, id, await publicOrigin());
    return result.ok ? { ok: true, message: "A new code was sent." } : { ok: false, error: { code: "bad_gateway", message: `Not sent: ${result.error}.` } };
  });
}

/** "Send a test" to one of the person's channels, now; the outcome is shown and kept in the history. */
export async function sendAlertTestAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const id = rowIdSchema.parse(f.get("id"));
    const result = await alerts.sendAlertTest(user.id, id, await publicOrigin());
    revalidatePath("/settings", "layout");
    return result.ok ? { ok: true, message: "Test sent." } : { ok: false, error: { code: "bad_gateway", message: `Not delivered: ${result.error}.` } };
  });
}

/** "Send a test" of one of the person's rules: an example to each switched-on channel, now. */
export async function sendAlertRuleTestAction(_prev: AlertFormState, form: FormData): Promise<AlertFormState> {
  return asState(form, async (user, f) => {
    const id = rowIdSchema.parse(f.get("id"));
    const { sent, failed } = await alerts.sendAlertRuleTest(user.id, id, await publicOrigin());
    revalidatePath("/settings", "layout");
    return failed.length === 0
      ? { ok: true, message: `Test sent to ${sent} channel${sent === 1 ? "" : "s"}.` }
      : { ok: false, error: { code: "bad_gateway", message: `Not delivered to ${failed.join("; ")}.` } };
  });
}
