// The words of every alert, digest and test: a title, a plain-text body, a link into
// Ringside and the same facts as JSON for webhooks. Pure. Health values (and tag names) go
// into a message only when the person ticked "include values"; without it a message says what
// happened (which metric, which side, how many days) and never a number the ring measured.
import { findMetric, getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/metrics/days";
import { formatValue, type Units } from "@/lib/metrics/format";
import type { DigestFacts, DigestMetric } from "@/lib/alerts/digest";
import { digestEarlyWarningLine } from "@/lib/alerts/early-warning";
import type { ConnectionFacts, MetricFacts, NoSleepFacts } from "@/lib/alerts/evaluate";
import type { BatteryFacts, BedtimeFacts } from "@/lib/alerts/evaluate-ring";
import { BEDTIME_RECOMMENDATIONS, labelOf } from "@/lib/metrics/sources";
import { ALERT_RULE_LABELS, DIGEST_METRICS, WEEKDAYS, type AlertRuleKind } from "@/lib/alerts/catalog";

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

function link(ctx: MessageContext, path: string): string | null {
  return ctx.linkBase ? `${ctx.linkBase.replace(/\/+$/, "")}${path}` : null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function withLink(body: string, url: string | null): string {
  return url ? `${body}\n\n${url}` : body;
}

export function metricAlertMessage(metric: MetricDef, facts: MetricFacts, ctx: MessageContext): AlertMessage {
  const side = facts.side === "low" ? "below" : "above";
  const url = link(ctx, `/trends?m=${encodeURIComponent(metric.id)}&range=30d`);
  let body = `${metric.label} has been ${side} your usual range for ${plural(facts.days, "day")} in a row (${formatDay(facts.from)} – ${formatDay(facts.to)}).`;
  if (ctx.includeValues) {
    body += ` Latest: ${formatValue(metric, facts.latest, ctx.units)}; usual range ${formatValue(metric, facts.low, ctx.units)} – ${formatValue(metric, facts.high, ctx.units)}.`;
  }
  return {
    title: `${metric.label} ${side} your usual range`,
    body: withLink(body, url),
    link: url,
    data: {
      metric: metric.id,
      side,
      from: facts.from,
      to: facts.to,
      days: facts.days,
      ...(ctx.includeValues ? { values: { latest: facts.latest, usual_low: facts.low, usual_high: facts.high } } : {}),
    },
  };
}

export function noSleepMessage(facts: NoSleepFacts, ctx: MessageContext): AlertMessage {
  const url = link(ctx, "/sync");
  return {
    title: `No new night of sleep for ${plural(facts.daysWithout, "day")}`,
    body: withLink(
      `The newest night Ringside has is ${formatDay(facts.newestNight)}. Open the ring app on your phone so the ring can sync; Ringside picks the nights up after that.`,
      url,
    ),
    link: url,
    data: { newest_night: facts.newestNight, days_without: facts.daysWithout },
  };
}

function formatInstant(instant: number, timeZone: string): string {
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

export function connectionMessage(facts: ConnectionFacts, ctx: MessageContext): AlertMessage {
  if (facts.reason === "reconnect") {
    const url = link(ctx, "/settings");
    return {
      title: "Reconnect your ring to Ringside",
      body: withLink(
        "The ring service no longer accepts Ringside's access, so syncing is paused. Reconnect in Settings → Connection; all your stored data is kept.",
        url,
      ),
      link: url,
      data: { reason: "reconnect" },
    };
  }
  const url = link(ctx, "/sync");
  return {
    title: `Sync failing for ${plural(facts.hours, "hour")}`,
    body: withLink(
      `Ringside has not been able to sync ${facts.collections.join(", ")} since ${formatInstant(facts.since, ctx.timeZone)}. It keeps retrying; the Sync page says why.`,
      url,
    ),
    link: url,
    data: { reason: "failing", since: new Date(facts.since).toISOString(), hours: facts.hours, collections: facts.collections },
  };
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
  if (facts.earlyWarning) lines.push("", digestEarlyWarningLine(facts.earlyWarning));
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
      ...(facts.earlyWarning ? { early_warning: facts.earlyWarning.nights } : {}),
      ...(ctx.includeValues ? { tags: facts.tags } : {}),
    },
  };
}

/** "22:15" in the person's time zone. */
function clockTime(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(instant));
}

/** The battery level is a reading of the ring: in the words only when values are included. */
export function batteryLowMessage(facts: BatteryFacts, ctx: MessageContext): AlertMessage {
  return batteryMessage(facts, ctx, {
    title: ctx.includeValues ? `Ring battery at ${facts.level} %` : "Ring battery low",
    body: ctx.includeValues
      ? `Your ring's battery was at ${facts.level} % at ${clockTime(facts.at, ctx.timeZone)} (your alert: ${facts.threshold} % or less) and it is not charging. Put it on the charger.`
      : `Your ring's battery is at or under ${facts.threshold} % and it is not charging. Put it on the charger.`,
  });
}

