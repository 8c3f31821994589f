// The shape of one entry of the resource registry (lib/resources/index.ts). Pure data plus
// one function (`schema`) that builds the entry's zod schema from a kit the server passes in:
// this module and the entries import zod as a type only, so the metric catalog, which the
// browser uses, derives from the registry without bringing zod into the page.
import type { z } from "zod";
import type { RingScope } from "@/lib/resources/scopes";

/**
 * daily: one document per day (daily_*, VO2 max, bedtime guidance); period: sleep periods (a
 * day and a span; the night and nap metrics read them); event: any number of documents a day,
 * or none (workouts, sessions, tags, rest mode, the ring's configuration); time_series: samples
 * with timestamps (heart rate, ring battery), stored packed per person and UTC day; snapshot:
 * one document per person, replaced on each fetch (personal_info).
 */
export type ResourceKind = "daily" | "period" | "event" | "time_series" | "snapshot";

/** How the service treats one bound of a date filter on this route (ring-api-facts §2.4). */
export type Inclusivity = "inclusive" | "exclusive" | "conflicting";

/**
 * The route's date filter: `start_date`/`end_date` (days) as the service observably treats
 * them. The sandbox is end-exclusive on every route whatever this says.
 */
export type DateWindowRule = { param: "date"; start: Inclusivity; end: Inclusivity };

/** A list route without a date filter (ring_configuration: `next_token` and `fields` only). */
export type NoWindow = { param: "none" };

/**
 * A time series' filter: `start_datetime`/`end_datetime` (instants). The emulator reads both
 * bounds inclusively (a sample on a boundary comes twice when windows meet: de-duplicated);
 * `maxDays` is the window a client asks for at a time (facts §2.4: clients chunk 30 days).
 */
export type DateTimeWindowRule = { param: "datetime"; start: Inclusivity; end: Inclusivity; maxDays: number };

/** int and float are numbers (INTEGER/REAL), text a string, bool stored as 0/1. */
export type ColumnType = "int" | "float" | "text" | "bool";

/** One value of one of the service's closed lists, with how Ringside shows it. */
export type CategoryDef = {
  value: string;
  label: string;
  /** CSS colour, from a variable in app/globals.css (only for lists that are charted) */
  color?: string;
};

/**
 * Where a column's value comes from: a dotted path in the document (default: the column's
 * name), or the seconds between two of its timestamps (a workout's or session's duration).
 */
export type ColumnSource = string | { secondsBetween: readonly [start: string, end: string] };

export type ColumnDef<N extends string = string> = {
  name: N;
  type: ColumnType;
  /** where the value is in the document (default: the field of the column's name) */
  from?: ColumnSource;
  /**
   * The closed list the service documents for this field, in the order charts use (worst
   * first). A value not in it is stored as null (unknown) and logged once; the raw JSON keeps it.
   */
  categories?: readonly CategoryDef[];
};

/** score: 0–100 score; duration: seconds; count: whole things; temperature_deviation: °C from
 * the person's norm; category: one of a fixed list; measure: any other physical quantity. */
export type MetricKind = "score" | "duration" | "count" | "temperature_deviation" | "category" | "measure";
/** Whether a higher value is better, worse, or neither (shown neutrally). */
export type Direction = "higher" | "lower" | "neutral";
export type Unit = "score" | "s" | "steps" | "kcal" | "m" | "%" | "bpm" | "ms" | "°C" | "/min" | "m/s" | "years" | "MET" | "MET·min" | "ml/kg/min" | "count";

/** What a chart needs to know about a metric, besides where its value comes from. */
export type MetricDisplay = {
  label: string;
  /** shorter label for tight spaces (chips, axis titles); default: the label without " (contributor)" */
  short?: string;
  /** heading the metric is listed under in pickers */
  group: string;
  unit: Unit;
  direction: Direction;
  kind: MetricKind;
  /** decimals worth showing in the stored unit (default 0) */
  decimals?: number;
  /** durations: shown in hours or minutes */
  durationIn?: "h" | "min";
  /** a contributor to one of the scores */
  isContributor?: boolean;
  /** one of the few metrics that summarise a day; used for pickers' defaults and the
   * "strongest relationships" search */
  isHeadline?: boolean;
  description?: string;
  /** values can be negative (a difference), so no lower bound of 0 */
  isSigned?: boolean;
};

