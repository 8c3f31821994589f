import "server-only";
import { z } from "zod";
import * as req from "@/lib/schemas/requests";
import { MAX_DAY, MAX_RANGE_DAYS, MIN_DAY } from "@/lib/days";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import * as res from "@/lib/api/v1/responses";
import { reportResponseSchema } from "@/lib/api/v1/responses-report";
import { configuredOrigin } from "@/lib/auth/origin";
import { SIGNALS, SIGNALS_MAX_DAYS, SIGNAL_KINDS } from "@/lib/signals/catalog";
import { DEFAULT_REPORT_SECTIONS, REPORT_MAX_DAYS, REPORT_SECTIONS } from "@/lib/metrics/report";
import { reportApiQuerySchema } from "@/lib/schemas/report";
import { REPORT_SECTION_KINDS } from "@/lib/api/v1/read";
import pkg from "@/package.json";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import { cycleResponseSchema } from "@/lib/api/v1/responses-cycle";
import { cycleQuerySchema, CYCLE_MAX_DAYS } from "@/lib/schemas/cycle-query";

// The OpenAPI 3.1 document of the read API, generated from the schemas the routes parse with
// (lib/schemas/requests.ts, the app's own) and the response schemas (lib/api/v1/responses.ts) by
// zod 4's own z.toJSONSchema, which writes JSON Schema 2020-12, the dialect of OpenAPI 3.1.
// This file only arranges them: which route takes which schemas, and the shared refusals.

type Operation = {
  path: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodType;
  response: string;
  /** the answer may also be a PDF (`format=pdf`) */
  pdf?: boolean;
  /** refusals besides 401 and 429 */
  errors: Array<403 | 404 | 422>;
};

