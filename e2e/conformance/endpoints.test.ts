// Conformance: interface spec §4 (sandbox list and single-document endpoints, non-sandbox
// routes), §5.1 items 1–3 (bearer tokens), §7 (errors) and the pagination facts (§2.2 of
// ring-api-facts). Every JSON body is validated against the OpenAPI document.
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import {
  DAILY,
  DAILY_COLLECTIONS,
  SINGLE_DOC_COLLECTIONS,
  TODAY,
  type Connection,
  type Ring,
  type TestClient,
  expectOpenApiResponse,
  expectSchema,
  uniqueEmail,
  useEmulator,
} from "@/e2e/conformance/support";

const HISTORY_DAYS = 45;
const ring: Ring = useEmulator({ pageSize: 7, historyDays: HISTORY_DAYS });

let client: TestClient;
let conn: Connection; // all scopes
let userId: string;

/** Wide enough for the whole history on every endpoint, whatever its end semantics. */
const WIDE = { start_date: addDays(TODAY, -400), end_date: addDays(TODAY, 2) };
/** The sandbox's fixed sample documents, whatever their days. */
const SANDBOX_WIDE = { start_date: "2000-01-01", end_date: "2100-01-01" };

beforeAll(async () => {
  client = await ring.registerClient();
  const user = await ring.createUser({ history_days: HISTORY_DAYS });
  userId = user.user_id;
  conn = await ring.connect(client, { email: user.email });
});

const sandbox = (c: string) => `/v2/sandbox/usercollection/${c}`;
const real = (c: string) => `/v2/usercollection/${c}`;

