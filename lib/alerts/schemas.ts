// zod schemas of the alerts feature: what a channel and the person's alert settings may be (a
// rule's parameters: each kind's own schema, lib/alerts/kinds/). Shared by the server actions
// (form input) and the service (rows read back), so a stored value is held to the same rules as
// a typed one. Pure, safe in the browser.
import { z } from "zod";
import { ALERT_LIMITS } from "@/lib/alerts/catalog";
import { storedText } from "@/lib/schemas/requests";
import type { QuietHours } from "@/lib/db/queries/alert-rows";

/**
 * An address Ringside posts to: http or https only, bounded, no user name or password in it
 * (a token goes in its own field, stored encrypted), no fragment.
 */
export const channelUrlSchema = z
  .string()
  .trim()
  .min(1, "Enter the address.")
  .max(ALERT_LIMITS.urlMaxLength, `The address may have at most ${ALERT_LIMITS.urlMaxLength} characters.`)
  .superRefine((v, ctx) => {
    const u = URL.canParse(v) ? new URL(v) : null;
    const problem = !u
      ? "Enter a full address such as https://ntfy.example.com/my-topic."
      : !/^https?:$/.test(u.protocol)
        ? "Only http and https addresses can be used."
        : u.username || u.password
          ? "Leave the user name and password out of the address (ntfy: use the access-token field)."
          : u.hash
            ? "Leave the #fragment out of the address."
            : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem, abort: true });
  });

/** ntfy topic names: letters, digits, _ and - (up to 64), the last part of the topic URL. */
export const NTFY_TOPIC_RE = /^[-_A-Za-z0-9]{1,64}$/;

export function ntfyTopicOf(url: string): string | null {
  const parts = new URL(url).pathname.split("/").filter(Boolean);
  const topic = parts.at(-1);
  return topic && NTFY_TOPIC_RE.test(topic) && !new URL(url).search ? topic : null;
}

const labelSchema = storedText()
  .trim()
  .max(ALERT_LIMITS.labelMaxLength, `The name may have at most ${ALERT_LIMITS.labelMaxLength} characters.`)
  .optional()
  .transform((v) => v || undefined);

export const emailAddressSchema = z
  .string()
  .trim()
  .max(ALERT_LIMITS.emailMaxLength, "That e-mail address is too long.")
  .pipe(z.email("Enter an e-mail address."));

export const alertChannelInputSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("ntfy"),
    label: labelSchema,
    url: channelUrlSchema.refine(
      (v) => URL.canParse(v) && ntfyTopicOf(v) !== null,
      "The address must end with the topic, e.g. https://ntfy.sh/my-ringside-topic (letters, digits, _ and -).",
    ),
    token: z
      .string()
      .trim()
      .max(ALERT_LIMITS.tokenMaxLength, "That access token is too long.")
      .refine((v) => /^[\x21-\x7e]*$/.test(v), "An access token has no spaces or special characters.")
      .optional()
      .transform((v) => v || undefined),
  }),
  z.object({ kind: z.literal("email"), label: labelSchema, recipient: emailAddressSchema }),
  z.object({ kind: z.literal("webhook"), label: labelSchema, url: channelUrlSchema }),
]);
export type AlertChannelInput = z.infer<typeof alertChannelInputSchema>;

/** True for a time zone this runtime knows (IANA name). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(ALERT_LIMITS.timeZoneMaxLength)
  .refine(isTimeZone, "Unknown time zone; use a name such as Europe/Berlin.");

/** A time of day as a time field gives it ("22:00", "07:30:00") → minutes from midnight; blank → null. */
const clockTimeSchema = z
  .string()
  .trim()
  .max(8)
  .refine((v) => v === "" || /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(v), "Enter a time such as 22:00.")
  .optional()
  .transform((v) => (v === undefined || v === "" ? null : Number(v.slice(0, 2)) * 60 + Number(v.slice(3, 5))));

export const alertSettingsInputSchema = z
  .object({
    includeValues: z.boolean(),
    timeZone: timeZoneSchema,
    quietFrom: clockTimeSchema,
    quietTo: clockTimeSchema,
  })
  .superRefine((s, ctx) => {
    if ((s.quietFrom === null) !== (s.quietTo === null))
      ctx.addIssue({ code: "custom", path: ["quietTo"], message: "Give both ends of the quiet hours, or neither." });
    else if (s.quietFrom !== null && s.quietFrom === s.quietTo)
      ctx.addIssue({ code: "custom", path: ["quietTo"], message: "Quiet hours end at another time than they start." });
  })
  .transform(({ includeValues, timeZone, quietFrom, quietTo }) => ({
    includeValues,
    timeZone,
    quietHours: quietFrom !== null && quietTo !== null ? ({ from: quietFrom, to: quietTo } satisfies QuietHours) : null,
  }));
export type AlertSettingsInput = z.infer<typeof alertSettingsInputSchema>;

/** The first message of a zod error, for a form (the schemas above word each one for a person). */
export function firstIssue(err: z.ZodError): string {
  return err.issues[0]?.message ?? "The request is not valid.";
}
