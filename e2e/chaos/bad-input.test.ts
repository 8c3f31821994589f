// 6. Bad input on every route and server action of Ringside (production process): malformed,
// oversized and wrongly typed input, generated with fast-check, gets a 4xx with the error
// envelope {error:{code,message}}, changes nothing, never a 500. The routes and actions are
// enumerated from the source tree: a new one without a case here fails the first test.
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import * as schemas from "@/lib/schemas/requests";
import { createReportLinkInputSchema } from "@/lib/schemas/report-links";
import { reportApiQuerySchema, reportQuerySchema } from "@/lib/schemas/report";
import { cycleQuerySchema } from "@/lib/schemas/cycle-query";
import { cycleSettingsPatchSchema } from "@/lib/schemas/cycle";
import { CYCLE_ENTRY_KINDS } from "@/lib/cycle";
import { REPORT_COMPARE_MODES, REPORT_PERIODS, REPORT_SECTIONS } from "@/lib/metrics/report";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { ringsideExportSchema } from "@/lib/import/ringside";
import { alertChannelInputSchema, alertSettingsInputSchema } from "@/lib/alerts/schemas";
import { ALERT_CHANNEL_KINDS } from "@/lib/alerts/catalog";
import { ALERT_RULE_KINDS, alertRuleInputSchema, ruleParamsFromForm } from "@/lib/alerts/kinds";
import { CATEGORY_METRICS, NUMERIC_METRICS } from "@/lib/metrics/catalog";
import { STATE_TABLES, fingerprint, openAppDb, waitFor, SYNCED } from "./support/app-db";
import { asEnvelope, callAction, type ActionArg } from "./support/actions";
import { Browser, connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, pick } from "./support/env";
import { recordFigures, SEED } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { findLeaks } from "./support/secrets";
import { builtServerActions, listRouteHandlers, listServerActions, pagePath, type ManifestAction } from "./support/surface";

const RUNS = pick(12, 80);

let emu: Emulator;
let app: ProdApp;
let db: Database.Database;
let owner: Browser;
let member: Browser;
let ownerTagId = 0;
let ownerWorkoutId = "";
let ownerToken = "";
let day = "";
const tally = { requests: 0, statuses: {} as Record<string, number>, routes: 0, actions: 0 };

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 100, historyDays: 30 });
  // Token requests are not to be throttled here: the rate limit has its own cases (app/api/v1/rate-limit.test.ts).
  app = await startProdApp({ name: "bad-input", env: { API_RATE_LIMIT: "100000" } });
  owner = (await connect(`owner-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`)).browser;
  member = (await connect(`member-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`)).browser;
  db = openAppDb(app.dbFile);
  await waitFor(
    "the backfills",
    () => (db.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE backfillDoneAt IS NOT NULL`).get() as { n: number }).n === 2 * SYNCED.length,
    {
      timeoutMs: 120_000,
      intervalMs: 200,
    },
  );
  day = (db.prepare(`SELECT MAX(day) AS d FROM daily_sleep`).get() as { d: string }).d;
  ownerWorkoutId = (db.prepare(`SELECT documentId FROM workout ORDER BY day DESC LIMIT 1`).get() as { documentId: string } | undefined)?.documentId ?? "none";
  const tag = await owner.json<{ id: number }>("/api/tags", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "chaos-tag" }),
  });
  expect(tag.status).toBe(201);
  ownerTagId = tag.body.id;
  const note = await owner.fetch(`/api/notes/${day}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text: "a note", tags: ["chaos-tag"] }),
  });
  expect(note.status).toBe(200);
  // The owner's personal access token (Settings → API, the real action), for the read API and MCP.
  const create = builtServerActions().find((a) => a.name === "createApiTokenAction")!;
  const made = await callAction(owner, {
    id: create.id,
    page: pagePath(create.pages[0]!),
    args: [{ json: {} }, { form: [["name", "chaos"], ...DATA_KINDS.map((k) => ["kinds", k] as [string, string])] }],
  });
  ownerToken = (made.result as { token?: string }).token ?? "";
  expect(ownerToken).toMatch(/^rs_pat_/);
});

afterAll(async () => {
  db?.close();
  await app?.stop();
  await emu?.close();
});

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const nearMisses = [
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "2026-02-30",
  "2026-13-01",
  "2026-1-1",
  "20260101",
  "9999-99-99",
  "0000-00-00",
  "../../etc/passwd",
  "%00",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "{}",
  "[]",
  "true",
  "__proto__",
  "constructor",
  "\u0000",
  "\ud800",
  "🙂",
  "a".repeat(300),
];
const junk: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom(...nearMisses),
  fc.integer().map(String),
  fc.double().map(String),
  fc.integer({ min: 2_000, max: 6_000 }).map((n) => "x".repeat(n)),
  fc.constant("x".repeat(20_000)),
);
const junkJson: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 3 }), junk, fc.constantFrom(null, true, 0, -1, 1e308, [], {}, [[[]]]));

/**
 * A segment of a path: junk, URL-encoded (never "." or ".." which the URL itself resolves). A lone
 * surrogate cannot be URL-encoded (encodeURIComponent throws): it is sent as U+FFFD, and its
 * UTF-8 bytes, which are not valid UTF-8, are one of the broken encodings below.
 */
const junkSegment = fc.oneof(
  junk.filter((s) => s !== "" && s !== "." && s !== "..").map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/gu, "\uFFFD"))),
  fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "%2F", "%252F", "%C0%AE%C0%AE", "%ff%fe", "%ED%A0%80"),
);

type Query = Record<string, string>;
function queryArb(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Query> {
  const entries = Object.entries(fields).map(([k, valid]) => [k, fc.option(fc.oneof(valid, junk), { nil: undefined })] as const);
  return fc
    .tuple(fc.record(Object.fromEntries(entries)), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), junk, { maxKeys: 3 }))
    .map(([known, extra]) => {
      const q: Query = {};
      for (const [k, v] of Object.entries(extra)) q[k] = v;
      for (const [k, v] of Object.entries(known)) if (v !== undefined) q[k] = v as string;
      return q;
    });
}

function bodyArb(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const entries = Object.entries(fields).map(([k, valid]) => [k, fc.option(fc.oneof(valid, junkJson), { nil: undefined })] as const);
  return fc.oneof(
    junkJson,
    fc
      .tuple(fc.record(Object.fromEntries(entries)), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), junkJson, { maxKeys: 3 }))
      .map(([known, extra]) => {
        const b: Record<string, unknown> = { ...extra };
        for (const [k, v] of Object.entries(known)) if (v !== undefined) b[k] = v;
        return b;
      }),
  );
}