/** Every route of /api/v1 (GET; the document itself is served at /api/v1/openapi.json). */
export const V1_OPERATIONS: readonly Operation[] = [
  {
    path: "/api/v1/metrics",
    summary: "The metric catalog and what data exists",
    description:
      "Every metric with its label, unit, group and direction, whether this token may read it, " +
      "the data kinds, and the first and last day of each readable collection.",
    response: "Catalog",
    errors: [],
  },
  {
    path: "/api/v1/metrics/{metric}",
    summary: "One metric's series",
    description:
      "Daily values from `from` to `to` (default: the last 30 days) with 7- and 30-day rolling means, the 90-day baseline band (mean ± 2 sd), " +
      "anomaly flags and the comparison with the previous period of equal length — what the Trends page charts.",
    params: req.getMetricSeriesParamsSchema,
    query: req.getMetricSeriesQuerySchema,
    response: "Series",
    errors: [403, 422],
  },
  {
    path: "/api/v1/days",
    summary: "Several metrics by day",
    description:
      `A table: one row per day with a value, one column per metric (\`metrics\`: comma-separated ids, at most ${req.DAY_TABLE_METRICS_MAX}; ` +
      "default: the headline metrics this token may read). Default range: the last 30 days.",
    query: req.listDaysQuerySchema,
    response: "Days",
    errors: [403, 422],
  },
  {
    path: "/api/v1/days/latest",
    summary: "The newest day",
    description: "Each metric's newest day (on or before `day`) against the 7 days before it and its 90-day baseline — the Today page.",
    query: req.getTodayQuerySchema,
    response: "Today",
    errors: [422],
  },
  {
    path: "/api/v1/days/{day}",
    summary: "One day in detail",
    description:
      "The day's documents (typed columns and as the ring service sent them), sleep periods with hypnogram, heart rate and HRV, " +
      "the activity timeline, and the note with its tags.",
    params: req.getDayParamsSchema,
    response: "Day",
    errors: [422],
  },
  {
    path: "/api/v1/calendar",
    summary: "A metric's calendar",
    description: "Each day's value and state (value, not worn, missing, not yet synced, before the history) with a heat level.",
    query: req.getCalendarQuerySchema,
    response: "Calendar",
    errors: [403, 422],
  },
  {
    path: "/api/v1/correlations",
    summary: "Two metrics against each other",
    description:
      "x on a day against y on the same day (lag 0) or the next day (lag 1): the points, Pearson's r with its 95% interval, n, and the least-squares line.",
    query: req.getCorrelationQuerySchema,
    response: "Correlation",
    errors: [403, 422],
  },
  {
    path: "/api/v1/correlations/strongest",
    summary: "The strongest relationships",
    description: "Pairs of headline metrics (that this token may read), same day and next day, ranked by |r|.",
    query: req.getStrongestQuerySchema,
    response: "Strongest",
    errors: [422],
  },
  {
    path: "/api/v1/tags",
    summary: "The person's tags",
    description: "Every tag with the number of days it is on (needs the notes kind).",
    response: "Tags",
    errors: [403],
  },
  {
    path: "/api/v1/tags/{id}/comparison",
    summary: "Tagged days against the others",
    description:
      "A metric on days with the tag against days without it (lag 1: the day after each tagged day), with means, sd, n and the difference. " +
      "A missing end of the range is the first or last day with data.",
    params: req.tagIdParamsSchema,
    query: req.tagComparisonQuerySchema,
    response: "TagComparison",
    errors: [403, 404, 422],
  },
  {
    path: "/api/v1/notes",
    summary: "Notes and tags by day",
    description: "The person's note and tags of each day in the range (needs the notes kind).",
    query: req.listNotesQuerySchema,
    response: "Notes",
    errors: [403, 422],
  },
  {
    path: "/api/v1/state",
    summary: "The person's state, for home automation",
    description:
      "One small document to poll: the newest readiness, sleep and activity scores and last night's lowest heart rate, average HRV, breathing rate " +
      "and temperature deviation (each with its day and age in days), the ring's newest battery reading (with when it stops telling the ring's " +
      "state) and the newest bedtime window. A value the token's data kinds do not cover is null. With the cycle kind and cycle tracking on, " +
      "`cycle` holds today's cycle day, phase and next period window (absent otherwise). " +
      "The ETag also changes at the person's midnight (the ages count from their today).",
    response: "State",
    errors: [],
  },
  {
    path: "/api/v1/signals",
    summary: "Explained signals by day",
    description:
      `One row per day from \`from\` to \`to\` (default: the last 30 days; at most ${SIGNALS_MAX_DAYS}), each with the signals this token may read ` +
      `(${SIGNAL_KINDS.map((k) => `\`${k}\` needs ${SIGNALS[k].reads.join(", ")}`).join("; ")}): ` +
      "its `level` or `value`, the inputs it used and the baseline it compared them with (sleep debt: the need it was measured against, " +
      "with its range and its source, `needAtLeast` when the debt is a lower bound). Derived from the stored data when read; " +
      "methods, thresholds and sources: the signals page of this Ringside (/docs/signals). Not a diagnosis.",
    query: req.signalsQuerySchema,
    response: "Signals",
    errors: [403, 422],
  },
  {
    path: "/api/v1/cycle",
    summary: "The menstrual cycle by day",
    description:
      `One row per day from \`from\` to \`to\` (default: the last 30 days; at most ${CYCLE_MAX_DAYS}): the cycle day, the phase ` +
      "(menstrual, follicular, luteal or unknown), whether ovulation was detected that night and the predicted window of the next period; " +
      "with the cycles' lengths, the prediction's spread and the period starts and ends the person logged. Needs the data kind `cycle`, " +
      "which no token has unless it was created with it. No rows while the person's cycle tracking is off (`status` off) or paused by " +
      "hormonal contraception or pregnancy (`not_applicable`). Method and sources: /docs/signals. Not a diagnosis, not contraception.",
    query: cycleQuerySchema,
    response: "Cycle",
    errors: [403, 422],
  },
  {
    path: "/api/v1/report",
    summary: "The report for a doctor or a coach",
    description:
      `One period (at most ${REPORT_MAX_DAYS} days: \`from\` and \`to\`, or \`period\` 30d, 90d, month with \`month\`, custom), optionally compared ` +
      "with the period before or the same days a year earlier (`compare`), in the sections asked for (`sections`, comma-separated; default " +
      `${DEFAULT_REPORT_SECTIONS.join(", ")}): the summary's means against the compared period and the person's normal range, the nights early ` +
      `warning flagged, sleep debt and regularity; the charts' daily values, ${SEVEN_DAY_MEAN.label}s and ranges; ` +
      "workouts, sessions, tags and rest mode; methods; notes; the cycle. " +
      "`format=json` (default) gives the numbers behind the report, equal to the other routes' for the same period; " +
      "`format=pdf` the document the report page offers. The token needs every data kind the sections asked for draw on: " +
      `${REPORT_SECTIONS.map((sec) => `${sec}: ${REPORT_SECTION_KINDS[sec].join(", ") || "none"}`).join("; ")}. ` +
      "What each figure is: the report page of this Ringside (/docs/report). Not a diagnosis.",
    query: reportApiQuerySchema,
    response: "Report",
    pdf: true,
    errors: [403, 422],
  },
  {
    path: "/api/v1/sync/status",
    summary: "Sync status",
    description: "Whether a sync is running, and each readable collection's documents, backfill progress, last success and newest day.",
    response: "SyncStatus",
    errors: [],
  },
];

