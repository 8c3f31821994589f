// The shape of one alert rule kind (lib/alerts/kinds/index.ts lists them): its label, its
// parameters' zod schema, the fields of its form in Settings (a description the form renders,
// plain data the page hands to the browser), its one-line description, what it watches and the
// message it sends, and its line in the weekly digest. Each kind is one file that calls
// defineAlertKind; nothing else names a kind.
import { z } from "zod";
import type { Condition } from "@/lib/alerts/condition";
import type { AlertFacts } from "@/lib/alerts/facts";
import type { AlertMessage, MessageContext } from "@/lib/alerts/messages";
import type { QuietHours } from "@/lib/db/queries/alert-rows";

/** A whole number in `r` (a form's text is coerced), with errors worded for a person. */
export const intIn = (r: { min: number; max: number }, what: string) =>
  z.coerce
    .number({ message: `${what} must be a number.` })
    .int(`${what} must be a whole number.`)
    .min(r.min, `${what} must be at least ${r.min}.`)
    .max(r.max, `${what} must be at most ${r.max}.`);

/** A number a person sets: its bounds and its default. */
export type Limit = { min: number; max: number; default: number };

/** One field of a kind's form in Settings; `name` is its form field and its parameter. */
export type FormField =
  /** a number input in `range`, with a hint under it */
  | { type: "number"; name: string; label: string; range: Limit; hint: string }
  /** a choice among `options` */
  | { type: "select"; name: string; label: string; options: ReadonlyArray<{ value: string; label: string }>; default: string }
  /** a metric with numbers (the metric picker) */
  | { type: "metric"; name: string; label: string; default: string };

/** The form of a kind: its fields, and the note under them (with a link to read more). */
export type KindForm = { fields: readonly FormField[]; note: string; link?: { href: string; label: string } };

/** What Settings' "Add a rule" form needs of a kind (plain data: the page passes it to the browser). */
export type RuleKindForm = { kind: string; label: string; form: KindForm };

/** What a kind reads when it is looked at: the person, their facts, their day and the instant. */
export type RuleEnv = {
  userId: string;
  facts: AlertFacts;
  /** the person's day (their time zone) */
  today: string;
  now: number;
  timeZone: string;
  quietHours: QuietHours | null;
  /** the lines of the other kinds in a weekly digest of `week` (only the digest reads them) */
  digestSections(week: { from: string; to: string }): Promise<DigestSection[]>;
};

/** A kind's part of the weekly digest: its line, and its facts under its kind in the JSON. */
export type DigestSection = { kind: string; line: string; data: unknown };

/**
 * What a kind watches. `condition`: a state that holds for a while (an episode: one message when
 * it starts, nothing more until it clears), checked after each sync and every few minutes.
 * `moment`: a time it names (the digest's weekly slot, the bedtime window's start), checked on
 * every tick; sent once per `key` (its dedupe key is `prefix:rule:key`).
 */
export type Watch<P, F> =
  | { type: "condition"; evaluate(params: P, env: RuleEnv): Promise<Condition<F>> }
  | {
      type: "moment";
      prefix: string;
      /** "digest" messages go to the history as digests; "alert" ones as alerts */
      purpose: "alert" | "digest";
      /** true: not sent in the person's quiet hours (it is looked at again when they end); false: sent at once */
      quiet: boolean;
      /** the moment that is due now (its key, and its facts read when it is sent), or null */
      due(params: P, env: RuleEnv): Promise<{ key: string; facts(): Promise<F> } | null>;
    };

export type AlertKindSpec<K extends string, P, F> = {
  kind: K;
  /** the name of the kind in Settings' list and in a rule's test */
  label: string;
  /** its parameters as stored (JSON) and as typed in the form */
  params: z.ZodType<P>;
  form: KindForm;
  /** the rule in one line (Settings, a rule's test) */
  describe(params: P): string;
  /** for a moment at a fixed time: the next instant it is sent (Settings shows it) */
  next?(params: P, now: number, timeZone: string): number;
  watch: Watch<P, F>;
  /** the message of an episode or a moment: title, body, link and JSON data */
  message(facts: F, ctx: MessageContext, params: P): AlertMessage;
  /** its line in the weekly digest, or null for none */
  digest: null | ((env: RuleEnv, week: { from: string; to: string }) => Promise<DigestSection | null>);
};

/** A kind, checked against its shape (its parameters' type flows into the rest of it). */
export function defineAlertKind<const K extends string, P, F>(spec: AlertKindSpec<K, P, F>): AlertKindSpec<K, P, F> {
  return spec;
}