const validDay = () => fc.constant(day);
const validMetric = fc.constantFrom(...NUMERIC_METRICS.slice(0, 5).map((m) => m.id));

/** Bodies that are not JSON, or too large, or not declared as JSON. */
const rawBodies: Array<{ name: string; body: () => BodyInit; type?: string; chunked?: boolean }> = [
  { name: "malformed JSON", body: () => '{"text": "unterminated', type: "application/json" },
  { name: "not JSON at all", body: () => "text=hello&tags=a", type: "application/json" },
  { name: "form-encoded", body: () => "text=hello", type: "application/x-www-form-urlencoded" },
  { name: "no content type", body: () => '{"text":"x"}' },
  { name: "1 MB of JSON", body: () => JSON.stringify({ text: "x".repeat(1_048_576) }), type: "application/json" },
  { name: "8 MB of JSON, streamed without a length", body: () => JSON.stringify({ text: "x".repeat(8 * 1_048_576) }), type: "application/json", chunked: true },
  { name: "deeply nested JSON", body: () => "[".repeat(5_000) + "]".repeat(5_000), type: "application/json" },
];

// ---------------------------------------------------------------------------------------------
// The route table
// ---------------------------------------------------------------------------------------------

type Kind =
  /** Ringside's API for a signed-in person: 401 without a session, 4xx envelopes for bad input */
  | "user"
  /** no session needed and no input taken (health) */
  | "public"
  /** Auth.js: bad input ends in a redirect to the sign-in error page or a 4xx, never a session */
  | "auth"
  /** the ring service's webhook receiver: unsigned input is refused with an envelope */
  | "webhook"
  /** an invite link: an unusable one ends on the sign-in error page */
  | "invite"
  /** a report's share link (its PDF): no session; a bad secret gets a plain 4xx page (400, 404), never a 5xx */
  | "link"
  /** the read API (/api/v1): a personal access token only (401 without one, and with a session cookie alone), 4xx envelopes for bad input */
  | "token"
  /** the MCP endpoint: like "token", and a body that is not a JSON-RPC message is refused in the envelope */
  | "mcp"
  /** a method the read API or the MCP endpoint does not take: 405 in the envelope for anyone, body or not */
  | "readonly";

type RouteCase = {
  kind: Kind;
  /** the path with valid parameters */
  path: () => string;
  /** the path with a bad value in one parameter */
  badPath?: fc.Arbitrary<string>;
  query?: { schema: z.ZodType; fields: Record<string, fc.Arbitrary<string>> };
  body?: { schema: z.ZodType; fields: Record<string, fc.Arbitrary<unknown>> };
  /** the route changes data when the input is valid (bodies are only sent when invalid) */
  mutates?: boolean;
};

const dayPath = (prefix: string, suffix = "") =>
  junkSegment.filter((s) => !schemas.daySchema.safeParse(decodeSafe(s)).success).map((s) => `${prefix}${s}${suffix}`);
/** A tag id that is not one of the person's own: junk, and the ring app's (read-only: 403, or 404 when there is no such tag). */
const idPath = (prefix: string, suffix = "") =>
  fc
    .oneof(
      junkSegment.filter((s) => !schemas.tagRefParamsSchema.safeParse({ id: decodeSafe(s) }).success),
      fc.constantFrom("ring%3Atag_generic_alcohol", "ring:tag_generic_caffeine", "ring:custom:Magnesium", "ring:", `ring:${"x".repeat(400)}`),
    )
    .map((s) => `${prefix}${s}${suffix}`);
function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
const rangeFields = () => ({ from: validDay(), to: validDay() });
/** A report's query: a period or days, a compare mode, sections (any of them may be junk in the cases). */
const reportFields = () => ({
  ...rangeFields(),
  period: fc.constantFrom(...REPORT_PERIODS),
  compare: fc.constantFrom(...REPORT_COMPARE_MODES),
  sections: fc.subarray([...REPORT_SECTIONS], { minLength: 1 }).map((x) => x.join(",")),
});
// The body schema of PATCH /api/sync/settings (local to its route file).
const syncSettingsSchema = z
  .object({ dataFamily: z.enum(["usercollection", "sandbox"]).optional(), pollMinutes: z.number().int().min(1).max(1440).optional() })
  .strict()
  .refine((v) => v.dataFamily !== undefined || v.pollMinutes !== undefined);

