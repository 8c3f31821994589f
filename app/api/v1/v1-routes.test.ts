// The read API (/api/v1) on a real (temporary) database holding two people's generated
// history: every route's real answers against the generated OpenAPI document (ajv), bearer
// tokens only (a session cookie alone is refused), isolation between the two people, a
// token's data kinds, revocation, writes refused, bad input, and the same figures as the
// app's own routes.
import { clock } from "@/lib/clock";
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { DATA_KINDS, type DataKind } from "@/lib/auth/api-scopes";
import { seedPerson, type SeededPerson } from "@/lib/test/people";
import { sqlAll, sqlRun } from "@/lib/test/sql";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Doc = {
  paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }> } }>;
};

const FIRST = "2024-01-01";
const LAST = "2024-06-30";
let A: SeededPerson;
let B: SeededPerson;
const tokens: Record<string, string> = {};
let aTagId = 0;
let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const checked = new Map<string, Set<number>>();

/** A v1 route module by its OpenAPI path ("/api/v1/metrics/{metric}" → app/api/v1/metrics/[metric]/route.ts). */
async function routeOf(apiPath: string): Promise<Record<string, Handler>> {
  return import(`@/app${apiPath.replace(/\{(\w+)\}/g, "[$1]").replace(/^\/api/, "/api")}/route`);
}

/** GET through the route handler: `apiPath` names the documented path, `url` the concrete one. */
async function call(
  apiPath: string,
  url: string,
  opts: { token?: string | null; method?: string; headers?: Record<string, string>; params?: Record<string, string> } = {},
) {
  const mod = await routeOf(apiPath);
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  const method = opts.method ?? "GET";
  const res = await mod[method]!(new Request(`http://localhost${url}`, { method, headers }), { params: Promise.resolve(opts.params ?? {}) });
  const body = await res.json();
  return { status: res.status, body, headers: res.headers };
}

/** The answer conforms to what the document declares for this path and status. */
function expectConforms(apiPath: string, r: { status: number; body: unknown }) {
  const declared = doc.paths[apiPath]?.get.responses[String(r.status)];
  expect(declared, `${apiPath} declares ${r.status}`).toBeTruthy();
  const validate = ajv.compile({
    $ref: `openapi#/paths/${apiPath.replaceAll("~", "~0").replaceAll("/", "~1")}/get/responses/${r.status}/content/application~1json/schema`,
  });
  const ok = validate(r.body);
  expect({ apiPath, status: r.status, errors: ok ? null : ajv.errorsText(validate.errors).slice(0, 2000) }).toEqual({
    apiPath,
    status: r.status,
    errors: null,
  });
  checked.set(apiPath, (checked.get(apiPath) ?? new Set()).add(r.status));
}

async function token(userId: string, kinds: readonly DataKind[] = DATA_KINDS, name = "test") {
  const { createApiToken } = await import("@/lib/services/api-tokens");
  return (await createApiToken(userId, { name, kinds })).token;
}

