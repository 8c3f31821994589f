// "Early warning": several night markers off the person's own baseline together. Its condition,
// its message and its line in the weekly digest. The level of each night comes from the
// explained signals (lib/signals/early-warning.ts, read through AlertFacts.earlyWarning); this
// file only decides when that is worth a message. An episode is a stretch of nights at or above
// the rule's level: one message when it starts, nothing more until a night below the level ends it.
import { z } from "zod";
import { addDays, diffDays, formatDay } from "@/lib/days";
import { EARLY_WARNING_MARKERS, levelAtLeast, MARKER_LABELS, type EarlyWarningLevel, type Marker } from "@/lib/signals/early-warning";
import { signalDocsHref } from "@/lib/signals/catalog";
import { METRIC_STALE_DAYS, type Condition } from "@/lib/alerts/condition";
import type { EarlyWarningNightFact } from "@/lib/alerts/facts";
import type { AlertMessage, MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind } from "@/lib/alerts/kinds/define";

/** The levels a rule can ask for, least first. */
export const EARLY_WARNING_RULE_LEVELS = ["watch", "likely"] as const;

export const earlyWarningRuleParamsSchema = z.object({
  level: z.enum(EARLY_WARNING_RULE_LEVELS, { message: "Choose watch or likely." }),
});
export type EarlyWarningRuleParams = z.infer<typeof earlyWarningRuleParamsSchema>;

/** The nights a rule reads before `today`: the newest may be a day or two old. */
export function earlyWarningWindow(today: string): { from: string; to: string } {
  return { from: addDays(today, -(METRIC_STALE_DAYS + 1)), to: today };
}

export type EarlyWarningFacts = { day: string; level: EarlyWarningLevel; moved: EarlyWarningNightFact["moved"] };

/**
 * Active while the newest night with a level (at most METRIC_STALE_DAYS old) is at or above the
 * rule's level and rest mode is off; unknown when no recent night has a level.
 */
export function evaluateEarlyWarningRule(
  params: EarlyWarningRuleParams,
  nights: readonly EarlyWarningNightFact[],
  today: string,
): Condition<EarlyWarningFacts> {
  const newest = [...nights].filter((n) => n.level !== null && n.day <= today).sort((a, b) => (a.day < b.day ? 1 : -1))[0];
  if (!newest || diffDays(newest.day, today) > METRIC_STALE_DAYS) return { state: "unknown" };
  if (newest.muted || !levelAtLeast(newest.level, params.level)) return { state: "inactive" };
  return { state: "active", key: "early_warning", facts: { day: newest.day, level: newest.level!, moved: newest.moved } };
}

function formatMove(m: EarlyWarningFacts["moved"][number]): string {
  const sign = m.delta > 0 ? "+" : "−";
  if (m.marker === "hrv") return `${MARKER_LABELS.hrv} ${sign}${Math.abs(Math.round(m.delta * 100))} %`;
  const abs = Math.abs(m.delta);
  if (m.marker === "temperature_deviation") return `${MARKER_LABELS.temperature_deviation} ${sign}${abs.toFixed(2)} °C`;
  if (m.marker === "resting_heart_rate") return `${MARKER_LABELS.resting_heart_rate} ${sign}${abs.toFixed(0)} bpm`;
  return `${MARKER_LABELS.breathing_rate} ${sign}${abs.toFixed(1)}/min`;
}

export function earlyWarningMessage(facts: EarlyWarningFacts, ctx: MessageContext): AlertMessage {
  const base = ctx.linkBase ? ctx.linkBase.replace(/\/+$/, "") : null;
  const url = base ? `${base}/` : null;
  const which = facts.moved.map((m) => MARKER_LABELS[m.marker].toLowerCase()).join(", ");
  let body =
    `Several of your night's markers left your own baseline together on ${formatDay(facts.day)} (${which}). ` +
    "Illness often shows like this a day or two before symptoms, but so can alcohol, a late meal, travel or a hard day. " +
    "This is not a diagnosis.";
  if (ctx.includeValues && facts.moved.length) body += ` Against your baseline: ${facts.moved.map(formatMove).join("; ")}.`;
  if (base) body += ` How it works: ${base}${signalDocsHref("early-warning")}`;
  return {
    title: facts.level === "likely" ? "Early warning: your body may be fighting something" : "Early warning: one marker moved",
    body: url ? `${body}\n\n${url}` : body,
    link: url,
    data: {
      day: facts.day,
      level: facts.level,
      markers: facts.moved.map((m) => m.marker),
      ...(ctx.includeValues
        ? { values: Object.fromEntries(facts.moved.map((m) => [m.marker, { value: m.value, baseline: m.baseline, change: m.delta }])) }
        : {}),
    },
  };
}