const ROUTES: Record<string, RouteCase> = {
  "GET /api/auth/[...nextauth]": { kind: "auth", path: () => "/api/auth/session", badPath: junkSegment.map((s) => `/api/auth/${s}`) },
  "POST /api/auth/[...nextauth]": { kind: "auth", path: () => "/api/auth/signin/ring", badPath: junkSegment.map((s) => `/api/auth/${s}`) },
  "GET /api/correlations": {
    kind: "user",
    path: () => "/api/correlations",
    query: { schema: schemas.getCorrelationQuerySchema, fields: { x: validMetric, y: validMetric, lag: fc.constantFrom("0", "1"), ...rangeFields() } },
  },
  "GET /api/correlations/strongest": {
    kind: "user",
    path: () => "/api/correlations/strongest",
    query: { schema: schemas.getStrongestQuerySchema, fields: { ...rangeFields(), limit: fc.integer({ min: 1, max: 100 }).map(String) } },
  },
  "DELETE /api/data": {
    kind: "user",
    path: () => "/api/data",
    body: { schema: schemas.deleteDataBodySchema, fields: { confirm: fc.constant("DELETE") } },
    mutates: true,
  },
  "GET /api/days/[day]": { kind: "user", path: () => `/api/days/${day}`, badPath: dayPath("/api/days/") },
  "GET /api/days/latest": { kind: "user", path: () => "/api/days/latest", query: { schema: schemas.getTodayQuerySchema, fields: { day: validDay() } } },
  "GET /api/days": {
    kind: "user",
    path: () => "/api/days",
    query: {
      schema: schemas.getCalendarQuerySchema,
      fields: { metric: fc.oneof(validMetric, fc.constantFrom(...CATEGORY_METRICS.map((m) => m.id))), ...rangeFields() },
    },
  },
  "GET /api/export": {
    kind: "user",
    path: () => "/api/export",
    query: {
      schema: schemas.exportQuerySchema,
      fields: { collection: fc.constantFrom(...schemas.EXPORT_COLLECTIONS), format: fc.constantFrom("csv", "json"), ...rangeFields() },
    },
  },
  "GET /api/health": { kind: "public", path: () => "/api/health" },
  "POST /api/import": {
    kind: "user",
    path: () => "/api/import",
    body: {
      schema: ringsideExportSchema,
      fields: { format: fc.constant("ringside-export-v1"), collections: fc.constant({}), notes: fc.constant([]), tags: fc.constant([]) },
    },
    mutates: true,
  },
  "GET /api/import": { kind: "user", path: () => "/api/import" },
  "DELETE /api/import": { kind: "user", path: () => "/api/import", mutates: true },
  "GET /api/me/preferences": { kind: "user", path: () => "/api/me/preferences" },
  "PATCH /api/me/preferences": {
    kind: "user",
    path: () => "/api/me/preferences",
    body: {
      schema: schemas.updatePreferencesBodySchema,
      fields: { units: fc.constantFrom("metric", "imperial"), theme: fc.constantFrom("light", "dark", "system") },
    },
    mutates: true,
  },
  "GET /api/me": { kind: "user", path: () => "/api/me" },
  "GET /api/report": { kind: "user", path: () => "/api/report", query: { schema: reportQuerySchema, fields: reportFields() } },
  "GET /api/signals": { kind: "user", path: () => "/api/signals", query: { schema: schemas.signalsQuerySchema, fields: rangeFields() } },
  "GET /api/cycle": { kind: "user", path: () => "/api/cycle", query: { schema: cycleQuerySchema, fields: rangeFields() } },
  "GET /api/signals/settings": { kind: "user", path: () => "/api/signals/settings" },
  "PATCH /api/signals/settings": {
    kind: "user",
    path: () => "/api/signals/settings",
    body: {
      schema: schemas.updateSignalSettingsBodySchema,
      fields: {
        sleepNeedMinutes: fc.oneof(fc.constant(null), fc.integer({ min: 240, max: 720 })),
        freeDays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 7 }),
      },
    },
    mutates: true,
  },
  "GET /api/metrics/[metric]": {
    kind: "user",
    path: () => `/api/metrics/${NUMERIC_METRICS[0]!.id}`,
    badPath: junkSegment.filter((s) => !schemas.getMetricSeriesParamsSchema.safeParse({ metric: decodeSafe(s) }).success).map((s) => `/api/metrics/${s}`),
    query: { schema: schemas.getMetricSeriesQuerySchema, fields: rangeFields() },
  },
  "GET /api/metrics": { kind: "user", path: () => "/api/metrics" },
  "GET /api/notes/[day]": { kind: "user", path: () => `/api/notes/${day}`, badPath: dayPath("/api/notes/") },
  "PUT /api/notes/[day]": {
    kind: "user",
    path: () => `/api/notes/${day}`,
    badPath: dayPath("/api/notes/"),
    body: { schema: schemas.putDayNoteBodySchema, fields: { text: fc.string({ maxLength: 50 }), tags: fc.array(fc.constantFrom("a", "b"), { maxLength: 3 }) } },
    mutates: true,
  },
  "DELETE /api/notes/[day]": { kind: "user", path: () => `/api/notes/${day}`, badPath: dayPath("/api/notes/"), mutates: true },
  "GET /api/notes": { kind: "user", path: () => "/api/notes", query: { schema: schemas.listNotesQuerySchema, fields: rangeFields() } },
  // A valid request starts a sync, whose writes land after this case's own check.
  "POST /api/sync": { kind: "user", path: () => "/api/sync", mutates: true },
  // "Download my history again": 409 unless "Delete all my data" paused the person's sync
  "POST /api/sync/history": { kind: "user", path: () => "/api/sync/history", mutates: true },
  "GET /api/sync/settings": { kind: "user", path: () => "/api/sync/settings" },
  "PATCH /api/sync/settings": {
    kind: "user",
    path: () => "/api/sync/settings",
    body: { schema: syncSettingsSchema, fields: { dataFamily: fc.constantFrom("usercollection", "sandbox"), pollMinutes: fc.integer({ min: 1, max: 1440 }) } },
    mutates: true,
  },
  "GET /api/sync/status": { kind: "user", path: () => "/api/sync/status" },
  "GET /api/tags/[id]/comparison": {
    kind: "user",
    path: () => `/api/tags/${ownerTagId}/comparison`,
    badPath: idPath("/api/tags/", "/comparison"),
    query: { schema: schemas.tagComparisonQuerySchema, fields: { metric: validMetric, lag: fc.constantFrom("0", "1"), ...rangeFields() } },
  },
  "PATCH /api/tags/[id]": {
    kind: "user",
    path: () => `/api/tags/${ownerTagId}`,
    badPath: idPath("/api/tags/"),
    body: { schema: schemas.updateTagBodySchema, fields: { name: fc.string({ minLength: 1, maxLength: 10 }), color: fc.constantFrom("#112233", null) } },
    mutates: true,
  },
  "DELETE /api/tags/[id]": { kind: "user", path: () => `/api/tags/${ownerTagId}`, badPath: idPath("/api/tags/"), mutates: true },
  "GET /api/tags": { kind: "user", path: () => "/api/tags" },
  "POST /api/tags": {
    kind: "user",
    path: () => "/api/tags",
    body: { schema: schemas.createTagBodySchema, fields: { name: fc.string({ minLength: 1, maxLength: 10 }), color: fc.constantFrom("#112233", null) } },
    mutates: true,
  },
  "GET /api/workouts": {
    kind: "user",
    path: () => "/api/workouts",
    query: {
      schema: schemas.listWorkoutsQuerySchema,
      fields: { activity: fc.constantFrom("running", "cycling"), intensity: fc.constantFrom("easy", "hard"), ...rangeFields() },
    },
  },
  "GET /api/workouts/[id]": {
    kind: "user",
    path: () => `/api/workouts/${ownerWorkoutId}`,
    // anything that is not one of the person's workouts: 404 (an id) or 422 (too long)
    badPath: fc.oneof(junkSegment, fc.constant("x".repeat(300))).map((s) => `/api/workouts/${s}`),
  },
  "GET /api/webhooks/ring": { kind: "webhook", path: () => "/api/webhooks/ring" },
  "POST /api/webhooks/ring": { kind: "webhook", path: () => "/api/webhooks/ring" },
  "GET /invite/[secret]": { kind: "invite", path: () => "/invite/x", badPath: junkSegment.map((s) => `/invite/${s}`) },
  "GET /r/[secret]/pdf": { kind: "link", path: () => `/r/${"A".repeat(43)}/pdf`, badPath: junkSegment.map((s) => `/r/${s}/pdf`) },
};