beforeAll(async () => {
  A = await seedPerson({ userId: "u-a", seed: "v1-a", from: FIRST, to: LAST });
  B = await seedPerson({ userId: "u-b", seed: "v1-b", from: "2024-03-01", to: LAST });
  const { setDayNote } = await import("@/lib/db/queries/notes");
  for (const d of ["2024-06-01", "2024-06-05", "2024-06-09", "2024-06-13", "2024-06-17"])
    await setDayNote({ userId: A.userId, day: d, text: `A's private note ${d}`, tags: ["late-dinner"] });
  await setDayNote({ userId: B.userId, day: "2024-06-02", text: "B's note", tags: ["b-tag"] });
  const { listTags } = await import("@/lib/db/queries/notes");
  aTagId = (await listTags(A.userId))[0]!.id;
  tokens.a = await token(A.userId);
  tokens.b = await token(B.userId);
  tokens.sleepOnly = await token(A.userId, ["daily_sleep"], "sleep only");
  const { GET } = await import("@/app/api/v1/openapi.json/route");
  doc = (await (await (GET as unknown as Handler)(new Request("http://localhost/api/v1/openapi.json"), { params: Promise.resolve({}) })).json()) as Doc;
  ajv.addSchema(doc as object, "openapi");
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and lists exactly the GET routes under app/api/v1", async () => {
    expect((doc as unknown as { openapi: string }).openapi).toBe("3.1.0");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, d.name);
        if (d.isDirectory()) walk(p);
        else if (d.name === "route.ts") files.push(p);
      }
    };
    walk(path.resolve("app/api/v1"));
    const routes = files
      .map((f) => "/" + path.relative(path.resolve("app"), path.dirname(f)).split(path.sep).join("/"))
      .map((p) => p.replace(/\[(\w+)\]/g, "{$1}"))
      .filter((p) => p !== "/api/v1/openapi.json")
      .sort();
    expect(Object.keys(doc.paths).sort()).toEqual(routes);
  });

  it("takes its query parameters from the app's own request schemas", () => {
    const params = (doc.paths["/api/v1/correlations"]!.get as unknown as { parameters: Array<{ name: string; required: boolean }> }).parameters;
    expect(params.map((p) => [p.name, p.required])).toEqual([
      ["x", true],
      ["y", true],
      ["lag", false],
      ["from", false],
      ["to", false],
    ]);
  });
});

