import "server-only";
import { AppError } from "@/lib/http/errors";
import type {
  ApiCatalogResponse,
  ApiDayResponse,
  ApiDaysResponse,
  ApiStateResponse,
  ApiSyncStatusResponse,
  CalendarResponse,
  CorrelationResponse,
  NotesResponse,
  SeriesResponse,
  StrongestResponse,
  TagComparisonResponse,
  TagsResponse,
  TodayResponse,
} from "@/lib/api/contract";
import { CYCLE_DATA_KIND, DATA_KIND_LABELS, DATA_KINDS, kindOfCollection, kindOfMetric, kindsOfMetric, NOTES_KIND, type DataKind } from "@/lib/auth/api-scopes";
import type { ApiCycleResponse } from "@/lib/api/contract-cycle";
import { getCycle } from "@/lib/services/cycle";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import type { ResourceName } from "@/lib/resources";
import type { TokenPrincipal } from "@/lib/auth/api-tokens";
import { listTags } from "@/lib/db/queries/notes";
import { getMetric, HEADLINE_METRICS, METRICS, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import {
  getCalendar,
  getCorrelation,
  getDayDetail,
  getDayTable,
  getMetricSeries,
  getMetricsOverview,
  getStrongestCorrelations,
  overviewOf,
  getTodaySummary,
} from "@/lib/services/metrics";
import { getNote, getTagComparison, listNotes, listRingTags, type DayNoteWithRing, type TagRef } from "@/lib/services/tags";
import { getSyncStatus } from "@/lib/sync/status";
import { getStateDocument } from "@/lib/services/state";
import { getSignals, type SignalsResponse } from "@/lib/services/signals";
import { SIGNAL_KINDS, SIGNALS } from "@/lib/signals/catalog";
import { REPORT_METRICS, REPORT_SLEEP_CHART_METRIC, REPORT_SUMMARY_METRICS, type Report, type ReportQuery, type ReportSection } from "@/lib/metrics/report";
import { buildReport } from "@/lib/services/report";
import type { MissingNightSources } from "@/lib/services/missing-nights";

// What a personal access token reads: the same service functions as the app's pages and routes
// (so the API's figures are the pages' figures), narrowed to the token's owner and data kinds.
// The read API (/api/v1) and the MCP endpoint both read through here. A request for a kind
// the token was not given is refused (403); answers that span kinds (the catalog, Today, a
// day, the strongest relationships, sync status) leave out what the token may not read.
//
// The cycle is read only with the `cycle` kind and only while the person tracks their cycle:
// without either, a reader gets nothing derived from it (no phases, no daily_cycle_phases
// documents, no cycle fields of the signals) and the signals and normal ranges computed as for a
// person who does not track, so not even a corrected level or a band tells the phase.

type Range = { from: string; to: string };

function can(p: TokenPrincipal, kind: DataKind): boolean {
  return p.kinds.has(kind);
}

/** What the token may read now: its kinds, the cycle only while the person tracks it. */
type Readable = (kind: DataKind) => boolean;

async function readableNow(p: TokenPrincipal): Promise<Readable> {
  const cycle = can(p, CYCLE_DATA_KIND) && (await getCycleSettings(p.userId)).tracking;
  return (kind) => (kind === CYCLE_DATA_KIND ? cycle : can(p, kind));
}

/** Whether a collection's documents may be read now (the cycle's phases: the cycle kind, while tracking). */
const collectionOf = (may: Readable, collection: ResourceName) => may(kindOfCollection(collection));

/** Whether the token may read a metric: every kind it is computed from. */
function canMetric(p: TokenPrincipal, metric: MetricDef): boolean {
  return kindsOfMetric(metric).every((k) => can(p, k));
}

function requireKind(p: TokenPrincipal, kind: DataKind): void {
  if (!can(p, kind))
    throw new AppError("forbidden", `This token cannot read ${DATA_KIND_LABELS[kind].toLowerCase()} (${kind}); create one with that kind in Settings → API.`);
}

/** What the reason of a night without a main sleep may read: the token's kinds. */
function missingSources(p: TokenPrincipal): MissingNightSources {
  return { battery: can(p, "ring_battery_level"), heartRate: can(p, "heartrate"), restMode: can(p, "rest_mode_period") };
}

/** The metric, if the token may read it (403 otherwise). */
function readableMetric(p: TokenPrincipal, id: MetricId): MetricDef {
  const metric = getMetric(id);
  for (const kind of kindsOfMetric(metric)) requireKind(p, kind);
  return metric;
}

async function overviewFor(p: TokenPrincipal, may: Readable) {
  return overviewOf((await getMetricsOverview(p.userId)).ranges.filter((r) => collectionOf(may, r.collection)));
}

/** GET /api/v1/metrics */
export async function readCatalog(p: TokenPrincipal): Promise<ApiCatalogResponse> {
  return {
    ...(await overviewFor(p, await readableNow(p))),
    kinds: DATA_KINDS.map((kind) => ({ kind, label: DATA_KIND_LABELS[kind], granted: can(p, kind) })),
    metrics: METRICS.map((m) => ({
      id: m.id,
      label: m.label,
      short: m.short,
      group: m.group,
      unit: m.unit,
      kind: m.kind,
      direction: m.direction,
      decimals: m.decimals,
      dataKind: kindOfMetric(m),
      description: m.description ?? null,
      categories: m.categories ? m.categories.map((c) => ({ value: c.value, label: c.label })) : null,
      readable: canMetric(p, m),
    })),
  };
}

/** GET /api/v1/metrics/:metric (what the Trends page charts; the normal range follows the phase only for a reader of the cycle) */
export async function readSeries(p: TokenPrincipal, id: MetricId, range: Range): Promise<SeriesResponse> {
  const metric = readableMetric(p, id);
  return await getMetricSeries({ userId: p.userId, metric, ...range, cycle: (await readableNow(p))(CYCLE_DATA_KIND) });
}

/** GET /api/v1/days: the metrics asked for (default: the headline metrics the token may read) by day */
export async function readDays(p: TokenPrincipal, q: Range & { metrics?: MetricId[] }): Promise<ApiDaysResponse> {
  const metrics = q.metrics ? q.metrics.map((id) => readableMetric(p, id)) : HEADLINE_METRICS.filter((m) => canMetric(p, m));
  return await getDayTable({ userId: p.userId, metrics, from: q.from, to: q.to });
}

/** GET /api/v1/days/latest (the Today page) */
export async function readToday(p: TokenPrincipal, day?: string): Promise<TodayResponse> {
  const may = await readableNow(p);
  const t = await getTodaySummary(p.userId, day);
  const keep = <T>(rec: Partial<Record<MetricId, T>>) =>
    Object.fromEntries(Object.entries(rec).filter(([id]) => canMetric(p, getMetric(id as MetricId)))) as Partial<Record<MetricId, T>>;
  const metrics = keep(t.metrics);
  const categories = keep(t.categories);
  // the newest day of what the token may read (not of a collection it cannot see)
  const days = [...Object.values(metrics), ...Object.values(categories)].map((m) => m!.day).sort();
  return {
    day: days.at(-1) ?? null,
    metrics,
    categories,
    age: can(p, "personal_info") ? t.age : null,
    ranges: t.ranges.filter((r) => collectionOf(may, r.collection)),
    records: {
      workouts: can(p, "workout") ? t.records.workouts : [],
      sessions: can(p, "session") ? t.records.sessions : [],
      bedtime: can(p, "sleep_time") ? t.records.bedtime : null,
      restMode: can(p, "rest_mode_period") ? t.records.restMode : null,
      battery: can(p, "ring_battery_level") ? t.records.battery : null,
      ring: can(p, "ring_configuration") ? t.records.ring : null,
    },
  };
}

/** GET /api/v1/days/:day (the day page) */
export async function readDay(p: TokenPrincipal, day: string): Promise<ApiDayResponse> {
  const may = await readableNow(p);
  const d = await getDayDetail(p.userId, day, missingSources(p));
  const pick = <T>(rec: Record<string, T>) => Object.fromEntries(Object.entries(rec).filter(([c]) => collectionOf(may, c as ResourceName)));
  return {
    ...d,
    daily: pick(d.daily),
    raw: pick(d.raw),
    periods: can(p, "sleep") ? d.periods : [],
    activity: can(p, "daily_activity") ? d.activity : null,
    records: {
      offsetMinutes: d.records.offsetMinutes,
      heartRate: can(p, "heartrate") ? d.records.heartRate : [],
      workouts: can(p, "workout") ? d.records.workouts : [],
      sessions: can(p, "session") ? d.records.sessions : [],
      ringTags: can(p, "enhanced_tag") ? d.records.ringTags : [],
      bedtime: can(p, "sleep_time") ? d.records.bedtime : null,
      restMode: can(p, "rest_mode_period") ? d.records.restMode : null,
    },
    note: can(p, NOTES_KIND) ? ringTagsIfAllowed(p, await getNote({ userId: p.userId, day })) : null,
    missing_reason: can(p, "sleep") ? d.missing_reason : null,
  };
}

/** GET /api/v1/calendar */
export async function readCalendar(p: TokenPrincipal, id: MetricId, range: Range): Promise<CalendarResponse> {
  const metric = readableMetric(p, id);
  if (metric.kind === "category") throw new AppError("unprocessable_entity", "The calendar shows numeric metrics.");
  return await getCalendar({ userId: p.userId, metric, ...range, missing: can(p, "sleep") ? missingSources(p) : null });
}

/** GET /api/v1/correlations (the Correlations page's pair) */
export async function readCorrelation(p: TokenPrincipal, q: Range & { x: MetricId; y: MetricId; lag: 0 | 1 }): Promise<CorrelationResponse> {
  return await getCorrelation({ userId: p.userId, x: readableMetric(p, q.x), y: readableMetric(p, q.y), lag: q.lag, from: q.from, to: q.to });
}

/** GET /api/v1/correlations/strongest, among the headline metrics the token may read */
export async function readStrongest(p: TokenPrincipal, q: Range & { limit: number }): Promise<StrongestResponse> {
  return await getStrongestCorrelations({ userId: p.userId, ...q, include: (m) => canMetric(p, m) });
}

/** A day's note with the ring app's tags only when the token may read them (enhanced_tag). */
function ringTagsIfAllowed(p: TokenPrincipal, note: DayNoteWithRing): DayNoteWithRing {
  return can(p, "enhanced_tag") ? note : { ...note, ringTags: [] };
}

/** GET /api/v1/tags: the person's tags, and the ring app's when the token may read them */
export async function readTags(p: TokenPrincipal): Promise<TagsResponse> {
  requireKind(p, NOTES_KIND);
  return { tags: await listTags(p.userId), ringTags: can(p, "enhanced_tag") ? await listRingTags(p.userId) : [] };
}

/** GET /api/v1/tags/:id/comparison */
export async function readTagComparison(
  p: TokenPrincipal,
  id: number | TagRef,
  q: { metric: MetricId; lag: 0 | 1; from?: string; to?: string },
): Promise<TagComparisonResponse> {
  requireKind(p, NOTES_KIND);
  if (typeof id === "object" && id.kind === "ring") requireKind(p, "enhanced_tag");
  return getTagComparison({ userId: p.userId, id, metric: readableMetric(p, q.metric), lag: q.lag, from: q.from, to: q.to });
}

/** GET /api/v1/notes */
export async function readNotes(p: TokenPrincipal, range: Range): Promise<NotesResponse> {
  requireKind(p, NOTES_KIND);
  const days = (await listNotes({ userId: p.userId, ...range })).map((n) => ringTagsIfAllowed(p, n));
  return { ...range, days: days.filter((n) => n.text || n.tags.length || n.ringTags.length) };
}

/** GET /api/v1/sync/status */
export async function readSyncStatus(p: TokenPrincipal): Promise<ApiSyncStatusResponse> {
  const may = await readableNow(p);
  const s = await getSyncStatus(p.userId);
  const collections = s.collections
    .filter((c) => collectionOf(may, c.collection))
    .map((c) => ({
      collection: c.collection,
      label: c.label,
      status: c.status,
      unit: c.unit,
      documents: c.documents,
      backfillDone: c.backfillDone,
      progress: c.progress,
      lastSuccessAt: c.lastSuccessAt,
      newestDay: c.newestDay,
      oldestDay: c.oldestDay,
    }));
  return { running: s.running, account: s.account, lastSuccessAt: s.lastSuccessAt, rateLimitedUntil: s.rateLimitedUntil, collections };
}

/** GET /api/v1/state: each value only when the token may read its kind (null otherwise; the cycle absent) */
export async function readState(p: TokenPrincipal): Promise<ApiStateResponse> {
  return await getStateDocument(p.userId, await readableNow(p));
}

/**
 * GET /api/v1/signals: the signals whose data kinds the token has all of (403 with none); the
 * early warning judged against the cycle, and saying so, only for a reader of the cycle.
 */
export async function readSignals(p: TokenPrincipal, range: Range): Promise<SignalsResponse> {
  const kinds = SIGNAL_KINDS.filter((k) => SIGNALS[k].reads.every((c) => can(p, kindOfCollection(c))));
  if (kinds.length === 0) {
    throw new AppError(
      "forbidden",
      `This token can read none of the signals: each needs its data kinds (${SIGNAL_KINDS.map((k) => `${k}: ${SIGNALS[k].reads.join(", ")}`).join("; ")}).`,
    );
  }
  return await getSignals({ userId: p.userId, ...range, kinds, cycle: (await readableNow(p))(CYCLE_DATA_KIND) });
}

/** GET /api/v1/cycle: the owner's cycle by day (403 without the cycle kind; no rows while their tracking is off) */
export async function readCycle(p: TokenPrincipal, range: Range): Promise<ApiCycleResponse> {
  requireKind(p, CYCLE_DATA_KIND);
  const { temperature: _nights, ...cycle } = await getCycle({ userId: p.userId, ...range });
  return cycle;
}

/** The kinds of some metrics and signals, and any others, once each, in DATA_KINDS order. */
function kindsOf(metrics: readonly MetricId[], signals: readonly (keyof typeof SIGNALS)[], others: readonly DataKind[] = []): readonly DataKind[] {
  const all = new Set<DataKind>([
    ...metrics.flatMap((id) => kindsOfMetric(getMetric(id))),
    ...signals.flatMap((k) => SIGNALS[k].reads.map(kindOfCollection)),
    ...others,
  ]);
  return DATA_KINDS.filter((k) => all.has(k));
}

/** The data kinds each section of the report draws on (a token needs every kind of the sections it asks for). */
export const REPORT_SECTION_KINDS: Readonly<Record<ReportSection, readonly DataKind[]>> = {
  summary: kindsOf([...REPORT_SUMMARY_METRICS, REPORT_SLEEP_CHART_METRIC], ["early_warning", "sleep_debt", "regularity"], ["personal_info"]),
  charts: kindsOf(REPORT_METRICS, ["training_load"]),
  events: kindsOf([], [], ["workout", "session", "rest_mode_period"]),
  methods: kindsOf([], [], ["ring_configuration"]),
  notes: kindsOf([], [], ["enhanced_tag", NOTES_KIND]),
  // the person's tags (the ring app's too when the token may read them, as GET /api/v1/tags)
  tags: [NOTES_KIND],
  cycle: [CYCLE_DATA_KIND],
};

/** GET /api/v1/report: the report of the sections asked for, when the token holds every kind they draw on (403 naming the missing ones). */
export async function readReport(p: TokenPrincipal, q: ReportQuery): Promise<Report> {
  const missing = DATA_KINDS.filter((k) => !can(p, k) && q.sections.some((s) => REPORT_SECTION_KINDS[s].includes(k)));
  if (missing.length > 0) {
    throw new AppError(
      "forbidden",
      `This report needs every data kind its sections draw on; this token lacks ${missing.join(", ")}. Create a token with them in Settings → API.`,
    );
  }
  return await buildReport(p.userId, q, { ringTags: can(p, "enhanced_tag") });
}