// The read API: every GET route with its bad input (sent with the owner's token), and its write
// methods (405 for everyone); the MCP endpoint (POST with a token; other methods 405).
const V1_ROUTES: Record<string, Omit<RouteCase, "kind">> = {
  "/api/v1/metrics": { path: () => "/api/v1/metrics" },
  "/api/v1/metrics/[metric]": {
    path: () => `/api/v1/metrics/${NUMERIC_METRICS[0]!.id}`,
    badPath: junkSegment.filter((s) => !schemas.getMetricSeriesParamsSchema.safeParse({ metric: decodeSafe(s) }).success).map((s) => `/api/v1/metrics/${s}`),
    query: { schema: schemas.getMetricSeriesQuerySchema, fields: rangeFields() },
  },
  "/api/v1/days": {
    path: () => "/api/v1/days",
    query: {
      schema: schemas.listDaysQuerySchema,
      fields: {
        metrics: fc.constantFrom(
          "sleep.score",
          "sleep.score,readiness.score",
          NUMERIC_METRICS.slice(0, 20)
            .map((m) => m.id)
            .join(","),
        ),
        ...rangeFields(),
      },
    },
  },
  "/api/v1/days/latest": { path: () => "/api/v1/days/latest", query: { schema: schemas.getTodayQuerySchema, fields: { day: validDay() } } },
  "/api/v1/days/[day]": { path: () => `/api/v1/days/${day}`, badPath: dayPath("/api/v1/days/") },
  "/api/v1/calendar": {
    path: () => "/api/v1/calendar",
    query: {
      schema: schemas.getCalendarQuerySchema,
      fields: { metric: fc.oneof(validMetric, fc.constantFrom(...CATEGORY_METRICS.map((m) => m.id))), ...rangeFields() },
    },
  },
  "/api/v1/correlations": {
    path: () => "/api/v1/correlations",
    query: { schema: schemas.getCorrelationQuerySchema, fields: { x: validMetric, y: validMetric, lag: fc.constantFrom("0", "1"), ...rangeFields() } },
  },
  "/api/v1/correlations/strongest": {
    path: () => "/api/v1/correlations/strongest",
    query: { schema: schemas.getStrongestQuerySchema, fields: { ...rangeFields(), limit: fc.integer({ min: 1, max: 100 }).map(String) } },
  },
  "/api/v1/tags": { path: () => "/api/v1/tags" },
  "/api/v1/tags/[id]/comparison": {
    path: () => `/api/v1/tags/${ownerTagId}/comparison`,
    badPath: idPath("/api/v1/tags/", "/comparison"),
    query: { schema: schemas.tagComparisonQuerySchema, fields: { metric: validMetric, lag: fc.constantFrom("0", "1"), ...rangeFields() } },
  },
  "/api/v1/notes": { path: () => "/api/v1/notes", query: { schema: schemas.listNotesQuerySchema, fields: rangeFields() } },
  "/api/v1/sync/status": { path: () => "/api/v1/sync/status" },
  "/api/v1/state": { path: () => "/api/v1/state" },
  "/api/v1/signals": { path: () => "/api/v1/signals", query: { schema: schemas.signalsQuerySchema, fields: rangeFields() } },
  "/api/v1/cycle": { path: () => "/api/v1/cycle", query: { schema: cycleQuerySchema, fields: rangeFields() } },
  "/api/v1/report": {
    path: () => "/api/v1/report",
    query: { schema: reportApiQuerySchema, fields: { ...reportFields(), format: fc.constantFrom("json", "pdf") } },
  },
};
for (const [p, spec] of Object.entries(V1_ROUTES)) {
  ROUTES[`GET ${p}`] = { kind: "token", ...spec };
  for (const m of ["POST", "PUT", "PATCH", "DELETE"]) ROUTES[`${m} ${p}`] = { kind: "readonly", path: spec.path };
}
ROUTES["GET /api/v1/openapi.json"] = { kind: "public", path: () => "/api/v1/openapi.json" };
for (const m of ["POST", "PUT", "PATCH", "DELETE"]) ROUTES[`${m} /api/v1/openapi.json`] = { kind: "readonly", path: () => "/api/v1/openapi.json" };
ROUTES["POST /api/mcp"] = {
  kind: "mcp",
  path: () => "/api/mcp",
  body: {
    // anything that is not a JSON-RPC message (or a batch of them)
    schema: z.union([JSONRPCMessageSchema, z.array(JSONRPCMessageSchema)]),
    fields: {
      jsonrpc: fc.constant("2.0"),
      id: fc.integer({ min: 1, max: 9 }),
      method: fc.constantFrom("tools/list", "tools/call", "resources/list"),
      params: fc.constant({ name: "list_data", arguments: {} }),
    },
  },
};
for (const m of ["GET", "PUT", "PATCH", "DELETE"]) ROUTES[`${m} /api/mcp`] = { kind: "readonly", path: () => "/api/mcp" };

// ---------------------------------------------------------------------------------------------
// Server actions: every exported function of every "use server" file, with the page it is
// called from and its bad arguments.
// ---------------------------------------------------------------------------------------------

type ActionCase = {
  /** who calls it in the bad-input runs */
  as: () => Browser;
  args: fc.Arbitrary<ActionArg[]>;
};

const formArg = (fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<ActionArg> =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, fc.option(fc.oneof(v, junk), { nil: undefined })]))),
      fc.array(fc.tuple(fc.string({ maxLength: 8 }), junk), { maxLength: 3 }),
    )
    .map(([known, extra]) => ({ form: [...Object.entries(known).filter(([, v]) => v !== undefined), ...extra] as Array<[string, string]> }));
const wrongArgs: fc.Arbitrary<ActionArg[]> = fc.array(
  junkJson.map((json) => ({ json })),
  { maxLength: 4 },
);

