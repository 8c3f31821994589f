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
import { dailyReadiness } from "@/lib/resources/daily-readiness";
import { dailyResilience } from "@/lib/resources/daily-resilience";
import { dailySleep } from "@/lib/resources/daily-sleep";
import { dailySpo2 } from "@/lib/resources/daily-spo2";
import { dailyStress } from "@/lib/resources/daily-stress";
import { personalInfo } from "@/lib/resources/personal-info";
import { sleepPeriods } from "@/lib/resources/sleep";
import type { ColumnDef, Resource } from "@/lib/resources/define";

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
  personalInfo,
] as const;

type AnyResource = (typeof RESOURCES)[number];
export type ResourceName = AnyResource["name"];

/** The resources listed by date window (daily documents and periods): what a backfill fetches. */
type ListResource = Extract<AnyResource, { kind: "daily" | "period" }>;
export type RingCollection = ListResource["name"];
export type DailyCollection = Extract<AnyResource, { kind: "daily" }>["name"];

export type ResourceOf<N extends ResourceName> = Extract<AnyResource, { name: N }>;

const BY_NAME = new Map<string, AnyResource>(RESOURCES.map((r) => [r.name, r]));

export function getResource<N extends ResourceName>(name: N): ResourceOf<N> {
  return BY_NAME.get(name) as ResourceOf<N>;
}

function isListResource(r: AnyResource): r is ListResource {
  return r.kind === "daily" || r.kind === "period";
}

/** The collections Ringside lists and stores page by page, in registry order. */
export const RING_COLLECTIONS: readonly RingCollection[] = RESOURCES.filter(isListResource).map((r) => r.name);
export const DAILY_COLLECTIONS: readonly DailyCollection[] = RESOURCES.flatMap((r) => (r.kind === "daily" ? [r.name] : []));

export function isRingCollection(value: string): value is RingCollection {
  const r = BY_NAME.get(value);
  return r !== undefined && isListResource(r);
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
