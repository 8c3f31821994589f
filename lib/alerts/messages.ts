// The words every alert is made of: a title, a plain-text body, a link into Ringside and the
// same facts as JSON for webhooks; the helpers each rule kind's message uses (lib/alerts/kinds/),
// and the messages that belong to no kind (a channel's test, a rule's test, an address's
// confirmation code). Pure. Health values (and tag names) go into a message only when the person
// ticked "include values"; without it a message says what happened and never a number the ring
// measured.
import type { Units } from "@/lib/metrics/format";
import { settingsHref } from "@/lib/settings-sections";

export type AlertMessage = {
  title: string;
  body: string;
  /** the page in Ringside it is about (absolute), when Ringside knows its address */
  link: string | null;
  /** the facts as JSON (webhooks); values only when included */
  data: Record<string, unknown>;
};

export type MessageContext = {
  includeValues: boolean;
  units: Units;
  timeZone: string;
  /** public origin of this Ringside (AUTH_URL / PUBLIC_URL, else where the person saved their settings) */
  linkBase: string | null;
};

/** The absolute address of a page of Ringside, when its origin is known. */
export function link(ctx: MessageContext, path: string): string | null {
  return ctx.linkBase ? `${ctx.linkBase.replace(/\/+$/, "")}${path}` : null;
}

/** "1 day", "3 days". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The body with its link on a line of its own after a blank line. */
export function withLink(body: string, url: string | null): string {
  return url ? `${body}\n\n${url}` : body;
}

/** "Tue 3 Mar, 14:05" in the person's time zone. */
export function formatInstant(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(instant));
}

/** "22:15" in the person's time zone. */
export function clockTime(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(instant));
}

export function testMessage(ctx: MessageContext): AlertMessage {
  const url = link(ctx, settingsHref("alerts"));
  return {
    title: "Test from Ringside",
    body: withLink("This channel works: the alerts and digests you set up in Settings → Alerts arrive here.", url),
    link: url,
    data: {},
  };
}

/** A rule's test: which rule (its kind and label), what sets it off, and where the real alerts will arrive. */
export function ruleTestMessage(rule: { kind: string; label: string }, description: string, ctx: MessageContext): AlertMessage {
  const url = link(ctx, settingsHref("alerts"));
  return {
    title: `Test from Ringside: ${rule.label.toLowerCase()}`,
    body: withLink(`This is a test of your rule “${description}”. When it happens, the alert arrives here like this one.`, url),
    link: url,
    data: { rule: rule.kind },
  };
}

/**
 * The one message an e-mail address gets before it is confirmed: the code, who asked, and that
 * ignoring it is enough. Nothing about the person's data.
 */
export function confirmationMessage(code: string, origin: string | null): AlertMessage {
  const where = origin ? ` (${origin})` : "";
  return {
    title: `Ringside confirmation code: ${code}`,
    body:
      `Someone using Ringside${where} wants to send alerts to this address. ` +
      `If that was you, enter this code in Settings → Alerts within 24 hours:\n\n    ${code}\n\n` +
      "If it was not you, ignore this message: nothing more is sent here unless the code is entered.",
    link: null,
    data: {},
  };
}