const ACTIONS: Record<string, ActionCase> = {
  "app/(auth)/actions.ts#connectRing": { as: () => new Browser(), args: wrongArgs },
  "app/(app)/settings/actions-connection.ts#reconnectRing": { as: () => new Browser(), args: wrongArgs },
  "app/(app)/settings/actions-connection.ts#disconnectRing": {
    as: () => owner,
    args: fc
      .oneof(
        wrongArgs,
        formArg({ data: fc.constant("x") }).map((a) => [a]),
      )
      .filter((args) => !isValidDisconnect(args)),
  },
  "app/(app)/settings/actions-connection.ts#createInviteLink": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      fc.tuple(fc.constant({ json: {} }), formArg({})).map((t) => [...t]),
    ),
  },
  "app/(app)/settings/actions-connection.ts#revokeInvite": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ inviteId: fc.string({ minLength: 1, maxLength: 30 }) }).map((a) => [a]),
    ),
  },
  "app/(app)/settings/actions-connection.ts#removeMemberAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ memberId: fc.string({ minLength: 1, maxLength: 30 }) }).map((a) => [a]),
    ),
  },
  // Settings → Alerts: (previous state, form) actions, and form actions on the person's own ids
  "app/(app)/settings/actions-alerts.ts#saveAlertSettingsAction": {
    as: () => member,
    args: stateAndForm({
      includeValues: fc.constantFrom("on", "off"),
      timeZone: fc.constantFrom("Mars/Olympus", "Europe/Berlinn", "UTC+1", "", "UTC"),
      quietFrom: fc.constantFrom("24:00", "7pm", "22:00", ""),
      quietTo: fc.constantFrom("22:00", "", "07:60"),
    }).filter((args) => {
      const f = formOf(args);
      return !alertSettingsInputSchema.safeParse({
        includeValues: f?.get("includeValues") === "on",
        timeZone: f?.get("timeZone"),
        quietFrom: f?.get("quietFrom"),
        quietTo: f?.get("quietTo"),
      }).success;
    }),
  },
  "app/(app)/settings/actions-alerts.ts#addAlertRuleAction": {
    as: () => member,
    args: stateAndForm({
      kind: fc.constantFrom(...ALERT_RULE_KINDS, "bogus"),
      metric: fc.constantFrom("readiness.score", "stress.day_summary", "nope"),
      side: fc.constantFrom("below", "sideways"),
      days: fc.constantFrom("0", "15", "2.5", "-1", "1e3"),
      hours: fc.constantFrom("0", "169", "x"),
      weekday: fc.constantFrom("0", "8", "Mon"),
      hour: fc.constantFrom("24", "-1", "8.5"),
      level: fc.constantFrom("4", "101", "x", ""),
    }).filter((args) => !isValidRuleForm(args)),
  },
  "app/(app)/settings/actions-alerts.ts#toggleAlertRuleAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ id: fc.string({ minLength: 1, maxLength: 30 }), enabled: fc.constantFrom("true", "false") }).map((a) => [a]),
    ),
  },
  "app/(app)/settings/actions-alerts.ts#removeAlertRuleAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ id: fc.string({ minLength: 1, maxLength: 30 }) }).map((a) => [a]),
    ),
  },
  "app/(app)/settings/actions-alerts.ts#addAlertChannelAction": {
    as: () => member,
    args: stateAndForm({
      kind: fc.constantFrom(...ALERT_CHANNEL_KINDS, "sms"),
      url: fc.constantFrom(
        "file:///etc/passwd",
        "javascript:alert(1)",
        "https://u:p@example.test/x",
        "https://ntfy.example.test/",
        "ftp://x.test/t",
        "http://",
        "x".repeat(3000),
      ),
      token: fc.constantFrom("has space", "t".repeat(600)),
      recipient: fc.constantFrom("nope", "a@", "@b.test"),
      label: fc.constantFrom("x".repeat(61), "ok"),
    }).filter((args) => !isValidChannelForm(args)),
  },
  "app/(app)/settings/actions-alerts.ts#toggleAlertChannelAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ id: fc.string({ minLength: 1, maxLength: 30 }), enabled: fc.constantFrom("true", "false") }).map((a) => [a]),
    ),
  },
  "app/(app)/settings/actions-alerts.ts#removeAlertChannelAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ id: fc.string({ minLength: 1, maxLength: 30 }) }).map((a) => [a]),
    ),
  },
  "app/(app)/settings/actions-alerts.ts#sendAlertTestAction": { as: () => member, args: stateAndForm({ id: fc.string({ minLength: 1, maxLength: 30 }) }) },
  "app/(app)/settings/actions-alerts.ts#sendAlertRuleTestAction": { as: () => member, args: stateAndForm({ id: fc.string({ minLength: 1, maxLength: 30 }) }) },
  "app/(app)/settings/actions-alerts.ts#confirmAlertChannelAction": {
    as: () => member,
    args: stateAndForm({ id: fc.string({ minLength: 1, maxLength: 30 }), code: fc.constantFrom("", "12345", "abcdef", "1234567", "x".repeat(500)) }),
  },
  "app/(app)/settings/actions-alerts.ts#resendAlertConfirmationAction": {
    as: () => member,
    args: stateAndForm({ id: fc.string({ minLength: 1, maxLength: 30 }) }),
  },
  // Settings → API: a token's name and kinds; revoking only ever finds the person's own tokens
  "app/(app)/settings/actions-api.ts#createApiTokenAction": {
    as: () => member,
    args: stateAndForm({ name: fc.constantFrom("", "   ", "x".repeat(61), "ok"), kinds: fc.constantFrom("nope", "DAILY_SLEEP", "", "daily_sleep") }).filter(
      (args) => !isValidTokenForm(args),
    ),
  },
  // The report page's share link: its query, expiry (1 to 90 days) and label; revoking only ever finds the person's own links
  "app/(app)/report/actions.ts#createReportLinkAction": {
    as: () => member,
    args: stateAndForm({
      query: fc.constantFrom("", "from=2026-02-01&to=2026-01-01", "from=2024-01-01&to=2026-01-01", "sections=summary,nope", "compare=never", "x".repeat(2_100)),
      expiresDays: fc.constantFrom("", "0", "91", "1.5", "-3", "seven", "7"),
      label: fc.constantFrom("", "Dr. Lee", "x".repeat(81), "a\u0000b"),
    }).filter((args) => !isValidReportLinkForm(args)),
  },
  "app/(app)/report/actions.ts#revokeReportLinkAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ id: fc.string({ minLength: 1, maxLength: 30 }) }).map((a) => [a]),
    ),
  },
  "app/(app)/settings/actions-api.ts#revokeApiTokenAction": {
    as: () => member,
    args: fc.oneof(
      wrongArgs,
      formArg({ id: fc.string({ minLength: 1, maxLength: 30 }) }).map((a) => [a]),
    ),
  },
  // Settings → Your cycle: a settings patch of booleans; removing the data only with its confirmation
  "app/(app)/settings/actions-cycle.ts#saveCycleSettingsAction": {
    as: () => member,
    args: fc
      .oneof(
        wrongArgs,
        fc.record({ tracking: junkJson, pregnant: fc.constantFrom("yes", 1, null) }).map((json) => [{ json }]),
      )
      .filter((args) => !(args[0] && "json" in args[0] && cycleSettingsPatchSchema.safeParse(args[0].json).success)),
  },
  "app/(app)/settings/actions-cycle.ts#removeCycleDataAction": {
    as: () => member,
    args: wrongArgs.filter((args) => !(args[0] && "json" in args[0] && args[0].json === "remove")),
  },
  // Settings → Home automation: "Publish to Home Assistant" with its kinds; no field names a person
  "app/(app)/settings/actions-home-automation.ts#saveHomeAssistantAction": {
    as: () => member,
    args: stateAndForm({
      enabled: fc.constantFrom("on", ""),
      kinds: fc.constantFrom("nope", "DAILY_SLEEP", "", "daily_sleep"),
      userId: fc.constantFrom("someone-else"),
    }).filter((args) => !isValidHomeAssistantForm(args)),
  },
  // the cycle's entries (the member's tracking is off: every log is refused, whatever the form)
  "app/(app)/cycle/actions.ts#logPeriodStartAction": { as: () => member, args: stateAndForm({}) },
  "app/(app)/cycle/actions.ts#logCycleEntryAction": {
    as: () => member,
    args: stateAndForm({ day: validDay(), kind: fc.constantFrom(...CYCLE_ENTRY_KINDS, "period", "") }),
  },
  "app/(app)/cycle/actions.ts#editCycleEntryAction": {
    as: () => member,
    args: stateAndForm({ id: fc.string({ minLength: 1, maxLength: 30 }), day: validDay(), kind: fc.constantFrom(...CYCLE_ENTRY_KINDS) }),
  },
  "app/(app)/cycle/actions.ts#removeCycleEntryAction": { as: () => member, args: stateAndForm({ id: fc.string({ minLength: 1, maxLength: 30 }) }) },
};