const COMPONENTS = {
  MetricId: { schema: res.metricIdEnum, description: "A metric of the catalog (GET /api/v1/metrics)." },
  NumericMetricId: { schema: res.numericMetricIdEnum, description: "A metric of the catalog with numbers for values (not a category)." },
  DataKind: {
    schema: res.dataKindEnum,
    description: "What a token may read: a resource of the ring service, `notes` (the person's notes and tags) or `cycle` (their cycle days).",
  },
  Error: { schema: res.errorEnvelopeSchema, description: "Every refusal: `{error:{code,message}}`, with `details` for an invalid request." },
  Catalog: { schema: res.catalogResponseSchema },
  Series: { schema: res.seriesResponseSchema, description: "One slot per day from `from` to `to` (null: no value that day)." },
  Days: { schema: res.daysResponseSchema, description: "`values` holds each asked metric's value that day (null: none)." },
  Today: { schema: res.todayResponseSchema },
  Day: { schema: res.dayResponseSchema, description: "`note` is null for a token without the notes kind; collections the token may not read are left out." },
  Calendar: { schema: res.calendarResponseSchema },
  Correlation: { schema: res.correlationResponseSchema, description: "`correlation` is null below 10 days with both values." },
  Strongest: { schema: res.strongestResponseSchema },
  Tags: { schema: res.tagsResponseSchema },
  TagComparison: { schema: res.tagComparisonResponseSchema, description: "`difference` is null unless each group has at least 3 days." },
  Notes: { schema: res.notesResponseSchema },
  SyncStatus: { schema: res.syncStatusResponseSchema },
  State: { schema: res.stateResponseSchema, description: "null: no data yet, or a kind this token may not read." },
  Report: {
    schema: reportResponseSchema,
    description: "A section left out of the query is absent. Chart slots are one per day from `query.from` to `query.to`.",
  },
  Cycle: { schema: cycleResponseSchema, description: "`days` is empty unless `status` is ok or insufficient_data." },
  Signals: {
    schema: res.signalsResponseSchema,
    description: "`kinds` lists the signals in each day's row; `level`/`value` is null where the history is too short (`status` says why).",
  },
} as const;