describe("spec §4.1 — sandbox list endpoints GET /v2/sandbox/usercollection/<collection>", () => {
  for (const c of DAILY_COLLECTIONS) {
    it(`${c}: 200 with ${DAILY[c].multi} (validated against the OpenAPI document)`, async () => {
      const pages = await ring.listAll(sandbox(c), "any-bearer-string", SANDBOX_WIDE);
      const docs = pages.flatMap((p) => p.data);
      expect(docs.length).toBeGreaterThan(0);
      for (const page of pages) {
        expectOpenApiResponse(`/v2/sandbox/usercollection/${c}`, "get", 200, page);
        expectSchema(DAILY[c].multi, page);
      }
    });
  }

  it("query start_date: string or null, ISO 8601 date or date-time", async () => {
    for (const start_date of ["2024-01-01", "2024-01-01T00:00:00", "2024-01-01T00:00:00+02:00", "2024-01-01T00:00:00Z"]) {
      const r = await ring.api(sandbox("daily_sleep"), { token: "x", query: { start_date, end_date: "2100-01-01" } });
      expect(r.status, `${start_date}: ${r.text.slice(0, 200)}`).toBe(200);
      expectOpenApiResponse("/v2/sandbox/usercollection/daily_sleep", "get", 200, r.body);
    }
  });

  it("query end_date: string or null, ISO 8601 date or date-time", async () => {
    for (const end_date of ["2100-01-01", "2100-01-01T23:59:59", "2100-01-01T23:59:59-05:00"]) {
      const r = await ring.api(sandbox("daily_readiness"), { token: "x", query: { start_date: "2000-01-01", end_date } });
      expect(r.status, `${end_date}: ${r.text.slice(0, 200)}`).toBe(200);
      expectOpenApiResponse("/v2/sandbox/usercollection/daily_readiness", "get", 200, r.body);
    }
  });

  it("query next_token: continuation value for the next page (null on the last page)", async () => {
    const pages = await ring.listAll(sandbox("daily_activity"), "x", SANDBOX_WIDE);
    const last = pages[pages.length - 1]!;
    expect(last.next_token).toBeNull();
    for (const p of pages.slice(0, -1)) expect(typeof p.next_token).toBe("string");
    const ids = pages.flatMap((p) => p.data.map((d) => d.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("query fields: comma-separated field names are accepted though undeclared (200, a typed or Dict body)", async () => {
    const r = await ring.api<{ data: Array<Record<string, unknown>> }>(sandbox("daily_cardiovascular_age"), {
      token: "x",
      query: { ...SANDBOX_WIDE, fields: "day,pulse_wave_velocity" },
    });
    expect(r.status).toBe(200);
    expectOpenApiResponse("/v2/sandbox/usercollection/daily_cardiovascular_age", "get", 200, r.body);
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const d of r.body.data) expect(d).toHaveProperty("day");
    const s = await ring.api(sandbox("daily_spo2"), {
      token: "x",
      query: { ...SANDBOX_WIDE, fields: "day,breathing_disturbance_index" },
    });
    expect(s.status).toBe(200);
    expectOpenApiResponse("/v2/sandbox/usercollection/daily_spo2", "get", 200, s.body);
  });

  it("200: the multi-document schema or MultiDocumentResponseDict (a fields projection)", async () => {
    const r = await ring.api<{ data: Array<Record<string, unknown>> }>(real("daily_activity"), {
      token: conn.accessToken,
      query: { ...WIDE, fields: "day,score" },
    });
    expect(r.status).toBe(200);
    expectOpenApiResponse("/v2/usercollection/daily_activity", "get", 200, r.body);
    expectSchema("MultiDocumentResponseDict", r.body);
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const d of r.body.data) {
      expect(d).toHaveProperty("day");
      expect(d).toHaveProperty("score");
      expect(d).not.toHaveProperty("met");
    }
  });

  it("400: client exception — an unknown next_token, or start_date after end_date", async () => {
    const a = await ring.api(sandbox("daily_sleep"), { token: "x", query: { next_token: "bm90LWEtdG9rZW4" } });
    expect(a.status).toBe(400);
    expectOpenApiResponse("/v2/sandbox/usercollection/daily_sleep", "get", 400, a.body);
    const b = await ring.api(sandbox("daily_sleep"), {
      token: "x",
      query: { start_date: "2024-02-01", end_date: "2024-01-01" },
    });
    expect(b.status).toBe(400);
  });

  it("401: access token malformed — no Authorization header, an empty bearer or another scheme", async () => {
    for (const authorization of [undefined, "Bearer ", "Basic dXNlcjpwYXNz", "Token abc"]) {
      const r = await ring.api(sandbox("daily_activity"), { authorization, token: null });
      expect(r.status, `authorization=${String(authorization)}`).toBe(401);
      expectOpenApiResponse("/v2/sandbox/usercollection/daily_activity", "get", 401, r.body);
    }
  });

  it("403: access forbidden, usually an expired user subscription (on the /v2/usercollection twin; the sandbox takes any bearer)", async () => {
    const user = await ring.createUser({ subscription: "expired" });
    const c = await ring.connect(client, { email: user.email });
    for (const coll of DAILY_COLLECTIONS) {
      const r = await ring.api(real(coll), { token: c.accessToken, query: WIDE });
      expect(r.status, coll).toBe(403);
      expectOpenApiResponse(`/v2/usercollection/${coll}`, "get", 403, r.body);
    }
  });

  it("429: rate limit exceeded (sandbox calls count against the caller's limit)", async () => {
    await ring.fault({ status: 429, count: 1, path_prefix: "/v2/sandbox/usercollection/daily_stress" });
    const r = await ring.api(sandbox("daily_stress"), { token: "x" });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    const after = await ring.api(sandbox("daily_stress"), { token: "x" });
    expect(after.status).toBe(200);
  });

  it("422: HTTPValidationError — a malformed start_date or end_date", async () => {
    for (const [k, v] of [
      ["start_date", "2024-13-45"],
      ["start_date", "yesterday"],
      ["end_date", "2024-02-30"],
    ] as const) {
      const r = await ring.api<{ detail: Array<{ loc: unknown[] }> }>(sandbox("daily_readiness"), {
        token: "x",
        query: { [k]: v },
      });
      expect(r.status, `${k}=${v}`).toBe(422);
      expectSchema("HTTPValidationError", r.body);
      expectOpenApiResponse("/v2/sandbox/usercollection/daily_readiness", "get", 422, r.body);
      expect(r.body.detail.some((d) => d.loc.includes(k))).toBe(true);
    }
  });
});

describe("spec §4.2 — sandbox single-document endpoints GET /v2/sandbox/usercollection/<collection>/{document_id}", () => {
  for (const c of SINGLE_DOC_COLLECTIONS) {
    it(`${c}/{document_id}: 200 with ${DAILY[c].doc}, the same document as in the list`, async () => {
      const pages = await ring.listAll(sandbox(c), "x", SANDBOX_WIDE);
      const doc = pages.flatMap((p) => p.data)[0]!;
      expect(typeof doc.id).toBe("string");
      const r = await ring.api(`${sandbox(c)}/${encodeURIComponent(String(doc.id))}`, { token: "x" });
      expect(r.status).toBe(200);
      expectSchema(DAILY[c].doc, r.body);
      expectOpenApiResponse(`/v2/sandbox/usercollection/${c}/{document_id}`, "get", 200, r.body);
      expect(r.body).toEqual(doc);
    });
  }

  it("404: not found — an unknown document_id on every single-document route", async () => {
    for (const c of SINGLE_DOC_COLLECTIONS) {
      const r = await ring.api<{ detail: unknown }>(`${sandbox(c)}/no-such-document`, { token: "x" });
      expect(r.status, c).toBe(404);
      expect(typeof r.body.detail).toBe("string");
      expectOpenApiResponse(`/v2/sandbox/usercollection/${c}/{document_id}`, "get", 404, r.body);
    }
  });

  it("401, 403 and 429 as in 4.1 (401 without a bearer, 403 for an expired subscription on the twin, 429 when limited)", async () => {
    const pages = await ring.listAll(sandbox("daily_sleep"), "x", SANDBOX_WIDE);
    const id = String(pages[0]!.data[0]!.id);
    expect((await ring.api(`${sandbox("daily_sleep")}/${id}`, { token: null })).status).toBe(401);
    await ring.fault({ status: 429, count: 1, path_prefix: `${sandbox("daily_sleep")}/` });
    expect((await ring.api(`${sandbox("daily_sleep")}/${id}`, { token: "x" })).status).toBe(429);
    expect((await ring.api(`${sandbox("daily_sleep")}/${id}`, { token: "x" })).status).toBe(200);
    const user = await ring.createUser({ subscription: "expired" });
    const expired = await ring.connect(client, { email: user.email });
    const mine = (await ring.storedDocuments(user.user_id, "daily_sleep"))[0]!;
    const r = await ring.api(`${real("daily_sleep")}/${String(mine.id)}`, { token: expired.accessToken });
    expect(r.status).toBe(403);
  });

  it("daily_stress: a single-document route answers as for the other collections (facts §1: every collection has GET /{document_id})", async () => {
    const pages = await ring.listAll(sandbox("daily_stress"), "x", SANDBOX_WIDE);
    const doc = pages.flatMap((p) => p.data)[0]!;
    const r = await ring.api(`${sandbox("daily_stress")}/${String(doc.id)}`, { token: "x" });
    expect(r.status).toBe(200);
    expectSchema("PublicDailyStress", r.body);
  });
});

describe("spec §4.3 — non-sandbox routes /v2/usercollection/...", () => {
  it("personal_info: a bare object (PersonalInfoResponse) whose id is the emulator user_id", async () => {
    const r = await ring.api<Record<string, unknown>>(real("personal_info"), { token: conn.accessToken });
    expect(r.status).toBe(200);
    expectSchema("PersonalInfoResponse", r.body);
    expectOpenApiResponse("/v2/usercollection/personal_info", "get", 200, r.body);
    expect(r.body.id).toBe(userId);
    expect(r.body).not.toHaveProperty("data");
  });

  it("sleep: sleep periods as MultiDocumentResponse_PublicModifiedSleepModel_, each also served by id", async () => {
    const pages = await ring.listAll(real("sleep"), conn.accessToken, WIDE);
    for (const p of pages) {
      expectSchema("MultiDocumentResponse_PublicModifiedSleepModel_", p);
      expectOpenApiResponse("/v2/usercollection/sleep", "get", 200, p);
    }
    const docs = pages.flatMap((p) => p.data);
    const stored = await ring.storedDocuments(userId, "sleep");
    expect(docs.map((d) => d.id)).toEqual(stored.map((d) => d.id));
    const one = docs[Math.floor(docs.length / 2)]!;
    const r = await ring.api(`${real("sleep")}/${String(one.id)}`, { token: conn.accessToken });
    expect(r.status).toBe(200);
    expectSchema("PublicModifiedSleepModel", r.body);
    expect(r.body).toEqual(one);
  });

  for (const c of DAILY_COLLECTIONS) {
    it(`${c}: the user's documents (${DAILY[c].multi}) — every stored document once, in day order, each also served by id`, async () => {
      const pages = await ring.listAll(real(c), conn.accessToken, WIDE);
      for (const p of pages) {
        expectSchema(DAILY[c].multi, p);
        expectOpenApiResponse(`/v2/usercollection/${c}`, "get", 200, p);
      }
      const docs = pages.flatMap((p) => p.data);
      const stored = await ring.storedDocuments(userId, c);
      expect(docs.length).toBeGreaterThan(0);
      expect(docs).toEqual(stored);
      const days = docs.map((d) => String(d.day));
      expect([...days].sort()).toEqual(days);
      expect(days.every((d) => d >= addDays(TODAY, -HISTORY_DAYS) && d <= TODAY)).toBe(true);
      const one = docs[Math.floor(docs.length / 2)]!;
      const r = await ring.api(`${real(c)}/${encodeURIComponent(String(one.id))}`, { token: conn.accessToken });
      expect(r.status).toBe(200);
      expectSchema(DAILY[c].doc, r.body);
      expectOpenApiResponse(`/v2/usercollection/${c}/{document_id}`, "get", 200, r.body);
      expect(r.body).toEqual(one);
    });
  }

  it("another user's document id answers 404 (documents are per user)", async () => {
    const user = await ring.createUser();
    const theirs = (await ring.storedDocuments(user.user_id, "daily_readiness"))[0]!;
    const r = await ring.api(`${real("daily_readiness")}/${String(theirs.id)}`, { token: conn.accessToken });
    expect(r.status).toBe(404);
  });
});

describe("spec §4.1 next_token — pagination (facts §2.2, page size RING_EMULATOR_PAGE_SIZE=7)", () => {
  it("pages hold at most the page size; following next_token until null yields every document exactly once", async () => {
    const pages = await ring.listAll(real("daily_readiness"), conn.accessToken, WIDE);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages.slice(0, -1)) {
      expect(p.data.length).toBe(7);
      expect(typeof p.next_token).toBe("string");
    }
    expect(pages[pages.length - 1]!.data.length).toBeLessThanOrEqual(7);
    expect(pages[pages.length - 1]!.next_token).toBeNull();
    const ids = pages.flatMap((p) => p.data.map((d) => String(d.id)));
    expect(new Set(ids).size).toBe(ids.length);
    const stored = await ring.storedDocuments(userId, "daily_readiness");
    expect(ids).toEqual(stored.map((d) => String(d.id)));
  });

  it("next_token works with the original filters repeated and with next_token alone", async () => {
    const withFilters = await ring.listAll(real("daily_sleep"), conn.accessToken, WIDE, { repeatFilters: true });
    const alone = await ring.listAll(real("daily_sleep"), conn.accessToken, WIDE, { repeatFilters: false });
    expect(alone.flatMap((p) => p.data)).toEqual(withFilters.flatMap((p) => p.data));
  });

  it("a window narrower than the history is honoured across pages", async () => {
    const window = { start_date: addDays(TODAY, -20), end_date: addDays(TODAY, -5) };
    const pages = await ring.listAll(real("daily_spo2"), conn.accessToken, window);
    const days = pages.flatMap((p) => p.data.map((d) => String(d.day)));
    expect(days.length).toBeGreaterThan(7);
    expect(days.every((d) => d >= window.start_date && d <= window.end_date)).toBe(true);
  });

  it("an empty result is {data: [], next_token: null} with 200", async () => {
    const r = await ring.api(real("daily_sleep"), {
      token: conn.accessToken,
      query: { start_date: "2001-01-01", end_date: "2001-01-31" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], next_token: null });
  });
});

describe("spec §5.1 — bearer tokens on data endpoints", () => {
  it("item 1: data requests carry Authorization: Bearer <ACCESS_TOKEN> — with it 200, without it 401", async () => {
    expect((await ring.api(real("daily_sleep"), { token: conn.accessToken })).status).toBe(200);
    const none = await ring.api(real("daily_sleep"), { token: null });
    expect(none.status).toBe(401);
    expectOpenApiResponse("/v2/usercollection/daily_sleep", "get", 401, none.body);
  });

  it("item 1: the token is not accepted in the query string (facts §1: query-parameter tokens were removed)", async () => {
    const r = await ring.api(real("daily_sleep"), { token: null, query: { access_token: conn.accessToken } });
    expect(r.status).toBe(401);
  });

  it("item 2: BearerAuth or OAuth2 — the OAuth access token is the bearer credential on every route family", async () => {
    for (const path of [real("personal_info"), real("sleep"), real("daily_activity"), sandbox("daily_activity")]) {
      const r = await ring.api(path, { token: conn.accessToken });
      expect(r.status, path).toBe(200);
    }
  });

  it("item 3: personal access tokens are not usable — an arbitrary token string gives 401 on user data", async () => {
    for (const token of ["PAT-ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "x"]) {
      for (const path of [real("personal_info"), real("daily_sleep"), real("sleep")]) {
        const r = await ring.api(path, { token });
        expect(r.status, path).toBe(401);
      }
    }
  });
});

describe("spec §7 — errors", () => {
  it("§7 200 — success", async () => {
    const r = await ring.api(real("daily_stress"), { token: conn.accessToken, query: WIDE });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type") ?? "").toContain("application/json");
  });

  it("§7 400 — query parameters invalid or incorrectly formatted: start_date after end_date", async () => {
    const r = await ring.api(real("daily_sleep"), {
      token: conn.accessToken,
      query: { start_date: addDays(TODAY, -1), end_date: addDays(TODAY, -10) },
    });
    expect(r.status).toBe(400);
    expectOpenApiResponse("/v2/usercollection/daily_sleep", "get", 400, r.body);
  });

  it("§7 400 — an unknown next_token", async () => {
    const r = await ring.api(real("daily_sleep"), { token: conn.accessToken, query: { next_token: "garbage" } });
    expect(r.status).toBe(400);
  });

  it("§7 401 — access token invalid (unknown)", async () => {
    const r = await ring.api(real("daily_readiness"), { token: "A".repeat(40) });
    expect(r.status).toBe(401);
    expectOpenApiResponse("/v2/usercollection/daily_readiness", "get", 401, r.body);
  });

  it("§7 401 — access token malformed", async () => {
    for (const authorization of ["Bearer", "Bearer a b c", "Bearer\t", "bearer-x"]) {
      const r = await ring.api(real("daily_readiness"), { authorization, token: null });
      expect(r.status, authorization).toBe(401);
    }
  });

  it("§7 401 — access token revoked", async () => {
    const c = await ring.connect(client, { scope: "daily" });
    expect((await ring.api(real("daily_sleep"), { token: c.accessToken })).status).toBe(200);
    await fetch(`${ring.url}/oauth/revoke?access_token=${c.accessToken}`);
    const r = await ring.api(real("daily_sleep"), { token: c.accessToken });
    expect(r.status).toBe(401);
  });

  it("§7 401 — a refresh token is not an access token", async () => {
    const c = await ring.connect(client, { scope: "daily" });
    const r = await ring.api(real("daily_sleep"), { token: c.refreshToken ?? "" });
    expect(r.status).toBe(401);
  });

  it("§7 403 — resource needs additional permissions (scope not granted)", async () => {
    const emailOnly = await ring.connect(client, { scope: "email" });
    for (const c of ["daily_activity", "daily_sleep", "daily_readiness", "sleep"]) {
      const r = await ring.api(real(c), { token: emailOnly.accessToken, query: WIDE });
      expect(r.status, c).toBe(403);
      expectOpenApiResponse(`/v2/usercollection/${c}`, "get", 403, r.body);
    }
    const dailyOnly = await ring.connect(client, { scope: "daily" });
    const spo2 = await ring.api(real("daily_spo2"), { token: dailyOnly.accessToken, query: WIDE });
    expect(spo2.status).toBe(403);
    const spo2Scope = await ring.connect(client, { scope: "spo2Daily" });
    expect((await ring.api(real("daily_spo2"), { token: spo2Scope.accessToken, query: WIDE })).status).toBe(200);
  });

  it("§7 403 — the user's subscription has expired so data is unavailable (and returns when renewed)", async () => {
    const user = await ring.createUser();
    const c = await ring.connect(client, { email: user.email });
    expect((await ring.api(real("daily_sleep"), { token: c.accessToken })).status).toBe(200);
    await ring.setSubscription(user.user_id, "expired");
    const r = await ring.api(real("daily_sleep"), { token: c.accessToken, query: WIDE });
    expect(r.status).toBe(403);
    const doc = (await ring.storedDocuments(user.user_id, "daily_sleep"))[0]!;
    expect((await ring.api(`${real("daily_sleep")}/${String(doc.id)}`, { token: c.accessToken })).status).toBe(403);
    await ring.setSubscription(user.user_id, "active");
    expect((await ring.api(real("daily_sleep"), { token: c.accessToken, query: WIDE })).status).toBe(200);
  });

  it("§7 404 — document not found (single-document endpoints)", async () => {
    for (const c of [...DAILY_COLLECTIONS, "sleep"]) {
      const r = await ring.api<{ detail: unknown }>(`${real(c)}/00000000-0000-4000-8000-000000000000`, {
        token: conn.accessToken,
      });
      expect(r.status, c).toBe(404);
      expect(r.body.detail).toBe("Document not found.");
    }
  });

  it("§7 422 — validation error; body is HTTPValidationError", async () => {
    for (const query of [{ start_date: "2024-1-1" }, { end_date: "tomorrow" }, { start_date: "2024-06-31" }]) {
      const r = await ring.api(real("daily_activity"), { token: conn.accessToken, query });
      expect(r.status, JSON.stringify(query)).toBe(422);
      expectSchema("HTTPValidationError", r.body);
      expectOpenApiResponse("/v2/usercollection/daily_activity", "get", 422, r.body);
    }
  });

  it("§7 429 — rate limit exceeded; retry headers in section 8", async () => {
    await ring.fault({ status: 429, count: 1, path_prefix: "/v2/usercollection/daily_sleep" });
    const r = await ring.api(real("daily_sleep"), { token: conn.accessToken });
    expect(r.status).toBe(429);
    expectOpenApiResponse("/v2/usercollection/daily_sleep", "get", 429, r.body);
    for (const h of ["retry-after", "x-ratelimit-limit", "x-ratelimit-window", "x-ratelimit-reset", "x-ratelimit-tier"]) {
      expect(r.headers.get(h), h).toBeTruthy();
    }
  });
});

describe("emulator contract — personal_info and scopes", () => {
  it("personal_info always answers 200 with id; email null without the email scope; age/weight/height/biological_sex null without personal", async () => {
    const email = uniqueEmail("pi");
    const none = await ring.connect(client, { email, scope: "daily" });
    const a = await ring.personalInfo(none.accessToken);
    expectSchema("PersonalInfoResponse", a);
    expect(a.email).toBeNull();
    for (const k of ["age", "weight", "height", "biological_sex"]) expect(a[k], k).toBeNull();

    const withEmail = await ring.connect(client, { email, scope: "email" });
    const b = await ring.personalInfo(withEmail.accessToken);
    expect(b.id).toBe(a.id);
    expect(b.email).toBe(email);
    for (const k of ["age", "weight", "height", "biological_sex"]) expect(b[k], k).toBeNull();

    const withPersonal = await ring.connect(client, { email, scope: "personal" });
    const c = await ring.personalInfo(withPersonal.accessToken);
    expect(c.email).toBeNull();
    expect(typeof c.age).toBe("number");
    expect(typeof c.weight).toBe("number");
    expect(typeof c.height).toBe("number");
    expect(typeof c.biological_sex).toBe("string");
  });
});