function isValidReportLinkForm(args: ActionArg[]): boolean {
  const a = args[1];
  if (!a || !("form" in a)) return false;
  const first = (k: string) => a.form.find(([name]) => name === k)?.[1];
  return createReportLinkInputSchema.safeParse({ query: first("query") ?? "", expiresDays: first("expiresDays") ?? "", label: first("label") ?? "" }).success;
}

function isValidTokenForm(args: ActionArg[]): boolean {
  const a = args[1];
  if (!a || !("form" in a)) return false;
  const all = (k: string) => a.form.filter(([name]) => name === k).map(([, v]) => v);
  return schemas.createApiTokenInputSchema.safeParse({ name: all("name")[0] ?? "", kinds: all("kinds"), expires: all("expires")[0] }).success;
}

function isValidHomeAssistantForm(args: ActionArg[]): boolean {
  const a = args[1];
  if (!a || !("form" in a)) return false;
  const all = (k: string) => a.form.filter(([name]) => name === k).map(([, v]) => v);
  return schemas.homeAssistantSettingsInputSchema.safeParse({ enabled: all("enabled")[0] === "on", kinds: all("kinds") }).success;
}

/** Arguments of a (previous state, form) action: junk, or a state followed by form fields. */
function stateAndForm(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<ActionArg[]> {
  return fc.oneof(
    wrongArgs,
    fc.tuple(fc.constant({ json: {} }), formArg(fields)).map((t) => [...t]),
  );
}

/** The form of a (previous state, form) call, as the action reads it. */
function formOf(args: ActionArg[]): { get(k: string): string | undefined } | null {
  const a = args[1];
  if (!a || !("form" in a)) return null;
  return { get: (k) => a.form.find(([name]) => name === k)?.[1] };
}

function isValidRuleForm(args: ActionArg[]): boolean {
  const f = formOf(args);
  if (!f) return false;
  const kind = f.get("kind");
  return alertRuleInputSchema.safeParse({ kind, params: ruleParamsFromForm(kind, (name) => f.get(name)) }).success;
}

function isValidChannelForm(args: ActionArg[]): boolean {
  const f = formOf(args);
  if (!f) return false;
  return alertChannelInputSchema.safeParse({
    kind: f.get("kind"),
    label: f.get("label"),
    url: f.get("url"),
    token: f.get("token"),
    recipient: f.get("recipient"),
  }).success;
}

function isValidDisconnect(args: ActionArg[]): boolean {
  const a = args[0];
  if (!a || !("form" in a)) return false;
  const data = a.form.find(([k]) => k === "data")?.[1];
  return data === "keep" || data === "delete";
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

function state() {
  return fingerprint(db, STATE_TABLES, ["updatedAt", "syncedAt", "lastSuccessAt", "lastAttemptAt", "lastUsedAt"]);
}

function count(status: number) {
  tally.requests++;
  tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
}

async function send(
  browser: Browser | null,
  method: string,
  path: string,
  init: { body?: BodyInit; type?: string; chunked?: boolean; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.type) headers["content-type"] = init.type;
  let body = init.body;
  if (init.chunked && typeof body === "string") {
    const bytes = new TextEncoder().encode(body);
    body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 65_536) c.enqueue(bytes.subarray(i, i + 65_536));
        c.close();
      },
    });
  }
  const target = browser ?? new Browser();
  const res = await target.fetch(path, { method, headers, body, ...(init.chunked ? { duplex: "half" } : {}) } as RequestInit);
  const text = await res.text();
  count(res.status);
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, json, location: res.headers.get("location"), url: path };
}

/** Node's HTTP server refuses a request line longer than its header limit (16 KB) itself, with a bare 431. */
const LONG_URL = 8_000;

/** A refusal in the envelope: a 4xx whose JSON body is {error:{code,message}}. */
function expectEnvelope(r: { status: number; text: string; json: unknown; url?: string }, what: string) {
  if (r.status === 431 && (r.url?.length ?? 0) > LONG_URL) return;
  expect({
    what,
    status: r.status,
    envelope: asEnvelope(r.json) !== null,
    body: r.status >= 400 && r.status < 500 && asEnvelope(r.json) ? "" : r.text.slice(0, 200),
  }).toEqual({
    what,
    status: r.status,
    envelope: true,
    body: "",
  });
  expect(r.status, what).toBeGreaterThanOrEqual(400);
  expect(r.status, what).toBeLessThan(500);
}

