// Conformance: every other V2 data resource of OpenAPI 1.37 — the date-range collections workout,
// session, enhanced_tag, tag (deprecated), vO2_max, sleep_time, rest_mode_period, the
// ring_configuration family and the time series heartrate and ring_battery_level (ring-api-facts
// §1 route families, §2.2–2.4 paging, fields and windows, §3.10 and the Addendum's observed shapes,
// §5.6 scopes at both identity providers, §6.1 webhook data types) — in the real and the sandbox
// family, the control API's view of them, and their notifications after sync. Every JSON body is
// validated against the OpenAPI document.
import { clock } from "@/lib/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import {
  TODAY,
  type Connection,
  type Ring,
  type TestClient,
  WebhookReceiver,
  expectOpenApiResponse,
  expectSchema,
  uniqueEmail,
  useEmulator,
} from "@/e2e/conformance/support";
import { dayWith, resourceEmail, revisedDay, ringReplacedAfter, wornEmail } from "@/lib/test/emulator-kit";

const HISTORY_DAYS = 60;
const ring: Ring = useEmulator({ pageSize: 7, historyDays: HISTORY_DAYS });
/** The same with RING_EMULATOR_TIMESERIES_MAX_DAYS=30. */
const limited: Ring = useEmulator({ historyDays: 40, timeseriesMaxDays: 30 });
const hooks: Ring = useEmulator({ webhookDelayMs: 50, webhookRetryMs: 20, historyDays: 20 }, { clock: "manual" });

const DOCS = {
  workout: { doc: "PublicWorkout", multi: "MultiDocumentResponse_PublicWorkout_", scope: "workout" },
  session: { doc: "PublicSession", multi: "MultiDocumentResponse_PublicSession_", scope: "session" },
  enhanced_tag: { doc: "EnhancedTagModel", multi: "MultiDocumentResponse_EnhancedTagModel_", scope: "tag" },
  tag: { doc: "TagModel", multi: "MultiDocumentResponse_TagModel_", scope: "tag" },
  vO2_max: { doc: "PublicVO2Max", multi: "MultiDocumentResponse_PublicVO2Max_", scope: "daily" },
  sleep_time: { doc: "PublicSleepTime", multi: "MultiDocumentResponse_PublicSleepTime_", scope: "daily" },
  rest_mode_period: { doc: "PublicRestModePeriod", multi: "MultiDocumentResponse_PublicRestModePeriod_", scope: "daily" },
  ring_configuration: { doc: "PublicRingConfiguration", multi: "MultiDocumentResponse_PublicRingConfiguration_", scope: "daily" },
} as const;
type DocResource = keyof typeof DOCS;
const DOC_RESOURCES = Object.keys(DOCS) as DocResource[];
const SERIES = {
  heartrate: { row: "PublicHeartRateRow", multi: "TimeSeriesResponse_PublicHeartRateRow_", scope: "heartrate" },
  ring_battery_level: { row: "PublicRingBatteryLevelRow", multi: "TimeSeriesResponse_PublicRingBatteryLevelRow_", scope: "daily" },
} as const;
type SeriesResource = keyof typeof SERIES;
const SERIES_RESOURCES = Object.keys(SERIES) as SeriesResource[];
const NEEDS: Record<string, string> = {
  ...Object.fromEntries(DOC_RESOURCES.map((c) => [c, DOCS[c].scope])),
  ...Object.fromEntries(SERIES_RESOURCES.map((c) => [c, SERIES[c].scope])),
};
const ALL_NEW = [...DOC_RESOURCES, ...SERIES_RESOURCES];
/** Wide enough for the whole history on every route, whatever its window semantics. */
const WIDE = { start_date: addDays(TODAY, -400), end_date: addDays(TODAY, 2) };
const PAGE = 1000; // RING_EMULATOR_TIMESERIES_PAGE_SIZE default
const real = (c: string) => `/v2/usercollection/${c}`;
const sandbox = (c: string) => `/v2/sandbox/usercollection/${c}`;
const dayKey = (c: string, d: Record<string, unknown>) => String(c === "enhanced_tag" || c === "rest_mode_period" ? d.start_day : d.day);