describe("every route's answers conform to the document", () => {
  const range = `from=2024-04-01&to=${LAST}`;
  const cases: Array<[string, string, Record<string, string>?]> = [
    ["/api/v1/metrics", "/api/v1/metrics"],
    ["/api/v1/metrics/{metric}", `/api/v1/metrics/sleep.score?${range}`, { metric: "sleep.score" }],
    ["/api/v1/metrics/{metric}", `/api/v1/metrics/stress.day_summary?${range}`, { metric: "stress.day_summary" }],
    ["/api/v1/days", `/api/v1/days?${range}`],
    ["/api/v1/days", `/api/v1/days?metrics=sleep.score,stress.day_summary,night.average_hrv&${range}`],
    ["/api/v1/days/latest", "/api/v1/days/latest"],
    ["/api/v1/days/{day}", "/api/v1/days/2024-06-01", { day: "2024-06-01" }],
    ["/api/v1/calendar", `/api/v1/calendar?metric=readiness.score&${range}`],
    ["/api/v1/correlations", `/api/v1/correlations?x=activity.steps&y=sleep.score&lag=1&${range}`],
    ["/api/v1/correlations/strongest", `/api/v1/correlations/strongest?${range}&limit=5`],
    ["/api/v1/tags", "/api/v1/tags"],
    ["/api/v1/tags/{id}/comparison", "/api/v1/tags/ID/comparison?metric=sleep.score&lag=1"],
    ["/api/v1/notes", `/api/v1/notes?${range}`],
    ["/api/v1/sync/status", "/api/v1/sync/status"],
    ["/api/v1/state", "/api/v1/state"],
    ["/api/v1/signals", `/api/v1/signals?${range}`],
    ["/api/v1/cycle", `/api/v1/cycle?from=2024-06-01&to=${LAST}`],
    ["/api/v1/report", `/api/v1/report?${range}&compare=previous&sections=summary,charts,events,methods,notes,cycle`],
  ];
  for (const [apiPath, url, params] of cases) {
    it(`${url.split("?")[0]}: 200, 401 without a token, 401 with a session cookie only`, async () => {
      const u = url.replace("/ID/", `/${aTagId}/`);
      const p = apiPath.includes("{id}") ? { id: String(aTagId) } : params;
      const ok = await call(apiPath, u, { token: tokens.a, params: p });
      expect(ok.status).toBe(200);
      expectConforms(apiPath, ok);
      expect(ok.headers.get("x-ratelimit-limit")).toBe("120");
      const none = await call(apiPath, u, { params: p });
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expectConforms(apiPath, none);
      // a valid session of A's: the read API does not look at cookies
      const session = `sess-${Math.random().toString(36).slice(2)}`;
      await sqlRun(
        `INSERT INTO "Session" (id, sessionToken, userId, expires) VALUES (?, ?, ?, ?)`,
        session,
        session,
        A.userId,
        new Date(clock.now() + 86_400_000).toISOString(),
      );
      const cookie = await call(apiPath, u, { params: p, headers: { cookie: `authjs.session-token=${session}` } });
      expect(cookie.status).toBe(401);
    });
  }

  it("refusals conform too: 403 (kind), 404 (someone else's tag), 422 (bad input)", async () => {
    const forbidden = await call("/api/v1/metrics/{metric}", "/api/v1/metrics/readiness.score", {
      token: tokens.sleepOnly,
      params: { metric: "readiness.score" },
    });
    expect(forbidden.status).toBe(403);
    expectConforms("/api/v1/metrics/{metric}", forbidden);
    const noSignals = await call("/api/v1/signals", "/api/v1/signals", { token: tokens.sleepOnly });
    expect(noSignals.status).toBe(403);
    expectConforms("/api/v1/signals", noSignals);
    const noReport = await call("/api/v1/report", "/api/v1/report", { token: tokens.sleepOnly });
    expect(noReport.status).toBe(403);
    expectConforms("/api/v1/report", noReport);
    const foreign = await call("/api/v1/tags/{id}/comparison", `/api/v1/tags/${aTagId}/comparison?metric=sleep.score`, {
      token: tokens.b,
      params: { id: String(aTagId) },
    });
    expect(foreign.status).toBe(404);
    expectConforms("/api/v1/tags/{id}/comparison", foreign);
    for (const [apiPath, url, params] of [
      ["/api/v1/metrics/{metric}", "/api/v1/metrics/nope", { metric: "nope" }],
      ["/api/v1/metrics/{metric}", "/api/v1/metrics/sleep.score?from=2024-05-01&to=2024-04-01", { metric: "sleep.score" }],
      ["/api/v1/days/{day}", "/api/v1/days/2024-02-30", { day: "2024-02-30" }],
      ["/api/v1/calendar", "/api/v1/calendar?metric=stress.day_summary"],
      ["/api/v1/correlations", "/api/v1/correlations?x=sleep.score&y=resilience.level"],
      ["/api/v1/correlations/strongest", "/api/v1/correlations/strongest?limit=1000"],
      ["/api/v1/notes", "/api/v1/notes?from=1999-01-01"],
      ["/api/v1/days/latest", "/api/v1/days/latest?day=yesterday"],
      ["/api/v1/days", "/api/v1/days?metrics=sleep.score,nope"],
      [
        "/api/v1/days",
        `/api/v1/days?metrics=${Array.from({ length: 21 }, (_, i) => ["sleep.score", "readiness.score", "activity.steps", "night.average_hrv", "night.lowest_heart_rate", "activity.score", "spo2.spo2_average"][i % 7]).join(",")},${["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"].map((x) => `x.${x}`).join(",")}`,
      ],
      ["/api/v1/days", "/api/v1/days?metrics="],
      ["/api/v1/signals", "/api/v1/signals?from=2023-01-01&to=2024-06-30"],
      ["/api/v1/signals", "/api/v1/signals?to=2024-02-31"],
      ["/api/v1/report", "/api/v1/report?from=2023-01-01&to=2024-06-30"],
      ["/api/v1/report", "/api/v1/report?sections=summary,vitals"],
    ] as Array<[string, string, Record<string, string>?]>) {
      const r = await call(apiPath, url, { token: tokens.a, params });
      expect({ url, status: r.status }).toEqual({ url, status: 422 });
      expectConforms(apiPath, r);
    }
  });

  it("every documented route was checked with at least 200 and 401", () => {
    for (const p of Object.keys(doc.paths))
      expect([p, [...(checked.get(p) ?? [])].includes(200) && [...(checked.get(p) ?? [])].includes(401)]).toEqual([p, true]);
  });
});

