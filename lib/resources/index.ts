// The resource registry: every resource of the ring service that Ringside stores, declared
// once (one file per resource). Everything else derives from it:
//   lib/ring/schemas.ts        the zod parsers (each entry's `schema`) and the closed lists
//   lib/sync/map.ts            document → row (each entry's `columns`)
//   prisma/schema.prisma       the ring-data models (prisma/generate-models.ts)
//   lib/db/queries/*           table names, upsert and conflict keys
//   lib/auth/scopes.ts         which scope shares what
//   lib/sync/plan.ts, engine   which collections to list and how to ask for a window
//   lib/sync/subscriptions.ts  the webhook data types
//   lib/metrics/catalog.ts     the chartable metrics
// Pure data, safe in the browser (the catalog uses it): no zod at run time, no server-only.
//
// Adding a resource: write lib/resources/<name>.ts, add it to RESOURCES below, run
// `npm run db:models` (rewrites the models in prisma/schema.prisma) and create the migration.
import { dailyActivity } from "@/lib/resources/daily-activity";
import { dailyCardiovascularAge } from "@/lib/resources/daily-cardiovascular-age";
import { dailyCyclePhases } from "@/lib/resources/daily-cycle-phases";
import { dailyReadiness } from "@/lib/resources/daily-readiness";
import { dailyResilience } from "@/lib/resources/daily-resilience";
import { dailySleep } from "@/lib/resources/daily-sleep";
import { dailySpo2 } from "@/lib/resources/daily-spo2";
import { dailyStress } from "@/lib/resources/daily-stress";
import { enhancedTag } from "@/lib/resources/enhanced-tag";
import { heartRate } from "@/lib/resources/heartrate";
import { personalInfo } from "@/lib/resources/personal-info";
import { restModePeriod } from "@/lib/resources/rest-mode-period";
import { ringBatteryLevel } from "@/lib/resources/ring-battery-level";
import { ringConfiguration } from "@/lib/resources/ring-configuration";
import { session } from "@/lib/resources/session";
import { sleepPeriods } from "@/lib/resources/sleep";
import { sleepTime } from "@/lib/resources/sleep-time";
import { ringTag } from "@/lib/resources/tag";
import { vo2Max } from "@/lib/resources/vo2-max";
import { workout } from "@/lib/resources/workout";
import type { ColumnDef, Resource, SampleSpec } from "@/lib/resources/define";

/** In the order the pages list them (freshness chips, export, pickers). */
export const RESOURCES = [
  dailySleep,
  dailyReadiness,
  dailyActivity,
  dailySpo2,
  dailyStress,
  dailyResilience,
  dailyCardiovascularAge,
  sleepPeriods,
  heartRate,
  workout,
  session,
  vo2Max,
  sleepTime,
  restModePeriod,
  enhancedTag,
  ringTag,
  ringConfiguration,
  ringBatteryLevel,
  dailyCyclePhases,
  personalInfo,
] as const;

type AnyResource = (typeof RESOURCES)[number];
export type ResourceName = AnyResource["name"];

/** The resources listed as documents (daily documents, periods, events): fetched page by page. */
type ListResource = Extract<AnyResource, { kind: "daily" | "period" | "event" }>;
export type RingCollection = ListResource["name"];
export type DailyCollection = Extract<AnyResource, { kind: "daily" }>["name"];
export type EventCollection = Extract<AnyResource, { kind: "event" }>["name"];
/** The time series (heart rate, ring battery): samples fetched by date-time windows. */
type SeriesResource = Extract<AnyResource, { kind: "time_series" }>;
export type SeriesCollection = SeriesResource["name"];
/** Everything the sync engine fetches (documents and time series): one sync state each. */
export type SyncCollection = RingCollection | SeriesCollection;

export type ResourceOf<N extends ResourceName> = Extract<AnyResource, { name: N }>;

const BY_NAME = new Map<string, AnyResource>(RESOURCES.map((r) => [r.name, r]));

export function getResource<N extends ResourceName>(name: N): ResourceOf<N> {
  return BY_NAME.get(name) as ResourceOf<N>;
}

function isListResource(r: AnyResource): r is ListResource {
  return r.kind === "daily" || r.kind === "period" || r.kind === "event";
}

function isSeriesResource(r: AnyResource): r is SeriesResource {
  return r.kind === "time_series";
}

/** The collections Ringside lists and stores page by page, in registry order. */
export const RING_COLLECTIONS: readonly RingCollection[] = RESOURCES.filter(isListResource).map((r) => r.name);
export const DAILY_COLLECTIONS: readonly DailyCollection[] = RESOURCES.flatMap((r) => (r.kind === "daily" ? [r.name] : []));
export const EVENT_COLLECTIONS: readonly EventCollection[] = RESOURCES.flatMap((r) => (r.kind === "event" ? [r.name] : []));
/** The time series, in registry order. */
export const SERIES_COLLECTIONS: readonly SeriesCollection[] = RESOURCES.filter(isSeriesResource).map((r) => r.name);
/** Every collection the sync engine fetches, in registry order. */
export const SYNC_COLLECTIONS: readonly SyncCollection[] = RESOURCES.flatMap((r) => (isListResource(r) || isSeriesResource(r) ? [r.name] : []));

export function isRingCollection(value: string): value is RingCollection {
  const r = BY_NAME.get(value);
  return r !== undefined && isListResource(r);
}

export function isSeriesCollection(value: string): value is SeriesCollection {
  const r = BY_NAME.get(value);
  return r !== undefined && isSeriesResource(r);
}

export function isSyncCollection(value: string): value is SyncCollection {
  return isRingCollection(value) || isSeriesCollection(value);
}

/** A time series' sample fields and key. */
export function sampleSpecOf(name: SeriesCollection): SampleSpec {
  const spec = getResource(name).sample;
  if (!spec) throw new Error(`${name}: a time series without its sample fields`);
  return spec;
}

/** The collection a webhook `data_type` is about, if Ringside stores it. */
export function collectionForWebhookDataType(dataType: string): RingCollection | null {
  for (const r of RESOURCES) if (isListResource(r) && r.webhookDataType === dataType) return r.name;
  return null;
}

/** Every webhook data type Ringside subscribes to. */
export const WEBHOOK_DATA_TYPES: readonly string[] = RESOURCES.flatMap((r) => (r.webhookDataType ? [r.webhookDataType] : []));

/** The table a resource is stored in. */
export function tableOf(name: ResourceName): string {
  return getResource(name).table;
}

/** The typed columns of a resource (besides the key columns and the raw JSON). */
export function columnsOf(name: ResourceName): readonly ColumnDef[] {
  return getResource(name).columns;
}

/** A resource's table as Prisma calls it (the model name): daily_sleep → DailySleep. */
export function modelName(r: Pick<Resource, "table">): string {
  return r.table
    .split("_")
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("");
}
