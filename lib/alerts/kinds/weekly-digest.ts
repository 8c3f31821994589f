// The weekly digest: a moment, once a week at the person's weekday and hour (their time zone),
// with the week that ended the day before against the week before and the usual range, its best
// and worst days, its tags, the other kinds' lines (each kind's `digest`) and a link to Trends.
// Sent at once, quiet hours or not; within DIGEST_GRACE_MS of its slot (Ringside down at the hour).
import { z } from "zod";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/days";
import { formatValue } from "@/lib/metrics/format";
import type { DayValue } from "@/lib/metrics/series";
import { DIGEST_METRICS, WEEKDAYS } from "@/lib/alerts/catalog";
import { buildDigestFacts, digestRowsFrom, digestWeek, type DigestFacts, type DigestMetric } from "@/lib/alerts/digest";
import { link, plural, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { lastWeeklySlot, nextWeeklySlot } from "@/lib/alerts/time";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

export const digestRuleParamsSchema = z.object({
  weekday: intIn({ min: 1, max: 7 }, "Weekday"),
  hour: intIn({ min: 0, max: 23 }, "Hour"),
});

/** How long after its slot a digest is still sent (Ringside was down at the hour, say). */
export const DIGEST_GRACE_MS = 6 * 3_600_000;

/** Whether the digest of a slot is due now (its time has come and not too long ago). */
export function isDigestDue(slot: number, now: number): boolean {
  return now >= slot && now - slot < DIGEST_GRACE_MS;
}

function digestLine(m: DigestMetric, def: MetricDef, ctx: MessageContext): string {
  if (m.days === 0) return `${m.label}: no data this week.`;
  const range =
    m.below || m.above
      ? [m.below ? `${plural(m.below, "day")} below` : "", m.above ? `${plural(m.above, "day")} above` : ""].filter(Boolean).join(" and ") + " your usual range"
      : "within your usual range";
  if (ctx.includeValues) {
    const fmt = (v: number | null) => formatValue(def, v, ctx.units);
    const prev = m.previous === null ? "" : ` (week before ${fmt(m.previous)})`;
    const band = m.low !== null && m.high !== null ? `; usual range ${fmt(m.low)} – ${fmt(m.high)}` : "";
    return `${m.label}: ${fmt(m.week)} on average${prev}${band}; ${range}.`;
  }
  const trend =
    m.trend === "up"
      ? "higher than the week before"
      : m.trend === "down"
        ? "lower than the week before"
        : m.trend === "same"
          ? "about the same as the week before"
          : "too few days to compare with the week before";
  return `${m.label}: ${trend}; ${range}.`;
}

export function digestMessage(facts: DigestFacts, ctx: MessageContext): AlertMessage {
  const lines: string[] = [];
  for (const m of facts.metrics) lines.push(digestLine(m, getMetric(m.metric), ctx));
  const dayText = (d: { day: string; metric: MetricId; value: number }) => {
    const def = getMetric(d.metric);
    return ctx.includeValues
      ? `${formatDay(d.day)}, ${def.label.toLowerCase()} ${formatValue(def, d.value, ctx.units)}`
      : `${formatDay(d.day)} (by ${def.label.toLowerCase()})`;
  };
  if (facts.best) lines.push("", `Best day: ${dayText(facts.best)}.`);
  if (facts.worst) lines.push(`Worst day: ${dayText(facts.worst)}.`);
  for (const section of facts.sections) lines.push("", section.line);
  if (facts.taggedDays > 0) {
    lines.push(
      "",
      ctx.includeValues
        ? `Tags this week: ${facts.tags.map((t) => `${t.name} (${plural(t.days, "day")})`).join(", ")}.`
        : `Tagged days this week: ${facts.taggedDays}.`,
    );
  }
  const url = link(ctx, `/trends?m=${DIGEST_METRICS.slice(0, 3).join(",")}&range=custom&from=${facts.from}&to=${facts.to}`);
  if (url) lines.push("", `Trends: ${url}`);
  return {
    title: `Your week: ${formatDay(facts.from)} – ${formatDay(facts.to)}`,
    body: lines.join("\n"),
    link: url,
    data: {
      from: facts.from,
      to: facts.to,
      metrics: facts.metrics.map((m) => ({
        metric: m.metric,
        trend: m.trend,
        days_below: m.below,
        days_above: m.above,
        days: m.days,
        ...(ctx.includeValues ? { values: { week: m.week, previous: m.previous, usual_low: m.low, usual_high: m.high } } : {}),
      })),
      best_day: facts.best ? { day: facts.best.day, metric: facts.best.metric, ...(ctx.includeValues ? { value: facts.best.value } : {}) } : null,
      worst_day: facts.worst ? { day: facts.worst.day, metric: facts.worst.metric, ...(ctx.includeValues ? { value: facts.worst.value } : {}) } : null,
      tagged_days: facts.taggedDays,
      ...Object.fromEntries(facts.sections.map((section) => [section.kind, section.data])),
      ...(ctx.includeValues ? { tags: facts.tags } : {}),
    },
  };
}

export const weeklyDigest = defineAlertKind({
  kind: "weekly_digest",
  label: "Weekly digest",
  params: digestRuleParamsSchema,
  form: {
    fields: [
      { type: "select", name: "weekday", label: "Weekday", options: WEEKDAYS.map((d) => ({ value: String(d.value), label: d.label })), default: "1" },
      {
        type: "select",
        name: "hour",
        label: "Hour",
        options: Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` })),
        default: "8",
      },
    ],
    note:
      "The past week against the week before and your usual range, the best and worst days, your tags, the early-warning nights, " + "and a link to Trends.",
  },
  describe(params) {
    const day = WEEKDAYS.find((d) => d.value === params.weekday)?.label ?? "?";
    return `Weekly digest on ${day} at ${String(params.hour).padStart(2, "0")}:00`;
  },
  next: (params, now, timeZone) => nextWeeklySlot(now, timeZone, params.weekday, params.hour).instant,
  watch: {
    type: "moment",
    prefix: "digest",
    purpose: "digest",
    quiet: false,
    async due(params, env) {
      const slot = lastWeeklySlot(env.now, env.timeZone, params.weekday, params.hour);
      if (!isDigestDue(slot.instant, env.now)) return null;
      return {
        key: new Date(slot.instant).toISOString(),
        async facts() {
          const week = digestWeek(slot.day);
          const from = digestRowsFrom(week);
          const rows: Record<string, DayValue<number | null>[]> = {};
          for (const id of DIGEST_METRICS) rows[id] = await env.facts.metricRows(env.userId, id, from, week.to);
          const tags = await env.facts.tags(env.userId, week.from, week.to);
          return buildDigestFacts({ week, rows, tags, sections: await env.digestSections(week) });
        },
      };
    },
  },
  message: (facts: DigestFacts, ctx) => digestMessage(facts, ctx),
  digest: null,
});