describe("the same figures as the app's own routes", () => {
  it("series, correlation and tag comparison equal the page services' answers", async () => {
    const { getMetricSeries, getCorrelation } = await import("@/lib/services/metrics");
    const { getTagComparison } = await import("@/lib/services/tags");
    const { getMetric } = await import("@/lib/metrics/catalog");
    const s = await call("/api/v1/metrics/{metric}", `/api/v1/metrics/night.average_hrv?from=2024-04-01&to=${LAST}`, {
      token: tokens.a,
      params: { metric: "night.average_hrv" },
    });
    expect(s.body).toEqual(
      JSON.parse(JSON.stringify(await getMetricSeries({ userId: A.userId, metric: getMetric("night.average_hrv"), from: "2024-04-01", to: LAST }))),
    );
    const c = await call("/api/v1/correlations", `/api/v1/correlations?x=activity.steps&y=sleep.score&lag=1&from=2024-01-01&to=${LAST}`, { token: tokens.a });
    expect(c.body).toEqual(
      JSON.parse(
        JSON.stringify(await getCorrelation({ userId: A.userId, x: getMetric("activity.steps"), y: getMetric("sleep.score"), lag: 1, from: FIRST, to: LAST })),
      ),
    );
    const t = await call("/api/v1/tags/{id}/comparison", `/api/v1/tags/${aTagId}/comparison?metric=sleep.score&lag=1`, {
      token: tokens.a,
      params: { id: String(aTagId) },
    });
    expect(t.body).toEqual(JSON.parse(JSON.stringify(await getTagComparison({ userId: A.userId, id: aTagId, metric: getMetric("sleep.score"), lag: 1 }))));
    expect(t.body.comparison.tagged.n).toBe(5);
    const table = await call("/api/v1/days", `/api/v1/days?metrics=sleep.score,night.average_hrv&from=2024-06-01&to=${LAST}`, { token: tokens.a });
    const score = await getMetricSeries({ userId: A.userId, metric: getMetric("sleep.score"), from: "2024-06-01", to: LAST });
    for (const row of table.body.days) expect(row.values["sleep.score"]).toBe(score.value[Number(row.day.slice(8)) - 1]);
    expect(table.body.days.length).toBeGreaterThan(25);
  });
});

describe("isolation between two people", () => {
  it("each token reads its owner's data only", async () => {
    const a = await call("/api/v1/metrics/{metric}", `/api/v1/metrics/sleep.score?from=2024-03-01&to=${LAST}`, {
      token: tokens.a,
      params: { metric: "sleep.score" },
    });
    const b = await call("/api/v1/metrics/{metric}", `/api/v1/metrics/sleep.score?from=2024-03-01&to=${LAST}`, {
      token: tokens.b,
      params: { metric: "sleep.score" },
    });
    const byDay = (docs: SeededPerson) => new Map(docs.docs.daily_sleep!.map((d) => [d.day, d.score ?? null]));
    expect(a.body.value[10]).toBe(byDay(A).get("2024-03-11"));
    expect(b.body.value[10]).toBe(byDay(B).get("2024-03-11"));
    expect(a.body.value).not.toEqual(b.body.value);
    // B's history starts in March: nothing of A's January
    const old = await call("/api/v1/metrics/{metric}", "/api/v1/metrics/sleep.score?from=2024-01-01&to=2024-02-28", {
      token: tokens.b,
      params: { metric: "sleep.score" },
    });
    expect(old.body.summary.n).toBe(0);
    const notes = await call("/api/v1/notes", `/api/v1/notes?from=${FIRST}&to=${LAST}`, { token: tokens.b });
    expect(JSON.stringify(notes.body)).not.toContain("A's private note");
    expect(notes.body.days).toHaveLength(1);
    const tags = await call("/api/v1/tags", "/api/v1/tags", { token: tokens.b });
    expect(tags.body.tags.map((t: { name: string }) => t.name)).toEqual(["b-tag"]);
    const day = await call("/api/v1/days/{day}", "/api/v1/days/2024-06-01", { token: tokens.b, params: { day: "2024-06-01" } });
    expect(JSON.stringify(day.body)).not.toContain("A's private note");
    const aDocIds = new Set(A.docs.daily_sleep!.map((d) => d.id));
    expect(Object.values(day.body.raw).some((r) => aDocIds.has((r as { id?: string }).id))).toBe(false);
  });
});