/**
 * Where a metric's value comes from. Daily resources: a column of the day's document.
 * Period resources: a column of the day's main sleep (`night`), or an aggregate over the
 * day's other periods (`naps`). Event resources: the sum of a column over the day's documents
 * (`sum`), 0 on a day that has a document of `zeroOn` but no event (a worn day without a
 * workout had 0 workout minutes). Time series: an aggregate of one sample field over the
 * person's local day, counting only samples whose `only.field` is one of `only.values`.
 */
export type MetricFrom<Col extends string> =
  | { column: Col }
  | { night: Col }
  | { naps: "total_sleep" | "count" }
  | { sum: Col; zeroOn?: "daily_activity" }
  | { samples: "mean" | "min"; field: string; only?: { field: string; values: readonly string[] } };

export type MetricSpec<Col extends string = string> = MetricDisplay & { from: MetricFrom<Col> };

/** The zod building blocks the server hands to each entry's `schema` (lib/ring/schemas.ts). */
export type SchemaKit = {
  z: typeof z;
  /** a day "YYYY-MM-DD" */
  day: z.ZodString;
  /** a required, non-empty document id */
  id: z.ZodString;
  num: z.ZodNumber;
  optNum: z.ZodOptional<z.ZodNullable<z.ZodNumber>>;
  text: z.ZodString;
  optText: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  /** a field of one of the service's closed lists: any bounded string (new values are kept) */
  openEnum: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  /** PublicSample, items passed through unchecked (kept in the raw JSON only) */
  sample: z.ZodType<{ interval: number; items: unknown[]; timestamp: string }>;
  /** a loose object of optional numbers, one per name (contributors) */
  optNumbers<const K extends string>(names: readonly K[]): z.ZodObject<{ [P in K]: z.ZodOptional<z.ZodNullable<z.ZodNumber>> }, z.core.$loose>;
  /** a dated document: a loose object with the required `id` and `day`, and these fields */
  document<S extends z.ZodRawShape>(fields: S): z.ZodObject<{ id: z.ZodString; day: z.ZodString } & S, z.core.$loose>;
};

/** Daily documents and periods unless an entry says otherwise: both bounds of a date filter inclusive. */
const INCLUSIVE_DATES: DateWindowRule = { param: "date", start: "inclusive", end: "inclusive" };

/** One field of a time series' sample besides its `timestamp`: int (whole numbers, ±32,767), bool, or text (a few distinct values). */
export type SampleField = { name: string; type: "int" | "bool" | "text"; categories?: readonly CategoryDef[] };

/** A time series' samples: their fields and what a sample is unique by besides its instant. */
export type SampleSpec = { fields: readonly SampleField[]; key: readonly string[] };

type Key = "documentId" | "day" | "person";
type WindowOf<Kind extends ResourceKind> = Kind extends "snapshot"
  ? null
  : Kind extends "time_series"
    ? DateTimeWindowRule
    : Kind extends "event"
      ? DateWindowRule | NoWindow
      : DateWindowRule;

export type ResourceInput<
  Name extends string,
  Kind extends ResourceKind,
  Cols extends readonly ColumnDef[],
  Metrics extends Record<string, MetricSpec<Cols[number]["name"]>>,
  Schema extends z.ZodType,
> = {
  /** the route and collection name at the service (`/v2/usercollection/<name>`) */
  name: Name;
  /** the OpenAPI 1.37 model of one document, which `schema` follows (the conformance checks validate against it) */
  openapiModel: string;
  /** SQLite table; default: the name. The Prisma model is its PascalCase. */
  table?: string;
  kind: Kind;
  /** what the resource is called on the pages (freshness chips, export, sync progress) */
  label: string;
  /** its charts' colour: a CSS variable of app/globals.css (a snapshot is not charted) */
  color: Kind extends "snapshot" ? null : string;
  /** what the person shares by sharing it (Settings' scope list) */
  sharedLabel: string;
  /** the consent scope the service requires for it (403 without) */
  scope: RingScope;
  /** the webhook `data_type` that announces its changes; null when there is none (default: the name; a snapshot: none) */
  webhookDataType?: string | null;
  /** list routes: the observed semantics of the date filter (default: both bounds inclusive; a snapshot has none) */
  window?: WindowOf<Kind>;
  /**
   * The document field that holds its day (default `day`; `start_day` for tags and rest mode);
   * null for documents of no day (the ring's configuration). Time series: the UTC day of a sample.
   */
  dayField?: string | null;
  /** time series: the fields of a sample (the `schema` is then one sample row's) */
  sample?: Kind extends "time_series" ? SampleSpec : never;
  /**
   * What a stored document is unique by (besides the person): its `id` (the default), or its
   * `day` where the real service may omit the id (cardiovascular age, facts §3.7); a snapshot is
   * one per person.
   */
  key?: Key;
  /** a note on the Prisma model (why the key differs, …) */
  note?: string;
  /**
   * The file of the ring maker's account export that holds these documents, as the import
   * matches names (lower case, letters and digits only, no `oura` prefix). Default: the name
   * that way (`daily_sleep` → `dailysleep`); null for a snapshot (not imported from the export).
   */
  exportFile?: string | null;
  /** the document's zod schema, tolerant as the OpenAPI document allows (see lib/ring/schemas.ts) */
  schema: (k: SchemaKit) => Schema;
  /** the typed columns stored beside the raw JSON (what charts and exports read) */
  columns: Cols;
  /** the chartable metrics, by id ("<prefix>.<field>") */
  metrics: Metrics;
};