const REF = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** Request schemas that say more in the document than their zod type can: days and metric ids. */
function describeRequestSchema(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const replace = (value: Record<string, unknown>) => {
    for (const k of Object.keys(ctx.jsonSchema)) if (k !== "default") delete ctx.jsonSchema[k];
    Object.assign(ctx.jsonSchema, value);
  };
  if (ctx.zodSchema === req.daySchema) replace({ type: "string", format: "date", description: `a day YYYY-MM-DD between ${MIN_DAY} and ${MAX_DAY}` });
  else if (ctx.zodSchema === req.numericMetricIdSchema) replace({ ...REF("NumericMetricId"), description: "a numeric metric of the catalog" });
  else if (ctx.zodSchema === req.metricIdSchema) replace({ ...REF("MetricId"), description: "a metric of the catalog" });
}

function requestJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any", override: describeRequestSchema }) as Record<string, unknown>;
}

function parameters(op: Operation): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ["path", op.params],
    ["query", op.query],
  ] as const) {
    if (!schema) continue;
    const js = requestJsonSchema(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, s] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = s;
      out.push({ name, in: where, required: where === "path" || (js.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  return out;
}

const ERROR_TEXT: Record<number, string> = {
  401: "No token, or a token that is not valid (revoked, or never issued here).",
  403: "The token's data kinds do not include what was asked for.",
  404: "Not found (a tag that is not the person's).",
  422: "The request is not valid (`details` names each problem).",
  429: "Too many requests with this token (the `Retry-After` header says when to come back).",
};

const errorResponse = (status: number) => ({
  description: ERROR_TEXT[status],
  ...(status === 429
    ? { headers: { "Retry-After": { description: "seconds until the next request is allowed", schema: { type: "integer", minimum: 1 } } } }
    : {}),
  content: { "application/json": { schema: REF("Error") } },
});

/** The OpenAPI 3.1 document. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const registry = z.registry<{ id: string; description?: string }>();
  for (const [id, c] of Object.entries(COMPONENTS)) registry.add(c.schema, { id, ...("description" in c ? { description: c.description } : {}) });
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", io: "output", uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }

  const paths: Record<string, unknown> = {};
  for (const op of V1_OPERATIONS) {
    const content = {
      "application/json": { schema: REF(op.response) },
      ...(op.pdf ? { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } } : {}),
    };
    const responses: Record<string, unknown> = { 200: { description: "OK", content } };
    for (const status of [401, ...op.errors, 429].sort()) responses[status] = errorResponse(status);
    const params = parameters(op);
    paths[op.path] = {
      get: {
        operationId: op.path
          .replace(/^\/api\/v1\//, "")
          .replace(/[{}]/g, "")
          .replace(/\/(.)/g, (_m, c: string) => c.toUpperCase()),
        summary: op.summary,
        description: op.description,
        ...(params.length ? { parameters: params } : {}),
        responses,
      },
    };
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Ringside read API",
      version: "1",
      license: { name: pkg.license, url: `https://spdx.org/licenses/${pkg.license}.html` },
      description:
        `Read-only access to one person's ring data on this Ringside, with a personal access token (Settings → API) in \`Authorization: Bearer\`. ` +
        `A token reads its owner's data only, and only the data kinds chosen for it (${DATA_KINDS.join(", ")}). ` +
        `Day ranges: \`from\` and \`to\` are days (YYYY-MM-DD), at most ${MAX_RANGE_DAYS} days apart; a missing end takes the route's default. ` +
        `Writes answer 405. Every refusal is \`{error:{code,message}}\`. ` +
        `Reads of data (all but the sync status) carry an \`ETag\` that changes whenever the person's data does (a sync, an import, a note, a delete): ` +
        `send it back in \`If-None-Match\` and an unchanged answer comes as \`304 Not Modified\` with no body.`,
    },
    // this Ringside: its configured public address, else wherever the document was fetched from
    servers: [{ url: configuredOrigin() ?? "/", description: "This Ringside" }],
    security: [{ bearerToken: [] }],
    paths,
    components: {
      securitySchemes: { bearerToken: { type: "http", scheme: "bearer", description: "A personal access token, `rs_pat_…`" } },
      schemas,
    },
  };
}