export function chargedMessage(facts: BatteryFacts, ctx: MessageContext): AlertMessage {
  return batteryMessage(facts, ctx, {
    title: ctx.includeValues ? `Ring charged to ${facts.level} %` : "Ring charged",
    body: ctx.includeValues
      ? `Your ring was at ${facts.level} % on the charger at ${clockTime(facts.at, ctx.timeZone)}. Put it back on so it keeps measuring.`
      : `Your ring has reached ${facts.threshold} % on the charger. Put it back on so it keeps measuring.`,
  });
}

/** A battery alert (low, charged): its words, the link to Today, and the threshold, time and (with values) level as data. */
function batteryMessage(facts: BatteryFacts, ctx: MessageContext, words: { title: string; body: string }): AlertMessage {
  const url = link(ctx, "/");
  return {
    title: words.title,
    body: withLink(words.body, url),
    link: url,
    data: { threshold: facts.threshold, at: new Date(facts.at).toISOString(), ...(ctx.includeValues ? { values: { level: facts.level } } : {}) },
  };
}

/** The window is the ring's guidance, not a measurement: its times are always in the message. */
export function bedtimeMessage(facts: BedtimeFacts, ctx: MessageContext): AlertMessage {
  const url = link(ctx, `/day/${facts.day}`);
  const from = clockTime(facts.window.start, ctx.timeZone);
  const to = clockTime(facts.window.end, ctx.timeZone);
  const advice = facts.recommendation ? ` The ring's advice: ${labelOf(BEDTIME_RECOMMENDATIONS, facts.recommendation).toLowerCase()}.` : "";
  return {
    title: `Bedtime window open: ${from} – ${to}`,
    body: withLink(`Your recommended bedtime window is open from ${from} to ${to} tonight.${advice}`, url),
    link: url,
    data: {
      day: facts.day,
      start: new Date(facts.window.start).toISOString(),
      end: new Date(facts.window.end).toISOString(),
      recommendation: facts.recommendation,
    },
  };
}

export function testMessage(ctx: MessageContext): AlertMessage {
  const url = link(ctx, "/settings#alerts");
  return {
    title: "Test from Ringside",
    body: withLink("This channel works: the alerts and digests you set up in Settings → Alerts arrive here.", url),
    link: url,
    data: {},
  };
}

/** A rule's test: which rule, what sets it off, and where the real alerts will arrive. */
export function ruleTestMessage(kind: AlertRuleKind, description: string, ctx: MessageContext): AlertMessage {
  const url = link(ctx, "/settings#alerts");
  return {
    title: `Test from Ringside: ${ALERT_RULE_LABELS[kind].toLowerCase()}`,
    body: withLink(`This is a test of your rule “${description}”. When it happens, the alert arrives here like this one.`, url),
    link: url,
    data: { rule: kind },
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
      `Someone using Ringside${where} wants to send alerts to this address. If that was you, enter this code in Settings → Alerts within 24 hours:\n\n    ${code}\n\n` +
      "If it was not you, ignore this message: nothing more is sent here unless the code is entered.",
    link: null,
    data: {},
  };
}

/** A short description of a rule for Settings and the history. */
export function describeRule(kind: AlertRuleKind, params: Record<string, unknown>): string {
  switch (kind) {
    case "metric_out_of_range": {
      const m = findMetric(String(params.metric));
      const side = params.side === "below" ? "below" : params.side === "above" ? "above" : "outside";
      return `${m?.label ?? String(params.metric)} ${side} the usual range ${plural(Number(params.days), "day")} in a row`;
    }
    case "no_new_sleep":
      return `No new night of sleep for ${plural(Number(params.days), "day")}`;
    case "connection":
      return `Reconnect needed, or sync failing for ${plural(Number(params.hours), "hour")}`;
    case "weekly_digest": {
      const day = WEEKDAYS.find((d) => d.value === Number(params.weekday))?.label ?? "?";
      return `Weekly digest on ${day} at ${String(params.hour).padStart(2, "0")}:00`;
    }
    case "ring_battery_low":
      return `Ring battery at or under ${Number(params.level)} %, not charging`;
    case "ring_charged":
      return `Ring charged to ${Number(params.level)} % on the charger`;
    case "bedtime_window":
      return "When tonight's recommended bedtime window opens";
    case "early_warning":
      return params.level === "watch" ? "Early warning: watch or likely" : "Early warning: likely";
  }
}