describe("a token's data kinds", () => {
  it("a sleep-only token reads sleep scores and nothing else", async () => {
    const ok = await call("/api/v1/metrics/{metric}", "/api/v1/metrics/sleep.score", { token: tokens.sleepOnly, params: { metric: "sleep.score" } });
    expect(ok.status).toBe(200);
    for (const [apiPath, url, params] of [
      ["/api/v1/metrics/{metric}", "/api/v1/metrics/night.average_hrv", { metric: "night.average_hrv" }],
      ["/api/v1/calendar", "/api/v1/calendar?metric=activity.steps"],
      ["/api/v1/correlations", "/api/v1/correlations?x=sleep.score&y=activity.steps"],
      ["/api/v1/tags", "/api/v1/tags"],
      ["/api/v1/notes", "/api/v1/notes"],
      ["/api/v1/days", "/api/v1/days?metrics=sleep.score,readiness.score"],
      ["/api/v1/tags/{id}/comparison", `/api/v1/tags/${aTagId}/comparison?metric=sleep.score`, { id: String(aTagId) }],
    ] as Array<[string, string, Record<string, string>?]>) {
      const r = await call(apiPath, url, { token: tokens.sleepOnly, params });
      expect({ url, status: r.status, code: r.body.error?.code }).toEqual({ url, status: 403, code: "forbidden" });
    }
    const catalog = await call("/api/v1/metrics", "/api/v1/metrics", { token: tokens.sleepOnly });
    expect(catalog.body.metrics.filter((m: { readable: boolean }) => m.readable).map((m: { dataKind: string }) => m.dataKind)).toEqual(
      expect.arrayContaining(["daily_sleep"]),
    );
    expect(new Set(catalog.body.metrics.filter((m: { readable: boolean }) => m.readable).map((m: { dataKind: string }) => m.dataKind))).toEqual(
      new Set(["daily_sleep"]),
    );
    expect(catalog.body.ranges.map((r: { collection: string }) => r.collection)).toEqual(["daily_sleep"]);
    const table = await call("/api/v1/days", `/api/v1/days?from=2024-06-01&to=${LAST}`, { token: tokens.sleepOnly });
    expect(table.body.metrics).toEqual(["sleep.score"]);
    const today = await call("/api/v1/days/latest", "/api/v1/days/latest", { token: tokens.sleepOnly });
    expect(Object.keys(today.body.metrics).every((id) => id.startsWith("sleep."))).toBe(true);
    expect(Object.keys(today.body.metrics).length).toBeGreaterThan(0);
    const day = await call("/api/v1/days/{day}", "/api/v1/days/2024-06-01", { token: tokens.sleepOnly, params: { day: "2024-06-01" } });
    expect(Object.keys(day.body.daily)).toEqual(["daily_sleep"]);
    expect(day.body.periods).toEqual([]);
    expect(day.body.activity).toBeNull();
    expect(day.body.note).toBeNull();
    const strongest = await call("/api/v1/correlations/strongest", `/api/v1/correlations/strongest?from=${FIRST}&to=${LAST}`, { token: tokens.sleepOnly });
    expect(strongest.body.results).toEqual([]);
    const status = await call("/api/v1/sync/status", "/api/v1/sync/status", { token: tokens.sleepOnly });
    expect(status.body.collections.map((c: { collection: string }) => c.collection)).toEqual(["daily_sleep"]);
  });
});