/** The digest's early-warning facts: the week's nights at watch or likely. */
export type DigestEarlyWarning = { nights: Array<{ day: string; level: "watch" | "likely" }>; assessed: number };

export function digestEarlyWarning(nights: readonly EarlyWarningNightFact[], week: { from: string; to: string }): DigestEarlyWarning {
  const inWeek = nights.filter((n) => n.day >= week.from && n.day <= week.to && n.level !== null);
  return {
    nights: inWeek
      .filter((n): n is EarlyWarningNightFact & { level: "watch" | "likely" } => n.level === "watch" || n.level === "likely")
      .map((n) => ({ day: n.day, level: n.level })),
    assessed: inWeek.length,
  };
}

/** The digest's line: which nights, at which level; none; or too little history to say. */
export function digestEarlyWarningLine(e: DigestEarlyWarning): string {
  if (e.assessed === 0) return "Early warning: not enough nights with a baseline this week.";
  if (e.nights.length === 0) return "Early warning: none this week.";
  return `Early warning: ${e.nights.map((n) => `${n.level} on ${formatDay(n.day)}`).join(", ")} (not a diagnosis).`;
}

/** The nights' facts from the signals' early-warning rows. */
export function nightFactOf(
  day: string,
  s: {
    level: EarlyWarningLevel | null;
    muted: boolean;
    inputs: Record<Marker, number | null>;
    baseline: Record<Marker, { median: number } | null>;
    markers: Array<{ marker: Marker; delta: number | null; flagged: boolean }>;
  },
): EarlyWarningNightFact {
  const moved: EarlyWarningNightFact["moved"] = [];
  for (const id of EARLY_WARNING_MARKERS) {
    const m = s.markers.find((x) => x.marker === id);
    if (m?.flagged && m.delta !== null) moved.push({ marker: id, delta: m.delta, value: s.inputs[id], baseline: s.baseline[id]?.median ?? null });
  }
  return { day, level: s.level, muted: s.muted, moved };
}

export const earlyWarning = defineAlertKind({
  kind: "early_warning",
  label: "Early warning (several night markers off your baseline)",
  params: earlyWarningRuleParamsSchema,
  form: {
    fields: [
      {
        type: "select",
        name: "level",
        label: "Tell me at",
        options: [
          { value: "likely", label: "Likely (several markers moved together)" },
          { value: "watch", label: "Watch or likely (one marker moved)" },
        ],
        default: "likely",
      },
    ],
    note:
      "Temperature, resting heart rate, HRV and breathing rate against your own baseline, checked each night; " +
      "quiet while rest mode is on. Not a diagnosis.",
    link: { href: signalDocsHref("early-warning"), label: "How it works" },
  },
  describe: (params) => (params.level === "watch" ? "Early warning: watch or likely" : "Early warning: likely"),
  watch: {
    type: "condition",
    async evaluate(params, env) {
      const w = earlyWarningWindow(env.today);
      const nights = env.facts.earlyWarning ? await env.facts.earlyWarning(env.userId, w.from, w.to) : [];
      return evaluateEarlyWarningRule(params, nights, env.today);
    },
  },
  message: (facts: EarlyWarningFacts, ctx) => earlyWarningMessage(facts, ctx),
  async digest(env, week) {
    if (!env.facts.earlyWarning) return null;
    const e = digestEarlyWarning(await env.facts.earlyWarning(env.userId, week.from, week.to), week);
    return { kind: "early_warning", line: digestEarlyWarningLine(e), data: e.nights };
  },
});