export type Resource<
  Name extends string = string,
  Kind extends ResourceKind = ResourceKind,
  Cols extends readonly ColumnDef[] = readonly ColumnDef[],
  Metrics extends Record<string, MetricSpec<Cols[number]["name"]>> = Record<string, MetricSpec>,
  Schema extends z.ZodType = z.ZodType,
> = Omit<ResourceInput<Name, Kind, Cols, Metrics, Schema>, "table" | "webhookDataType" | "window" | "key" | "dayField" | "exportFile"> & {
  table: string;
  exportFile: string | null;
  webhookDataType: string | null;
  window: WindowOf<Kind>;
  key: Key;
  dayField: string | null;
};

/**
 * Declares one resource. The column names are checked at compile time: a metric can only name
 * a column its resource stores.
 */
export function defineResource<
  const Name extends string,
  const Kind extends ResourceKind,
  const Cols extends readonly ColumnDef[],
  const Metrics extends Record<string, MetricSpec<Cols[number]["name"]>>,
  Schema extends z.ZodType,
>(input: ResourceInput<Name, Kind, Cols, Metrics, Schema>): Resource<Name, Kind, Cols, Metrics, Schema> {
  const snapshot = input.kind === "snapshot";
  const series = input.kind === "time_series";
  return {
    ...input,
    table: input.table ?? input.name,
    // time series have no webhook (facts §6.1): the trailing poll keeps them current
    webhookDataType: input.webhookDataType !== undefined ? input.webhookDataType : snapshot || series ? null : input.name,
    window: (input.window ?? (snapshot ? null : INCLUSIVE_DATES)) as WindowOf<Kind>,
    key: input.key ?? (snapshot ? "person" : series ? "day" : "documentId"),
    dayField: input.dayField !== undefined ? input.dayField : snapshot ? null : "day",
    exportFile: input.exportFile !== undefined ? input.exportFile : snapshot ? null : input.name.toLowerCase().replace(/[^a-z0-9]/g, ""),
  };
}

/** int columns read from `<object>.<name>` (a score's contributors). */
export function nestedInts<const K extends string>(object: string, names: readonly K[]): Array<ColumnDef<K>> {
  return names.map((name) => ({ name, type: "int" as const, from: `${object}.${name}` }));
}

/** Contributor metrics of a score: each a 0–100 score where higher is better. */
export function contributorMetrics<const P extends string, const E extends readonly (readonly [string, string])[]>(
  prefix: P,
  group: string,
  entries: E,
): { [I in E[number] as `${P}.${I[0]}`]: MetricSpec<I[0]> } {
  const out: Record<string, MetricSpec> = {};
  for (const [column, label] of entries) {
    out[`${prefix}.${column}`] = { from: { column }, label, group, unit: "score", direction: "higher", kind: "score", isContributor: true };
  }
  return out as { [I in E[number] as `${P}.${I[0]}`]: MetricSpec<I[0]> };
}

/**
 * One of the service's closed lists: its values with their labels, in chart order (worst first).
 * `colored`: charted, each value with the CSS colour var(--cat-<value>) of app/globals.css.
 */
export function closedList(entries: ReadonlyArray<readonly [value: string, label: string]>, opts: { colored?: boolean } = {}): CategoryDef[] {
  return entries.map(([value, label]) => (opts.colored ? { value, label, color: `var(--cat-${value})` } : { value, label }));
}