type Doc = Record<string, unknown>;
type Row = Doc & { timestamp: string; timestamp_unix: number };

let client: TestClient;
let conn: Connection;
let userId: string;
const stored = {} as Record<DocResource, Doc[]>;

beforeAll(async () => {
  client = await ring.registerClient();
  const history = Array.from({ length: HISTORY_DAYS }, (_, i) => addDays(TODAY, -i));
  // a generated person with at least one of each per-day resource in the history
  const email = resourceEmail("res", history, ["workout", "session", "enhanced_tag", "tag", "vO2_max", "sleep_time", "rest_mode_period"], {
    worn: [addDays(TODAY, -3), addDays(TODAY, -1), TODAY],
  });
  const user = await ring.createUser({ email, history_days: HISTORY_DAYS });
  userId = user.user_id;
  conn = await ring.connect(client, { email });
  for (const c of DOC_RESOURCES) stored[c] = await ring.storedDocuments(userId, c);
});

async function samplesOf(r: Ring, user: string, c: SeriesResource, start: string, end: string): Promise<Row[]> {
  const res = await r.control<{ data: Row[] }>(
    "GET",
    `/_emulator/users/${user}/documents/${c}?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`,
  );
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return res.body.data;
}

async function listed(path: string, query: Record<string, string | undefined>, token = conn.accessToken): Promise<Doc[]> {
  return (await ring.listAll(path, token, query)).flatMap((p) => p.data);
}

describe("facts §1 — date-range collections of everything the ring records (/v2/usercollection)", () => {
  for (const c of DOC_RESOURCES) {
    it(`${c}: every stored document once, in order, in pages of RING_EMULATOR_PAGE_SIZE (${DOCS[c].multi}), each also served by id (${DOCS[c].doc})`, async () => {
      const docs = stored[c];
      expect(docs.length, `${c} has documents`).toBeGreaterThan(0);
      const pages = await ring.listAll(real(c), conn.accessToken, c === "ring_configuration" ? {} : WIDE);
      for (const p of pages) {
        expect(p.data.length).toBeLessThanOrEqual(7);
        expectOpenApiResponse(real(c), "get", 200, p);
        expectSchema(DOCS[c].multi, p);
      }
      expect(pages.flatMap((p) => p.data)).toEqual(docs);
      for (const d of docs.slice(-3)) {
        const one = await ring.api(`${real(c)}/${String(d.id)}`, { token: conn.accessToken });
        expect(one.status).toBe(200);
        expect(one.body).toEqual(d);
        expectOpenApiResponse(`${real(c)}/{document_id}`, "get", 200, one.body);
        expectSchema(DOCS[c].doc, one.body);
      }
    });
  }

  it('404 {"detail":"Document not found."} for an unknown id on every single-document route; the time series have no single-document route', async () => {
    for (const c of DOC_RESOURCES) {
      const r = await ring.api(`${real(c)}/3e8de08b-9fa1-4fb0-8edc-0ccf097f6693`, { token: conn.accessToken });
      expect(r.status, c).toBe(404);
      expect(r.body).toEqual({ detail: "Document not found." });
      expectOpenApiResponse(`${real(c)}/{document_id}`, "get", 404, r.body);
    }
    for (const c of SERIES_RESOURCES) expect((await ring.api(`${real(c)}/anything`, { token: conn.accessToken })).status).toBe(404);
  });

  it("ring_configuration takes only next_token and fields: start_date and end_date are not its parameters and change nothing", async () => {
    const all = await listed(real("ring_configuration"), {});
    expect(all.length).toBeGreaterThanOrEqual(1);
    expect(all.length).toBeLessThanOrEqual(2);
    expect(await listed(real("ring_configuration"), { start_date: TODAY, end_date: TODAY })).toEqual(all);
    const projected = await ring.api<{ data: Doc[] }>(real("ring_configuration"), { token: conn.accessToken, query: { fields: "firmware_version" } });
    expectOpenApiResponse(real("ring_configuration"), "get", 200, projected.body);
    for (const d of projected.body.data) expect(Object.keys(d).sort()).toEqual(["firmware_version", "id"]);
  });

  it("fields: the requested fields plus the always-returned ones (id and day on workouts, timestamp on the time series)", async () => {
    const w = await ring.api<{ data: Doc[] }>(real("workout"), { token: conn.accessToken, query: { ...WIDE, fields: "calories" } });
    expectOpenApiResponse(real("workout"), "get", 200, w.body);
    for (const d of w.body.data) expect(Object.keys(d).sort()).toEqual(["calories", "day", "id"]);
    const hr = await ring.api<{ data: Doc[] }>(real("heartrate"), { token: conn.accessToken, query: { fields: "bpm" } });
    expectOpenApiResponse(real("heartrate"), "get", 200, hr.body);
    expectSchema("TimeSeriesResponseDict", hr.body);
    expect(hr.body.data.length).toBeGreaterThan(0);
    for (const d of hr.body.data) expect(Object.keys(d).sort()).toEqual(["bpm", "timestamp"]);
  });
});

