// The alert rule kinds' registry: every kind of rule a person can set, declared once (one file
// per kind, lib/alerts/kinds/define.ts says what each holds). Everything else derives from it:
//   lib/alerts/worker.ts          what each rule watches, when, and the message it sends
//   lib/alerts/kinds/weekly-digest.ts   the other kinds' lines in the weekly digest (via the worker)
//   lib/services/alerts.ts        the rule as Settings shows it, its test, the rules' schema
//   Settings → Alerts             the "Add a rule" form (RULE_KIND_FORMS, handed to the browser)
//   app/(app)/settings/actions-alerts.ts   the form's fields → the rule's parameters
//   docs/alerts.md                the kinds table (kinds.test.ts holds it to this list)
//
// Adding a kind: write lib/alerts/kinds/<kind>.ts (defineAlertKind), add it to ALERT_KINDS
// below, test it (lib/alerts/kinds/<kind>.test.ts) and give it its row in docs/alerts.md.
import { z } from "zod";
import { bedtimeWindow } from "@/lib/alerts/kinds/bedtime-window";
import { connection } from "@/lib/alerts/kinds/connection";
import { cycleLate } from "@/lib/alerts/kinds/cycle-late";
import { earlyWarning } from "@/lib/alerts/kinds/early-warning";
import { metricOutOfRange } from "@/lib/alerts/kinds/metric-out-of-range";
import { noNewSleep } from "@/lib/alerts/kinds/no-new-sleep";
import { periodExpected } from "@/lib/alerts/kinds/period-expected";
import { ringBatteryLow } from "@/lib/alerts/kinds/ring-battery-low";
import { ringCharged } from "@/lib/alerts/kinds/ring-charged";
import { weeklyDigest } from "@/lib/alerts/kinds/weekly-digest";
import type { AlertKindSpec, RuleKindForm } from "@/lib/alerts/kinds/define";

/** In the order Settings lists them (the first is the form's default); moments are sent in this order too. */
export const ALERT_KINDS = [
  metricOutOfRange,
  noNewSleep,
  connection,
  weeklyDigest,
  ringBatteryLow,
  ringCharged,
  bedtimeWindow,
  earlyWarning,
  periodExpected,
  cycleLate,
] as const;

type AnyKind = (typeof ALERT_KINDS)[number];
export type AlertRuleKind = AnyKind["kind"];
/** Any kind, its parameters and facts unknown (what the worker and the service hold). */
export type AlertKind = AlertKindSpec<string, unknown, unknown>;

export const ALERT_RULE_KINDS = ALERT_KINDS.map((k) => k.kind) as readonly AlertRuleKind[];

/** A rule as the person sets it: its kind and that kind's parameters. */
export type AlertRuleInput = { [K in AnyKind as K["kind"]]: { kind: K["kind"]; params: z.output<K["params"]> } }[AlertRuleKind];

const ruleSchemas = ALERT_KINDS.map((k) => z.object({ kind: z.literal(k.kind), params: k.params }));
export const alertRuleInputSchema = z.discriminatedUnion(
  "kind",
  ruleSchemas as unknown as [(typeof ruleSchemas)[number], ...(typeof ruleSchemas)[number][]],
) as unknown as z.ZodType<AlertRuleInput>;

const byKind: ReadonlyMap<string, AlertKind> = new Map(ALERT_KINDS.map((k) => [k.kind, k as AlertKind]));

/** The kind of that name, or undefined (a stored rule of a kind no longer known). */
export function alertKind(kind: string): AlertKind | undefined {
  return byKind.get(kind);
}

/** A stored or typed rule checked against its kind: the kind and its parameters, or null. */
export function parseRule(rule: { kind: string; params: unknown }): { kind: AlertKind; params: unknown } | null {
  const r = alertRuleInputSchema.safeParse(rule);
  const kind = r.success ? alertKind(r.data.kind) : undefined;
  return r.success && kind ? { kind, params: r.data.params } : null;
}

/** A rule in one line (Settings, a rule's test); null when it does not parse as its kind. */
export function describeRule(kind: string, params: unknown): string | null {
  const rule = parseRule({ kind, params });
  return rule ? rule.kind.describe(rule.params) : null;
}

/** A kind's parameters from its form's fields (each field's name is its parameter); none for a kind not known. */
export function ruleParamsFromForm(kind: string | undefined, field: (name: string) => string | undefined): Record<string, string | undefined> {
  const def = kind === undefined ? undefined : alertKind(kind);
  return Object.fromEntries((def?.form.fields ?? []).map((f) => [f.name, field(f.name)]));
}

/** The kinds about the person's cycle: offered only while their cycle tracking is on (they never fire otherwise). */
export const CYCLE_RULE_KINDS: readonly AlertRuleKind[] = [periodExpected.kind, cycleLate.kind];

/** What Settings' "Add a rule" form needs of each kind, in order (plain data for the browser). */
export const RULE_KIND_FORMS: readonly RuleKindForm[] = ALERT_KINDS.map((k) => ({ kind: k.kind, label: k.label, form: k.form }));