describe("tokens", () => {
  it("a revoked token gets 401 at once; its last use is recorded", async () => {
    const { listApiTokenSummaries, revokeApiToken } = await import("@/lib/services/api-tokens");
    const t = await token(A.userId, DATA_KINDS, "to revoke");
    const mine = async () => (await listApiTokenSummaries(A.userId)).find((x) => x.name === "to revoke")!;
    expect((await mine()).lastUsedAt).toBeNull();
    expect((await call("/api/v1/tags", "/api/v1/tags", { token: t })).status).toBe(200);
    expect((await mine()).lastUsedAt).not.toBeNull();
    // B cannot revoke A's token
    await expect(revokeApiToken(B.userId, (await mine()).id)).rejects.toThrow(/No such token/);
    await revokeApiToken(A.userId, (await mine()).id);
    const r = await call("/api/v1/tags", "/api/v1/tags", { token: t });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  });

  it("malformed, unknown and lookalike tokens are refused alike", async () => {
    for (const bad of ["nope", `rs_pat_${"A".repeat(43)}`, `${tokens.a}x`, tokens.a!.slice(0, -1), `Basic ${tokens.a}`]) {
      const r = await call("/api/v1/tags", "/api/v1/tags", { headers: { authorization: bad.startsWith("Basic") ? bad : `Bearer ${bad}` } });
      expect(r.status).toBe(401);
    }
  });

  it("only a hash is stored", async () => {
    const rows = await sqlAll(`SELECT * FROM api_token`);
    const text = JSON.stringify(rows);
    for (const t of Object.values(tokens)) expect(text).not.toContain(t.slice(7));
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.tokenHash)))).toBe(true);
  });

  it("at most 10 tokens per person", async () => {
    const { createApiToken, listApiTokenSummaries } = await import("@/lib/services/api-tokens");
    const before = (await listApiTokenSummaries(B.userId)).length;
    for (let i = before; i < 10; i++) await createApiToken(B.userId, { name: `t${i}`, kinds: ["daily_sleep"] });
    await expect(createApiToken(B.userId, { name: "one too many", kinds: ["daily_sleep"] })).rejects.toThrow(/10 tokens/);
    expect(await listApiTokenSummaries(B.userId)).toHaveLength(10);
  });

  it("writes are refused with 405 and the envelope, token or not", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const r = await call("/api/v1/tags", "/api/v1/tags", { token: tokens.a, method });
      expect({ method, status: r.status, code: r.body.error.code }).toEqual({ method, status: 405, code: "method_not_allowed" });
      expect(r.headers.get("allow")).toBe("GET, HEAD");
    }
  });
});

describe("token expiry (the audit: tokens never expired)", () => {
  it("a token opens nothing from its expiry on; 'never' keeps working; without a choice it lasts 90 days", async () => {
    const at = Date.parse("2026-01-01T00:00:00Z");
    await sqlRun(
      `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES ('u-exp', 'exp@example.test', 'member', 'metric', 'system', ?, ?)`,
      new Date(at).toISOString(),
      new Date(at).toISOString(),
    );
    const { createApiToken, listApiTokenSummaries } = await import("@/lib/services/api-tokens");
    const { createApiTokenInputSchema } = await import("@/lib/schemas/requests");
    const { ManualClock, setClock } = await import("@/lib/clock");
    const clock = new ManualClock(at);
    setClock(clock);
    try {
      const month = (await createApiToken("u-exp", createApiTokenInputSchema.parse({ name: "month", kinds: DATA_KINDS, expires: "30" }))).token;
      const forever = (await createApiToken("u-exp", createApiTokenInputSchema.parse({ name: "forever", kinds: DATA_KINDS, expires: "never" }))).token;
      await createApiToken("u-exp", createApiTokenInputSchema.parse({ name: "default", kinds: DATA_KINDS }));
      const day = 86_400_000;
      const listed = Object.fromEntries((await listApiTokenSummaries("u-exp")).map((t) => [t.name, t.expiresAt]));
      expect(listed).toEqual({ month: new Date(at + 30 * day).toISOString(), forever: null, default: new Date(at + 90 * day).toISOString() });
      expect(createApiTokenInputSchema.safeParse({ name: "x", kinds: DATA_KINDS, expires: "1000" }).success).toBe(false);
      clock.set(at + 30 * day - 1000);
      expect((await call("/api/v1/tags", "/api/v1/tags", { token: month })).status).toBe(200);
      clock.set(at + 30 * day);
      const expired = await call("/api/v1/tags", "/api/v1/tags", { token: month });
      expect({ status: expired.status, code: expired.body.error.code }).toEqual({ status: 401, code: "unauthorized" });
      expect((await call("/api/v1/tags", "/api/v1/tags", { token: forever })).status).toBe(200);
    } finally {
      setClock(undefined);
    }
  });
});