describe("facts §1 — datetime time series heartrate and ring_battery_level (/v2/usercollection)", () => {
  for (const c of SERIES_RESOURCES) {
    it(`${c}: a 30-day window pages at RING_EMULATOR_TIMESERIES_PAGE_SIZE rows (${SERIES[c].multi}); next_token, with or without the filters, yields every stored sample once, in time order`, async () => {
      const query = { start_datetime: `${addDays(TODAY, -30)}T00:00:00+00:00`, end_datetime: `${TODAY}T00:00:00+00:00` };
      const pages = await ring.listAll(real(c), conn.accessToken, query);
      expect(pages.length).toBeGreaterThan(1);
      for (const p of pages.slice(0, -1)) expect(p.data.length).toBe(PAGE);
      expect(pages.at(-1)!.data.length).toBeLessThanOrEqual(PAGE);
      for (const p of pages) {
        expectOpenApiResponse(real(c), "get", 200, p);
        expectSchema(SERIES[c].multi, p);
      }
      const rows = pages.flatMap((p) => p.data) as Row[];
      const times = rows.map((r) => r.timestamp_unix);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(times.length);
      expect(rows).toEqual(await samplesOf(ring, userId, c, query.start_datetime, query.end_datetime));
      const alone = (await ring.listAll(real(c), conn.accessToken, query, { repeatFilters: false })).flatMap((p) => p.data);
      expect(alone).toEqual(rows);
    });

    it(`${c}: latest=true returns the most recent sample only`, async () => {
      const r = await ring.api<{ data: Row[]; next_token: string | null }>(real(c), { token: conn.accessToken, query: { latest: "true" } });
      expect(r.status).toBe(200);
      expectOpenApiResponse(real(c), "get", 200, r.body);
      expect(r.body.data).toHaveLength(1);
      expect(r.body.next_token).toBeNull();
      const all = await samplesOf(ring, userId, c, addDays(TODAY, -2), TODAY);
      expect(r.body.data[0]).toEqual(all.at(-1));
      // within a window: the newest sample at or before end_datetime
      const end = all[Math.floor(all.length / 2)]!;
      const w = await ring.api<{ data: Row[] }>(real(c), {
        token: conn.accessToken,
        query: { latest: "true", start_datetime: `${addDays(TODAY, -3)}T00:00:00Z`, end_datetime: end.timestamp },
      });
      expect(w.body.data).toEqual([end]);
      // latest=false is the plain list
      const f = await ring.api<{ data: Row[] }>(real(c), { token: conn.accessToken, query: { latest: "false" } });
      expect(f.body.data.length).toBeGreaterThan(1);
    });
  }

  it("sources and shapes seen in real responses: bpm, source (sleep, awake, workout, session, rest), timestamp in UTC +00:00, timestamp_unix; 5-s spacing in workouts", async () => {
    const rows = (await samplesOf(ring, userId, "heartrate", addDays(TODAY, -HISTORY_DAYS + 1), TODAY)) as Array<Row & { bpm: number; source: string }>;
    const sources = new Set(rows.map((r) => r.source));
    for (const s of ["sleep", "awake", "workout", "rest"]) expect(sources, s).toContain(s);
    for (const r of rows.slice(0, 500)) {
      expect(r.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      expect(Date.parse(r.timestamp)).toBe(r.timestamp_unix);
      expect(Number.isInteger(r.bpm)).toBe(true);
    }
    // the newest workout that has ended by now (a ring records no future: later samples are not served yet)
    const workout = stored.workout.filter((w) => Date.parse(String(w.end_datetime)) <= clock.now()).at(-1)!;
    const during = rows.filter(
      (r) => r.timestamp_unix >= Date.parse(String(workout.start_datetime)) && r.timestamp_unix < Date.parse(String(workout.end_datetime)),
    );
    expect(during.length).toBeGreaterThan(5);
    expect(new Set(during.map((r) => r.source))).toEqual(new Set(["workout"]));
    const gaps = during.slice(1).map((r, i) => r.timestamp_unix - during[i]!.timestamp_unix);
    expect(gaps).toContain(5000);
  });
});

describe("facts §2.4 — windows of everything the ring records (/v2/usercollection)", () => {
  const daysOf = async (c: string, query: Record<string, string>) => (await listed(real(c), query)).map((d) => dayKey(c, d));

  it("workout and session: filtered on the UTC start time, end-exclusive (date-only bounds are UTC midnight)", async () => {
    for (const c of ["workout", "session"] as const) {
      const doc = stored[c][Math.floor(stored[c].length / 2)]!;
      const id = String(doc.id);
      const start = Date.parse(String(doc.start_datetime));
      const d = String(doc.day);
      const ids = async (query: Record<string, string>) => (await listed(real(c), query)).map((x) => String(x.id));
      expect(await ids({ start_date: d, end_date: d }), `${c} start=end=D`).not.toContain(id);
      expect(await ids({ start_date: d, end_date: addDays(d, 1) }), `${c} end=D+1`).toContain(id);
      const at = new Date(start).toISOString();
      const after = new Date(start + 1000).toISOString();
      expect(await ids({ start_date: at, end_date: at }), `${c} end = its start`).not.toContain(id);
      expect(await ids({ start_date: at, end_date: after }), `${c} end = start + 1 s`).toContain(id);
      expect(await ids({ start_date: after, end_date: addDays(d, 2) }), `${c} start after its start`).not.toContain(id);
      // an offset on the bound is honoured: the same instant written at +02:00
      const plus2 = new Date(start + 2 * 3600_000).toISOString().slice(0, 19) + "+02:00";
      expect(await ids({ start_date: plus2, end_date: after })).toContain(id);
    }
  });

  it("sleep_time, tag: start_date=end_date=D returns day D (end-inclusive); enhanced_tag and rest_mode_period on their start_day", async () => {
    for (const c of ["sleep_time", "tag", "enhanced_tag", "rest_mode_period"] as const) {
      const d = dayKey(c, stored[c][Math.floor(stored[c].length / 2)]!);
      const got = await daysOf(c, { start_date: d, end_date: d });
      expect(got.length, `${c} ${d}`).toBeGreaterThan(0);
      expect(new Set(got)).toEqual(new Set([d]));
    }
  });

  it("vO2_max: compared on its timestamp — a date-only end_date=D excludes D's estimate; end_date=DT23:59:59 includes it", async () => {
    const d = String(stored.vO2_max.at(-2)!.day);
    expect(await daysOf("vO2_max", { start_date: d, end_date: d })).not.toContain(d);
    expect(await daysOf("vO2_max", { start_date: d, end_date: `${d}T23:59:59` })).toContain(d);
    expect(await daysOf("vO2_max", { start_date: d, end_date: addDays(d, 1) })).toContain(d);
  });

  it("heartrate: start_datetime and end_datetime are instants, both inclusive; an offset on the bound is honoured", async () => {
    const rows = await samplesOf(ring, userId, "heartrate", addDays(TODAY, -3), addDays(TODAY, -3));
    const s = rows[Math.floor(rows.length / 2)]!;
    const at = (q: Record<string, string>) => ring.api<{ data: Row[] }>(real("heartrate"), { token: conn.accessToken, query: q });
    expect((await at({ start_datetime: s.timestamp, end_datetime: s.timestamp })).body.data).toEqual([s]);
    const local = new Date(s.timestamp_unix - 5 * 3600_000).toISOString().slice(0, 19) + "-05:00";
    expect((await at({ start_datetime: local, end_datetime: local })).body.data).toEqual([s]);
    const next = new Date(s.timestamp_unix + 1000).toISOString();
    expect((await at({ start_datetime: next, end_datetime: next })).body.data).toEqual([]);
  });

  it("defaults when omitted: the time series about the last 24 hours of data; the collections roughly yesterday → today", async () => {
    for (const c of SERIES_RESOURCES) {
      const rows = (await listed(real(c), {})) as Row[];
      expect(rows.length, c).toBeGreaterThan(0);
      const t = rows.map((r) => r.timestamp_unix);
      expect(Math.max(...t) - Math.min(...t)).toBeLessThanOrEqual(86_400_000);
      expect(Math.max(...t) - Math.min(...t)).toBeGreaterThan(20 * 3600_000);
      for (const r of rows) expect([addDays(TODAY, -1), TODAY]).toContain(r.timestamp.slice(0, 10));
    }
    const st = await daysOf("sleep_time", {});
    expect(st.length).toBeGreaterThan(0);
    for (const d of st) expect([addDays(TODAY, -1), TODAY]).toContain(d);
  });

  it("start after end → 400; a malformed datetime or latest value → 422 HTTPValidationError; an unknown next_token → 400", async () => {
    const path = real("heartrate");
    const after = await ring.api(path, { token: conn.accessToken, query: { start_datetime: `${TODAY}T12:00:00Z`, end_datetime: `${TODAY}T11:00:00Z` } });
    expect(after.status).toBe(400);
    expectOpenApiResponse(path, "get", 400, after.body);
    for (const query of [{ start_datetime: "yesterday" }, { end_datetime: "2026-02-30T00:00:00Z" }, { latest: "maybe" }]) {
      const r = await ring.api(path, { token: conn.accessToken, query });
      expect(r.status, JSON.stringify(query)).toBe(422);
      expectOpenApiResponse(path, "get", 422, r.body);
      expectSchema("HTTPValidationError", r.body);
    }
    const bad = await ring.api(real("ring_battery_level"), { token: conn.accessToken, query: { next_token: "bm90LWEtdG9rZW4" } });
    expect(bad.status).toBe(400);
    const malformed = await ring.api(real("workout"), { token: conn.accessToken, query: { start_date: "2026-13-01" } });
    expect(malformed.status).toBe(422);
    expectOpenApiResponse(real("workout"), "get", 422, malformed.body);
  });

  it("heart-rate range: no maximum by default (a five-year window answers); RING_EMULATOR_TIMESERIES_MAX_DAYS=30 refuses a longer window with 400", async () => {
    const open = await ring.api(real("heartrate"), {
      token: conn.accessToken,
      query: { start_datetime: "2021-01-01T00:00:00Z", end_datetime: `${TODAY}T00:00:00Z` },
    });
    expect(open.status).toBe(200);
    const c = await limited.registerClient();
    const l = await limited.connect(c, { scope: "heartrate daily" });
    const long = await limited.api(real("heartrate"), {
      token: l.accessToken,
      query: { start_datetime: `${addDays(TODAY, -31)}T00:00:00Z`, end_datetime: `${TODAY}T00:00:00Z` },
    });
    expect(long.status).toBe(400);
    expectOpenApiResponse(real("heartrate"), "get", 400, long.body);
    const ok = await limited.api(real("ring_battery_level"), {
      token: l.accessToken,
      query: { start_datetime: `${addDays(TODAY, -30)}T00:00:00Z`, end_datetime: `${TODAY}T00:00:00Z` },
    });
    expect(ok.status).toBe(200);
  });
});

describe("facts §5.6 — the scope of each resource (403 without it), at both identity providers", () => {
  async function check(tokens: Record<string, string>): Promise<void> {
    for (const [scope, token] of Object.entries(tokens)) {
      for (const c of ALL_NEW) {
        const r = await ring.api(real(c), { token, query: c in DOCS ? WIDE : {} });
        if (NEEDS[c] === scope) expect(r.status, `${c} with ${scope}`).toBe(200);
        else {
          expect(r.status, `${c} without ${NEEDS[c]} (token: ${scope})`).toBe(403);
          expectOpenApiResponse(real(c), "get", 403, r.body);
        }
      }
    }
  }

  it("legacy names: heartrate → heartrate; workout → workout; session → session; tag → enhanced_tag and tag; daily → vO2_max, sleep_time, rest_mode_period, ring_configuration, ring_battery_level", async () => {
    const tokens: Record<string, string> = {};
    for (const scope of ["heartrate", "workout", "session", "tag", "daily"]) tokens[scope] = (await ring.connect(client, { scope })).accessToken;
    await check(tokens);
    // email alone opens none of them
    const email = await ring.connect(client, { scope: "email" });
    for (const c of ALL_NEW) expect((await ring.api(real(c), { token: email.accessToken })).status, c).toBe(403);
  });

  it("extapi: names at the newer provider grant the same (extapi:heartrate, extapi:workout, extapi:session, extapi:tag, extapi:daily)", async () => {
    const dev = await ring.registerClient({ portal: "developer" });
    const tokens: Record<string, string> = {};
    for (const scope of ["heartrate", "workout", "session", "tag", "daily"]) {
      const c = await ring.connectDeveloper(dev, { scope: `extapi:${scope}` });
      expect(c.grantedScope).toEqual([`extapi:${scope}`]);
      tokens[scope] = c.accessToken;
    }
    await check(tokens);
  });
});

describe("emulator contract — sandbox of everything the ring records", () => {
  for (const c of DOC_RESOURCES) {
    it(`${c}: fixed sample documents to any bearer (${DOCS[c].multi}), each served by id; 404 for an unknown id`, async () => {
      const a = await ring.listAll(sandbox(c), "any-bearer", c === "ring_configuration" ? {} : { start_date: "2000-01-01", end_date: "2100-01-01" });
      const b = await ring.listAll(sandbox(c), "another-bearer", c === "ring_configuration" ? {} : { start_date: "2000-01-01", end_date: "2100-01-01" });
      expect(b).toEqual(a);
      const docs = a.flatMap((p) => p.data);
      expect(docs.length, `${c} sample`).toBeGreaterThan(0);
      for (const p of a) {
        expectOpenApiResponse(sandbox(c), "get", 200, p);
        expectSchema(DOCS[c].multi, p);
      }
      const one = await ring.api(`${sandbox(c)}/${String(docs[0]!.id)}`, { token: "x" });
      expect(one.body).toEqual(docs[0]);
      expectOpenApiResponse(`${sandbox(c)}/{document_id}`, "get", 200, one.body);
      const missing = await ring.api(`${sandbox(c)}/nope`, { token: "x" });
      expect(missing.status).toBe(404);
      expectOpenApiResponse(`${sandbox(c)}/{document_id}`, "get", 404, missing.body);
    });
  }

  it("heartrate and ring_battery_level: fixed samples (the whole sample when bounds are omitted), paged, end-exclusive", async () => {
    for (const c of SERIES_RESOURCES) {
      const pages = await ring.listAll(sandbox(c), "x", {});
      for (const p of pages) {
        expectOpenApiResponse(sandbox(c), "get", 200, p);
        expectSchema(SERIES[c].multi, p);
        expect(p.data.length).toBeLessThanOrEqual(PAGE);
      }
      const rows = pages.flatMap((p) => p.data) as Row[];
      expect(rows.length).toBeGreaterThan(c === "heartrate" ? 14 * 150 : 14 * 30);
      const s = rows[Math.floor(rows.length / 2)]!;
      const exact = await ring.api<{ data: Row[] }>(sandbox(c), { token: "y", query: { start_datetime: s.timestamp, end_datetime: s.timestamp } });
      expect(exact.body.data).toEqual([]);
      const next = new Date(s.timestamp_unix + 1000).toISOString();
      expect((await ring.api<{ data: Row[] }>(sandbox(c), { token: "y", query: { start_datetime: s.timestamp, end_datetime: next } })).body.data).toEqual([s]);
    }
  });
});

describe("emulator contract — control API of everything the ring records", () => {
  it("GET /_emulator/users/{id}/documents/{name} lists every new resource; heartrate and ring_battery_level as their samples, optionally one window (start, end)", async () => {
    for (const c of DOC_RESOURCES) {
      const r = await ring.control<{ collection: string; count: number; data: Doc[] }>("GET", `/_emulator/users/${userId}/documents/${c}`);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(r.body.data.length);
      for (const d of r.body.data) expectSchema(DOCS[c].doc, d);
    }
    for (const c of SERIES_RESOURCES) {
      const all = await ring.control<{ count: number; data: Row[] }>("GET", `/_emulator/users/${userId}/documents/${c}`);
      expect(all.body.count).toBe(all.body.data.length);
      expect(all.body.data.length).toBeGreaterThan(HISTORY_DAYS * 30);
      const oneDay = await samplesOf(ring, userId, c, addDays(TODAY, -1), addDays(TODAY, -1));
      expect(oneDay.length).toBeGreaterThan(20);
      expect(oneDay).toEqual(all.body.data.filter((r) => r.timestamp.startsWith(addDays(TODAY, -1))));
      for (const r of oneDay) expectSchema(SERIES[c].row, r);
    }
  });
});

// ---- notifications --------------------------------------------------------------------------

const LONG_MS = 60_000;
const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
const DATA_TYPE: Record<DocResource, string> = {
  workout: "workout",
  session: "session",
  enhanced_tag: "enhanced_tag",
  tag: "tag",
  vO2_max: "vo2_max",
  sleep_time: "sleep_time",
  rest_mode_period: "rest_mode_period",
  ring_configuration: "ring_configuration",
};
type SyncEvent = { event_type: string; data_type: string; object_id: string; user_id: string };

describe("facts §6.1 — webhook data types of everything the ring records", () => {
  let hc: TestClient;
  let rcv: WebhookReceiver;

  async function subscribe(event_type: string, data_type: string): Promise<void> {
    const r = await hooks.webhook(hc, "POST", "/v2/webhook/subscription", {
      callback_url: rcv.url(`/${event_type}/${data_type}`),
      verification_token: rcv.verificationToken,
      event_type,
      data_type,
    });
    expect(r.status, r.text).toBe(201);
  }

  async function sync(user: string, day: string): Promise<{ events: SyncEvent[]; documents: Record<string, Doc[]> }> {
    return (await hooks.sync(user, day)).body as { events: SyncEvent[]; documents: Record<string, Doc[]> };
  }

  beforeAll(async () => {
    hc = await hooks.registerClient();
    rcv = await WebhookReceiver.start();
    receivers.push(rcv);
    for (const c of DOC_RESOURCES) for (const e of ["create", "update", "delete"]) await subscribe(e, DATA_TYPE[c]);
  });

  it("sync creates documents of each new data type (tag, enhanced_tag, workout, session, sleep_time, rest_mode_period, ring_configuration, vo2_max): each notified after the delay and fetched by object_id", async () => {
    // a person and, outside their 20-day history, a day that brings each per-day resource
    let email = "";
    let days: Record<string, string | null> = {};
    for (let i = 0; i < 50; i++) {
      email = uniqueEmail("hooks");
      days = Object.fromEntries(
        (["workout", "session", "enhanced_tag", "tag", "vO2_max", "sleep_time", "rest_mode_period"] as const).map((c) => [
          c,
          dayWith(email, c, addDays(TODAY, -500), addDays(TODAY, -40)),
        ]),
      );
      if (Object.values(days).every((d) => d !== null)) break;
    }
    expect(Object.values(days).every((d) => d !== null)).toBe(true);
    const person = await hooks.createUser({ email, history_days: 20 });
    // a person whose ring is replaced on a day after today: syncing that day creates the new ring
    const replaced = ringReplacedAfter("ring", TODAY, 400);
    const other = await hooks.createUser({ email: replaced.email, history_days: 20 });
    const otherConn = await hooks.connect(hc, { email: replaced.email });
    const conn2 = await hooks.connect(hc, { email });
    rcv.reset();
    const events: SyncEvent[] = [];
    for (const day of new Set(Object.values(days) as string[])) {
      const r = await sync(person.user_id, day);
      for (const [c, docs] of Object.entries(r.documents)) for (const d of docs) if (c in DOCS && c !== "ring_configuration") expect(dayKey(c, d)).toBe(day);
      events.push(...r.events);
    }
    const ringSync = await sync(other.user_id, replaced.day);
    expect(ringSync.documents.ring_configuration).toHaveLength(1);
    events.push(...ringSync.events);
    expect(rcv.posts).toHaveLength(0);
    await hooks.advance(LONG_MS);
    for (const c of DOC_RESOURCES) {
      const created = events.filter((e) => e.data_type === DATA_TYPE[c] && e.event_type === "create");
      expect(created.length, `${c} created`).toBeGreaterThan(0);
      const posts = rcv.postsTo(`/create/${DATA_TYPE[c]}`);
      expect(posts.map((p) => String(p.body.object_id)).sort()).toEqual(created.map((e) => e.object_id).sort());
      for (const p of posts) {
        const token = p.body.user_id === other.user_id ? otherConn.accessToken : conn2.accessToken;
        const doc = await hooks.api(`${real(c)}/${String(p.body.object_id)}`, { token });
        expect(doc.status, `${c}/${String(p.body.object_id)}`).toBe(200);
        expectSchema(DOCS[c].doc, doc.body);
      }
    }
  });

  it("a revision of a day edits its new resources under the same ids (update notifications); a deleted workout is notified and then answers 404", async () => {
    const history = Array.from({ length: 20 }, (_, i) => addDays(TODAY, -i));
    let email = "";
    let day: string | null = null;
    for (let i = 0; i < 50 && day === null; i++) {
      email = resourceEmail("rev", history, ["workout"]);
      day = revisedDay(email, "workout", history);
    }
    expect(day).not.toBeNull();
    const person = await hooks.createUser({ email, history_days: 20 });
    const token = (await hooks.connect(hc, { email })).accessToken;
    const w = (await hooks.storedDocuments(person.user_id, "workout")).find((x) => x.day === day)!;
    rcv.reset();
    const r = await sync(person.user_id, day!);
    const update = r.events.find((e) => e.data_type === "workout" && e.object_id === w.id);
    expect(update?.event_type).toBe("update");
    expect(r.events.filter((e) => e.data_type === "workout" && e.event_type !== "update")).toEqual([]);
    await hooks.advance(LONG_MS);
    expect(rcv.postsTo("/update/workout").map((p) => p.body.object_id)).toContain(w.id);
    const del = await hooks.control<{ events: SyncEvent[] }>("POST", `/_emulator/users/${person.user_id}/documents/workout/${String(w.id)}/delete`);
    expect(del.body.events).toEqual([expect.objectContaining({ event_type: "delete", data_type: "workout", object_id: w.id })]);
    await hooks.advance(LONG_MS);
    expect(rcv.postsTo("/delete/workout").map((p) => p.body.object_id)).toEqual([w.id]);
    expect((await hooks.api(`${real("workout")}/${String(w.id)}`, { token })).status).toBe(404);
  });

  it("heart rate and battery have no webhook data type: a synced day's samples come with it (sync reports their count), nothing is notified for them", async () => {
    const day = addDays(TODAY, 1);
    // on UTC, so that the local day synced is the UTC day listed below
    const person = await hooks.createUser({ email: wornEmail("series", [day]), history_days: 20, tz_offset_minutes: 0 });
    const token = (await hooks.connect(hc, { email: person.email })).accessToken;
    const r = (await hooks.sync(person.user_id, day)).body as { samples: Record<string, number>; events: SyncEvent[] };
    expect(r.events.every((e) => e.data_type !== "heartrate" && e.data_type !== "ring_battery_level")).toBe(true);
    const rows = (await hooks.listAll(real("heartrate"), token, { start_datetime: `${day}T00:00:00Z`, end_datetime: `${day}T23:59:59Z` })).flatMap(
      (p) => p.data,
    );
    expect(r.samples.heartrate).toBeGreaterThan(100);
    // the count is of the day's series, generated with its night: a sample or two of it can lie
    // past the UTC day's edges, so the day listed holds the count to within 2 %
    expect(Math.abs(rows.length - r.samples.heartrate!)).toBeLessThanOrEqual(Math.ceil(r.samples.heartrate! * 0.02));
    expect(r.samples.ring_battery_level).toBeGreaterThan(20);
  });
});
