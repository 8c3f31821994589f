// Rule evaluation and episodes. Pure: each rule's condition is computed from facts the caller
// read (the metric's days, the newest night, the connection's state) and the time it is now,
// with the baseline band and run maths of lib/metrics. An episode is the stretch during which
// a condition holds: it opens (and is sent) once, stays open while the condition holds, and
// ends when the condition clears, so a person hears about each stretch once, never each poll.
import { clampToMetric, type MetricDef } from "@/lib/metrics/catalog";
import { addDays, diffDays } from "@/lib/metrics/days";
import { toDense, type DayValue } from "@/lib/metrics/series";
import { BASELINE_DAYS, computeSeriesStats, type AnomalyFlag } from "@/lib/metrics/stats";
import type { ConnectionRuleParams, MetricRuleParams, NoSleepRuleParams } from "@/lib/alerts/schemas";

/**
 * What a rule says now. "unknown" (data too old or missing to tell) changes nothing: an open
 * episode stays open, none is opened.
 */
export type Condition<F = unknown> = { state: "inactive" } | { state: "unknown" } | { state: "active"; key: string; facts: F };

/** Metric data older than this many days before today tells nothing about now. */
export const METRIC_STALE_DAYS = 2;

/** The days of rows a metric rule needs before `today`: the run, the baseline before it, slack for gaps. */
export function metricRuleWindow(today: string, days: number): { from: string; to: string } {
  return { from: addDays(today, -(BASELINE_DAYS + days + METRIC_STALE_DAYS + 7)), to: today };
}

export type MetricFacts = {
  side: "low" | "high";
  /** first and last day of the run of out-of-range days */
  from: string;
  to: string;
  /** days in the run (≥ the rule's days) */
  days: number;
  latest: number;
  /** the usual range of the latest day (clipped to the metric's natural bounds) */
  low: number;
  high: number;
};

/**
 * "A metric outside its usual range for N days in a row": the newest day with a value and the
 * N − 1 days before it each lie outside their baseline band (mean ± 2 SD of the 90 days before
 * each), on the same side, with no gap; `side` below/above/either picks which side counts.
 */
export function evaluateMetricRule(
  metric: MetricDef,
  params: MetricRuleParams,
  rows: readonly DayValue<number | null>[],
  today: string,
): Condition<MetricFacts> {
  const { from } = metricRuleWindow(today, params.days);
  const dense = toDense(rows, from, today);
  let last = dense.length - 1;
  while (last >= 0 && (dense[last] === null || dense[last] === undefined)) last--;
  if (last < 0 || dense.length - 1 - last > METRIC_STALE_DAYS) return { state: "unknown" };
  const stats = computeSeriesStats(dense);
  const flag: AnomalyFlag = stats.flag[last] ?? null;
  if (flag === null) return stats.baseMean[last] === null ? { state: "unknown" } : { state: "inactive" };
  const wanted = params.side === "either" || (params.side === "below" ? flag === "low" : flag === "high");
  if (!wanted) return { state: "inactive" };
  let first = last;
  while (first - 1 >= 0 && stats.flag[first - 1] === flag) first--;
  const run = last - first + 1;
  if (run < params.days) return { state: "inactive" };
  const low = stats.baseLow[last];
  const high = stats.baseHigh[last];
  return {
    state: "active",
    key: flag,
    facts: {
      side: flag,
      from: addDays(from, first),
      to: addDays(from, last),
      days: run,
      latest: dense[last] as number,
      low: low === null || low === undefined ? Number.NaN : clampToMetric(metric, low),
      high: high === null || high === undefined ? Number.NaN : clampToMetric(metric, high),
    },
  };
}

export type NoSleepFacts = { newestNight: string; daysWithout: number };

/**
 * "No new night of sleep for N days": the newest night Ringside holds is N or more days before
 * the person's today (the ring's day of a night is the day it ends). Without any night at all
 * there is nothing to compare (a fresh connection): unknown.
 */
export function evaluateNoSleepRule(params: NoSleepRuleParams, newestNight: string | null, today: string): Condition<NoSleepFacts> {
  if (!newestNight) return { state: "unknown" };
  const daysWithout = diffDays(newestNight, today);
  return daysWithout >= params.days ? { state: "active", key: "no_sleep", facts: { newestNight, daysWithout } } : { state: "inactive" };
}

export type ConnectionCollectionFacts = {
  collection: string;
  status: string;
  lastSuccessAt: number | null;
  lastAttemptAt: number | null;
  lastError: string | null;
};

export type ConnectionFactsInput = {
  /** the ring account's status, null without one */
  status: string | null;
  /** when the access was last granted or renewed (for collections that never synced) */
  since: number | null;
  collections: readonly ConnectionCollectionFacts[];
};

export type ConnectionFacts = { reason: "reconnect" } | { reason: "failing"; since: number; hours: number; collections: string[] };

/** Collection states that are the person's choice or the membership, not a failing sync. */
const NOT_FAILING = new Set(["not_shared", "expired", "paused"]);

/**
 * "The connection needs attention": the ring service refused the stored access (needs a
 * reconnect) — at once; or a collection's sync has been failing, with no success since, for N
 * hours. A disconnected account raises nothing (the person chose it).
 */
export function evaluateConnectionRule(params: ConnectionRuleParams, input: ConnectionFactsInput, now: number): Condition<ConnectionFacts> {
  if (!input.status || input.status === "disconnected") return { state: "inactive" };
  if (input.status === "needs_reconnect") return { state: "active", key: "reconnect", facts: { reason: "reconnect" } };
  const limit = params.hours * 3_600_000;
  let since = Number.POSITIVE_INFINITY;
  const failing: string[] = [];
  for (const c of input.collections) {
    if (!c.lastError || NOT_FAILING.has(c.status)) continue;
    if ((c.lastAttemptAt ?? 0) < (c.lastSuccessAt ?? 0)) continue;
    const start = c.lastSuccessAt ?? input.since;
    if (start === null || now - start < limit) continue;
    failing.push(c.collection);
    since = Math.min(since, start);
  }
  if (failing.length === 0) return { state: "inactive" };
  return { state: "active", key: "failing", facts: { reason: "failing", since, hours: Math.floor((now - since) / 3_600_000), collections: failing.sort() } };
}

/** What to do with a rule's episode, given the open one (if any) and the condition now. */
export type EpisodeStep =
  { action: "none" } | { action: "keep" } | { action: "open"; key: string } | { action: "end" } | { action: "end_and_open"; key: string };

export function nextEpisodeStep(open: { key: string } | null, condition: Condition): EpisodeStep {
  if (condition.state === "unknown") return open ? { action: "keep" } : { action: "none" };
  if (condition.state === "inactive") return open ? { action: "end" } : { action: "none" };
  if (!open) return { action: "open", key: condition.key };
  return open.key === condition.key ? { action: "keep" } : { action: "end_and_open", key: condition.key };
}

/** How long after its slot a digest is still sent (Ringside was down at the hour, say). */
export const DIGEST_GRACE_MS = 6 * 3_600_000;

/** Whether the digest of a slot is due now (its time has come and not too long ago). */
export function isDigestDue(slot: number, now: number): boolean {
  return now >= slot && now - slot < DIGEST_GRACE_MS;
}