function url(path: string, q?: Query): string {
  if (!q || Object.keys(q).length === 0) return path;
  return `${path}?${new URLSearchParams(q).toString()}`;
}

describe("[CHAOS 6] bad input", () => {
  it("every route handler and every server action of the app has a case here", () => {
    const routes = listRouteHandlers();
    expect(
      routes.filter((r) => !(r in ROUTES)),
      "routes without a bad-input case",
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((r) => !routes.includes(r)),
      "cases for routes that no longer exist",
    ).toEqual([]);
    const actions = listServerActions();
    expect(
      actions.filter((a) => !(a in ACTIONS)),
      "server actions without a bad-input case",
    ).toEqual([]);
    expect(
      Object.keys(ACTIONS).filter((a) => !actions.includes(a)),
      "cases for actions that no longer exist",
    ).toEqual([]);
    const built = builtServerActions().map((a) => `${a.file}#${a.name}`);
    expect(
      built.filter((a) => !actions.includes(a)),
      "built actions not found in the source",
    ).toEqual([]);
    expect(
      actions.filter((a) => !built.includes(a)),
      "source actions missing from the build (rebuild?)",
    ).toEqual([]);
    tally.routes = routes.length;
    tally.actions = actions.length;
  });

  for (const [key, spec] of Object.entries(ROUTES)) {
    const [method] = key.split(" ") as [string];
    it(`${key}: bad input → 4xx envelope, nothing changed, never a 5xx`, async () => {
      const before = state();
      const bearer = { authorization: `Bearer ${ownerToken}` };
      const mcpHeaders = { ...bearer, accept: "application/json, text/event-stream" };
      /** who sends the bad input: the owner's session, the owner's token, or nobody */
      const caller = spec.kind === "user" ? owner : null;
      const auth = spec.kind === "token" ? bearer : spec.kind === "mcp" ? mcpHeaders : {};
      const refusesInEnvelope = spec.kind === "user" || spec.kind === "token" || spec.kind === "mcp";
      if (spec.kind === "token" || spec.kind === "mcp") {
        // No token; the owner's session cookie alone; a made-up token; a foreign page with the token (MCP).
        const body = spec.kind === "mcp" ? { body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', type: "application/json" } : {};
        for (const [who, headers, what] of [
          [null, {}, "without a token"],
          [owner, {}, "with the owner's session cookie only"],
          [null, { authorization: `Bearer rs_pat_${"A".repeat(43)}` }, "with a made-up token"],
          [null, { authorization: `Basic ${Buffer.from(`x:${ownerToken}`).toString("base64")}` }, "with the token as Basic credentials"],
        ] as Array<[Browser | null, Record<string, string>, string]>) {
          const r = await send(who, method, spec.path(), { ...body, headers });
          expectEnvelope(r, `${key} ${what}`);
          expect({ key, what, code: asEnvelope(r.json)?.code }).toEqual({ key, what, code: "unauthorized" });
        }
        if (spec.kind === "mcp") {
          const foreign = await send(null, method, spec.path(), { ...body, headers: { ...mcpHeaders, origin: "https://evil.example" } });
          expect({ status: foreign.status, code: asEnvelope(foreign.json)?.code }).toEqual({ status: 403, code: "forbidden" });
        }
      }
      if (spec.kind === "readonly") {
        for (const [who, headers] of [
          [null, {}],
          [owner, {}],
          [null, mcpHeaders],
          [owner, mcpHeaders],
        ] as Array<[Browser | null, Record<string, string>]>) {
          const r = await send(who, method, spec.path(), method === "GET" ? { headers } : { body: '{"text":"x"}', type: "application/json", headers });
          expect({ key, status: r.status, code: asEnvelope(r.json)?.code }).toEqual({ key, status: 405, code: "method_not_allowed" });
        }
        for (const raw of rawBodies.filter(() => method !== "GET")) {
          const r = await send(null, method, spec.path(), { body: raw.body(), type: raw.type, chunked: raw.chunked, headers: bearer });
          expect({ key, raw: raw.name, status: r.status }).toEqual({ key, raw: raw.name, status: 405 });
        }
      }
      if (spec.kind === "user") {
        // No session, and a made-up one.
        expectEnvelope(await send(null, method, spec.path()), `${key} without a session`);
        const forged = new Browser();
        forged.jar.set("authjs.session-token", crypto.randomUUID());
        const r = await send(forged, method, spec.path());
        expectEnvelope(r, `${key} with a forged session`);
        expect(asEnvelope(r.json)?.code).toBe("unauthorized");
      }
      if (spec.badPath) {
        await fc.assert(
          fc.asyncProperty(spec.badPath, async (p) => {
            const r = await send(caller, method, p, spec.body ? { body: "{}", type: "application/json", headers: auth } : { headers: auth });
            expect(r.status, `${method} ${p}`).toBeLessThan(500);
            if (refusesInEnvelope) expectEnvelope(r, `${method} ${p.slice(0, 80)}`);
            else if (spec.kind === "invite" && r.location) expect(r.location).toMatch(/\/sign-in\/error\?error=invite_invalid$/);
            else if (spec.kind === "invite") expectEnvelope(r, `${method} ${p.slice(0, 80)}`);
            else expect(r.status === 302 || r.status === 303 || (r.status >= 400 && r.status < 500), `${method} ${p} → ${r.status}`).toBe(true);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
      if (spec.query) {
        const q = spec.query;
        await fc.assert(
          fc.asyncProperty(
            queryArb(q.fields).filter((x) => !q.schema.safeParse(x).success),
            async (query) => {
              expectEnvelope(
                await send(caller ?? owner, method, url(spec.path(), query), { headers: auth }),
                `${method} ${url(spec.path(), query).slice(0, 120)}`,
              );
            },
          ),
          { numRuns: RUNS, seed: SEED },
        );
      } else if ((spec.kind === "user" || spec.kind === "public" || spec.kind === "token") && !spec.mutates) {
        // A route that takes no query: junk parameters are ignored, never a failure.
        await fc.assert(
          fc.asyncProperty(queryArb({}), async (query) => {
            const r = await send(
              caller ?? owner,
              method,
              url(spec.path(), query),
              spec.body ? { body: "{}", type: "application/json", headers: auth } : { headers: auth },
            );
            expect(r.status, url(spec.path(), query)).toBeLessThan(500);
            if (r.status >= 400) expectEnvelope(r, url(spec.path(), query));
          }),
          { numRuns: Math.ceil(RUNS / 3), seed: SEED },
        );
      }
      if (spec.body) {
        const b = spec.body;
        await fc.assert(
          fc.asyncProperty(
            bodyArb(b.fields).filter((x) => !b.schema.safeParse(x).success),
            async (value) => {
              const text = JSON.stringify(value) ?? "null";
              expectEnvelope(
                await send(caller ?? owner, method, spec.path(), { body: text, type: "application/json", headers: auth }),
                `${key} ${text.slice(0, 120)}`,
              );
            },
          ),
          { numRuns: RUNS, seed: SEED },
        );
        for (const raw of rawBodies) {
          const r = await send(caller ?? owner, method, spec.path(), { body: raw.body(), type: raw.type, chunked: raw.chunked, headers: auth });
          expectEnvelope(r, `${key} ${raw.name}`);
        }
      }
      if (spec.kind === "webhook") {
        const r = await send(
          null,
          method,
          url(spec.path(), method === "GET" ? { verification_token: "wrong", challenge: "x" } : undefined),
          method === "POST" ? { body: '{"event_type":"create"}', type: "application/json" } : {},
        );
        expectEnvelope(r, `${key} unsigned`);
        await fc.assert(
          fc.asyncProperty(fc.tuple(queryArb({ verification_token: junk, challenge: junk }), junk), async ([query, body]) => {
            const r2 = await send(
              null,
              method,
              url(spec.path(), query),
              method === "POST"
                ? {
                    body,
                    type: "application/json",
                    headers: {
                      "x-oura-signature": Buffer.from(body).toString("hex").slice(0, 64).toUpperCase(),
                      "x-oura-timestamp": String(Math.floor(clock.now() / 1000)),
                    },
                  }
                : {},
            );
            expectEnvelope(r2, `${key} ${JSON.stringify(query).slice(0, 80)}`);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
      if (spec.kind === "auth" && method === "POST") {
        for (const path of ["/api/auth/signin/ring", "/api/auth/signout", "/api/auth/callback/ring", "/api/auth/session"]) {
          for (const raw of rawBodies.slice(0, 5)) {
            const r = await send(null, method, path, { body: raw.body(), type: raw.type ?? "application/x-www-form-urlencoded" });
            expect({ path, raw: raw.name, status: r.status < 500 }).toEqual({ path, raw: raw.name, status: true });
          }
        }
      }
      if (spec.kind === "auth" && method === "GET") {
        await fc.assert(
          fc.asyncProperty(queryArb({ code: junk, state: junk, error: junk, scope: junk }), async (query) => {
            const r = await send(null, "GET", url("/api/auth/callback/ring", query));
            expect(r.status, url("/api/auth/callback/ring", query).slice(0, 120)).toBeLessThan(500);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
      expect(state(), `${key} changed stored state`).toEqual(before);
    });
  }

  for (const [key, spec] of Object.entries(ACTIONS)) {
    it(`server action ${key}: bad arguments → error envelope, nothing changed, never a 5xx`, async () => {
      const [file, name] = key.split("#") as [string, string];
      const built = builtServerActions().find((a) => a.file === file && a.name === name) as ManifestAction;
      expect(built, `${key} is in the production build`).toBeTruthy();
      const page = pagePath(built.pages[0]!);
      const before = state();
      await fc.assert(
        fc.asyncProperty(spec.args, async (args) => {
          const r = await callAction(spec.as(), { id: built.id, page, args });
          count(r.status);
          expect(state(), `${key} changed stored state with ${JSON.stringify(args).slice(0, 200)}`).toEqual(before);
          expect({ key, status: r.status < 500, error: r.error }).toEqual({ key, status: true, error: false });
          // Either refused in the envelope, or (sign-in actions) sent on to the sign-in page.
          if (!r.redirect)
            expect({ key, args: JSON.stringify(args).slice(0, 100), envelope: asEnvelope(r.result) !== null }).toEqual({
              key,
              args: JSON.stringify(args).slice(0, 100),
              envelope: true,
            });
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // Without a session, every action that needs one refuses in the envelope.
      const anonymous = await callAction(new Browser(), {
        id: built.id,
        page,
        args: [
          {
            form: [
              ["data", "keep"],
              ["inviteId", "x"],
            ],
          },
        ],
      });
      count(anonymous.status);
      expect(anonymous.status).toBeLessThan(500);
      if (!anonymous.redirect) expect(asEnvelope(anonymous.result)?.code).toBe("unauthorized");
      expect(state(), `${key} changed stored state`).toEqual(before);
    });
  }

  it("server-action requests that are not actions: unknown id, undecodable body, oversized, foreign origin → refused, nothing changed", async () => {
    const before = state();
    const built = builtServerActions().find((a) => a.name === "disconnectRing")!;
    const page = pagePath(built.pages[0]!);
    const cases: Array<{ what: string; run: () => ReturnType<typeof callAction> }> = [
      { what: "unknown action id", run: () => callAction(owner, { id: "7f" + "ab".repeat(20), page, args: [] }) },
      { what: "undecodable body", run: () => callAction(owner, { id: built.id, page, raw: { body: "[{{{", contentType: "text/plain;charset=UTF-8" } }) },
      { what: "dangling reference", run: () => callAction(owner, { id: built.id, page, raw: { body: '["$@9"]', contentType: "text/plain;charset=UTF-8" } }) },
      {
        what: "oversized body",
        run: () =>
          callAction(owner, { id: built.id, page, raw: { body: JSON.stringify(["x".repeat(3 * 1_048_576)]), contentType: "text/plain;charset=UTF-8" } }),
      },
      { what: "foreign origin", run: () => callAction(owner, { id: built.id, page, args: [{ form: [["data", "delete"]] }], origin: "http://evil.example" }) },
    ];
    const seen: Record<string, number> = {};
    for (const c of cases) {
      const r = await c.run();
      count(r.status);
      seen[c.what] = r.status;
      expect({ what: c.what, status: r.status >= 400 && r.status < 500 }).toEqual({ what: c.what, status: true });
    }
    expect(state()).toEqual(before);
    tally.statuses = { ...tally.statuses };
    recordFigures("bad-input", { ...tally, transport: seen });
  });

  it("no token reached the database file or the app's log (the ring's, and the personal access token)", () => {
    expect(findLeaks([...emu.issuedSecrets(), ownerToken], [app.dbFile, `${app.dbFile}-wal`, app.logFile])).toEqual([]);
  });
});
