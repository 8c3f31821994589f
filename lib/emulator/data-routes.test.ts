import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAILY_COLLECTIONS, COLLECTIONS, type Collection } from "./generator";
import { validateResponse } from "./openapi";
import { SANDBOX_DOCUMENTS, SANDBOX_FIRST_DAY, SANDBOX_LAST_DAY, SANDBOX_SLEEP_DOCUMENTS } from "./sandbox-data";
import type { RunningEmulator } from "./server";
import { TEST_TODAY, call, connect, registerClient, startManualClockEmulator, startTestEmulator, uniqueEmail, wornEmail } from "@/lib/test/emulator-kit";
import { addDays } from "@/lib/days";

type Doc = Record<string, unknown> & { id: string; day: string };
type Page = { data: Doc[]; next_token: string | null };

let emu: RunningEmulator;
let base: string;
let token: string;
let userId: string;
let stored: Record<Collection, Doc[]>;

beforeAll(async () => {
  emu = await startTestEmulator({ pageSize: 7, historyDays: 40 });
  base = emu.url;
  const t = await connect(base, undefined, { email: wornEmail("main") });
  token = t.access_token;
  userId = t.user_id;
  stored = {} as Record<Collection, Doc[]>;
  for (const c of COLLECTIONS) stored[c] = (await call(base, `/_emulator/users/${userId}/documents/${c}`)).body.data;
});
afterAll(() => emu.close());

function expectValid(path: string, status: number, body: unknown, typedOnly = false) {
  const r = validateResponse(path, "get", status, body, { typedOnly });
  expect(r.ok, JSON.stringify(r)).toBe(true);
}

async function list(
  collection: string,
  query: Record<string, string>,
  t = token,
  prefix = "/v2/usercollection",
): Promise<{ status: number; body: any; headers: Headers }> {
  const qs = new URLSearchParams(query).toString();
  return call(base, `${prefix}/${collection}${qs ? `?${qs}` : ""}`, { token: t });
}

async function listAll(collection: string, query: Record<string, string>, repeatFilters = true, t = token): Promise<Page[]> {
  const pages: Page[] = [];
  let next: string | null = null;
  do {
    const q: Record<string, string> = next === null ? query : repeatFilters ? { ...query, next_token: next } : { next_token: next };
    const r = await list(collection, q, t);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    pages.push(r.body);
    next = r.body.next_token;
  } while (next !== null && pages.length < 100);
  return pages;
}

const daysOf = (pages: Page[]) => pages.flatMap((p) => p.data.map((d) => d.day));

/** A day in the history on which every collection has at least one document. */
function fullDay(): string {
  for (let i = 3; i < 35; i++) {
    const d = addDays(TEST_TODAY, -i);
    if (COLLECTIONS.every((c) => stored[c].some((doc) => doc.day === d))) return d;
  }
  throw new Error("no fully worn day");
}

describe("authentication", () => {
  it.each([
    ["no header", undefined],
    ["another scheme", "Basic abc"],
    ["an empty bearer", "Bearer "],
    ["an unknown token", "Bearer NotAToken123"],
  ])("answers 401 {detail,status,title} with WWW-Authenticate for %s", async (_name, authorization) => {
    const r = await call(base, "/v2/usercollection/daily_sleep", { headers: authorization ? { authorization } : {} });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(r.body).toEqual({ detail: expect.any(String), status: 401, title: "Unauthorized" });
  });
});

describe("documents", () => {
  it("serves every collection's list and documents, valid against OpenAPI 1.37", async () => {
    for (const c of COLLECTIONS) {
      const r = await list(c, { start_date: addDays(TEST_TODAY, -10), end_date: TEST_TODAY });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/json");
      expectValid(`/v2/usercollection/${c}`, 200, r.body, true);
      expect(r.body.data.length).toBeGreaterThan(0);
      const doc = r.body.data[0];
      const one = await call(base, `/v2/usercollection/${c}/${doc.id}`, { token });
      expect(one.status).toBe(200);
      expect(one.body).toEqual(doc);
      expectValid(`/v2/usercollection/${c}/{document_id}`, 200, one.body);
    }
  });

  it("answers 404 {detail:'Document not found.'} for unknown ids, and for another user's ids", async () => {
    const r = await call(base, "/v2/usercollection/daily_readiness/does-not-exist", { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: "Document not found." });
    const other = await connect(base);
    const otherDoc = (await call(base, `/_emulator/users/${other.user_id}/documents/daily_sleep`)).body.data[0];
    expect((await call(base, `/v2/usercollection/daily_sleep/${otherDoc.id}`, { token })).status).toBe(404);
  });

  it("answers 404 for routes the emulator does not serve", async () => {
    expect((await call(base, "/v2/usercollection/unknown_thing", { token })).status).toBe(404);
    expect((await call(base, "/v2/usercollection/daily_sleep/a/b", { token })).status).toBe(404);
  });

  it("serves personal_info as a bare object whose id is the user id", async () => {
    const r = await call(base, "/v2/usercollection/personal_info", { token });
    expect(r.status).toBe(200);
    expectValid("/v2/usercollection/personal_info", 200, r.body);
    expect(r.body.id).toBe(userId);
    expect(typeof r.body.email).toBe("string");
    expect(typeof r.body.age).toBe("number");
  });
});

describe("date windows (facts §2.4)", () => {
  const endInclusive = ["daily_readiness", "daily_sleep", "daily_stress", "daily_spo2", "daily_resilience", "daily_cardiovascular_age"];

  it.each(endInclusive)("%s: start=end=D returns day D (end-inclusive on day)", async (c) => {
    const D = fullDay();
    const r = await list(c, { start_date: D, end_date: D });
    expect(r.body.data.map((d: Doc) => d.day)).toEqual([D]);
    const two = await listAll(c, { start_date: D, end_date: addDays(D, 1) });
    expect(new Set(daysOf(two))).toEqual(new Set(stored[c as Collection].filter((d) => d.day === D || d.day === addDays(D, 1)).map((d) => d.day)));
  });

  it("daily_activity: a date-only end_date excludes that day; DT23:59:59 or D+1 includes it", async () => {
    const D = fullDay();
    expect((await list("daily_activity", { start_date: D, end_date: D })).body.data).toEqual([]);
    const late = await list("daily_activity", { start_date: D, end_date: `${D}T23:59:59` });
    expect(late.body.data.map((d: Doc) => d.day)).toEqual([D]);
    const plus = await list("daily_activity", { start_date: D, end_date: addDays(D, 1) });
    expect(plus.body.data.map((d: Doc) => d.day)).toEqual([D]);
    // the document's timestamp (04:00 local) is what is compared
    expect((await list("daily_activity", { start_date: D, end_date: `${D}T03:59:59` })).body.data).toEqual([]);
    expect((await list("daily_activity", { start_date: D, end_date: `${D}T04:00:00` })).body.data).toHaveLength(1);
    expect((await list("daily_activity", { start_date: `${D}T04:00:01`, end_date: addDays(D, 1) })).body.data).toEqual([]);
  });

  it("sleep: end=D misses periods of day D, end=D+1 returns them; the start is inclusive", async () => {
    const D = fullDay();
    expect((await list("sleep", { start_date: D, end_date: D })).body.data).toEqual([]);
    const r = await listAll("sleep", { start_date: D, end_date: addDays(D, 1) });
    const expected = stored.sleep.filter((d) => d.day === D).map((d) => d.id);
    expect(r.flatMap((p) => p.data.map((d) => d.id))).toEqual(expected);
  });

  it("defaults to start = end - 1 day, end = today", async () => {
    const yesterday = addDays(TEST_TODAY, -1);
    const readiness = await list("daily_readiness", {});
    const expected = stored.daily_readiness.filter((d) => d.day === yesterday || d.day === TEST_TODAY).map((d) => d.day);
    expect(readiness.body.data.map((d: Doc) => d.day)).toEqual(expected);
    const activity = await list("daily_activity", {});
    expect(activity.body.data.map((d: Doc) => d.day)).toEqual(stored.daily_activity.filter((d) => d.day === yesterday).map((d) => d.day));
    const onlyEnd = await list("daily_readiness", { end_date: yesterday });
    expect(onlyEnd.body.data.every((d: Doc) => d.day === yesterday || d.day === addDays(yesterday, -1))).toBe(true);
  });

  it("accepts date-times and lenient Unix-time values", async () => {
    const D = fullDay();
    expect((await list("daily_readiness", { start_date: `${D}T00:00:00+02:00`, end_date: `${D}T12:00:00Z` })).body.data).toHaveLength(1);
    const r = await list("daily_readiness", { start_date: "1", end_date: "2" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], next_token: null });
  });

  it("answers 422 HTTPValidationError for malformed dates", async () => {
    const r = await list("daily_sleep", { start_date: "2024-13-01", end_date: "soon" });
    expect(r.status).toBe(422);
    expectValid("/v2/usercollection/daily_sleep", 422, r.body);
    expect(r.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ["query", "start_date"],
      ["query", "end_date"],
    ]);
    expect(r.body.detail[0]).toMatchObject({ msg: expect.any(String), type: expect.any(String), input: "2024-13-01" });
  });

  it("answers 400 when start is after end", async () => {
    const r = await list("daily_sleep", { start_date: TEST_TODAY, end_date: addDays(TEST_TODAY, -3) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringMatching(/before/), status: 400, title: "Bad Request" });
  });
});

describe("pagination", () => {
  it("pages with an opaque next_token, with or without the filters repeated, and returns exactly the window", async () => {
    const window = { start_date: addDays(TEST_TODAY, -39), end_date: TEST_TODAY };
    for (const c of ["daily_readiness", "sleep"] as const) {
      // sleep is end-exclusive: today's periods are outside [start, today)
      const expected = stored[c].filter((d) => c !== "sleep" || d.day < TEST_TODAY).map((d) => d.id);
      const withFilters = await listAll(c, window, true);
      const bare = await listAll(c, window, false);
      expect(withFilters.length).toBeGreaterThan(3);
      expect(withFilters.slice(0, -1).every((p) => p.data.length === 7 && typeof p.next_token === "string")).toBe(true);
      expect(withFilters.at(-1)!.next_token).toBeNull();
      expect(withFilters.flatMap((p) => p.data.map((d) => d.id))).toEqual(expected);
      expect(bare.flatMap((p) => p.data.map((d) => d.id))).toEqual(expected);
    }
  });

  it("keeps paging correctly when a day changes between pages", async () => {
    const other = await connect(base);
    const window = { start_date: addDays(TEST_TODAY, -20), end_date: TEST_TODAY };
    const first = await list("daily_readiness", window, other.access_token);
    await call(base, `/_emulator/users/${other.user_id}/sync`, { json: { day: addDays(TEST_TODAY, -2) } });
    const pages: Page[] = [first.body];
    let next = first.body.next_token;
    while (next) {
      const r = await list("daily_readiness", { next_token: next }, other.access_token);
      pages.push(r.body);
      next = r.body.next_token;
    }
    const ids = pages.flatMap((p) => p.data.map((d) => d.id));
    expect(new Set(ids).size).toBe(ids.length);
    const storedIds = (await call(base, `/_emulator/users/${other.user_id}/documents/daily_readiness`)).body.data
      .filter((d: Doc) => d.day >= window.start_date && d.day <= window.end_date)
      .map((d: Doc) => d.id);
    expect(ids).toEqual(storedIds);
  });

  it("answers 400 for garbage, tampered, or foreign next_token values", async () => {
    const first = await list("daily_readiness", { start_date: addDays(TEST_TODAY, -30), end_date: TEST_TODAY });
    const good: string = first.body.next_token;
    expect(good).toBeTruthy();
    const tampered = `${good.slice(0, 10)}${good[10] === "A" ? "B" : "A"}${good.slice(11)}`;
    for (const bad of ["garbage", "", tampered, `${good}x`]) {
      if (bad === "") continue;
      const r = await list("daily_readiness", { next_token: bad });
      expect(r.status, bad).toBe(400);
    }
    expect((await list("daily_sleep", { next_token: good })).status).toBe(400); // another collection
    const other = await connect(base);
    expect((await list("daily_readiness", { next_token: good }, other.access_token)).status).toBe(400); // another user
  });
});

describe("fields", () => {
  it("projects to the requested fields plus id, day and timestamp; the result is a valid MultiDocumentResponseDict", async () => {
    const r = await list("daily_readiness", { start_date: addDays(TEST_TODAY, -5), end_date: TEST_TODAY, fields: "score,temperature_deviation,nonsense" });
    expect(r.status).toBe(200);
    for (const d of r.body.data) expect(Object.keys(d).sort()).toEqual(["day", "id", "score", "temperature_deviation", "timestamp"]);
    expectValid("/v2/usercollection/daily_readiness", 200, r.body);
    const spo2 = await list("daily_spo2", { start_date: addDays(TEST_TODAY, -5), end_date: TEST_TODAY, fields: "breathing_disturbance_index" });
    for (const d of spo2.body.data) expect(Object.keys(d).sort()).toEqual(["breathing_disturbance_index", "day", "id"]);
  });

  it("keeps bedtime_start on sleep, returns full documents when no requested field exists, and is ignored by daily_resilience", async () => {
    const window = { start_date: addDays(TEST_TODAY, -5), end_date: TEST_TODAY };
    const sleep = await list("sleep", { ...window, fields: "average_hrv" });
    for (const d of sleep.body.data) expect(Object.keys(d).sort()).toEqual(["average_hrv", "bedtime_start", "day", "id"]);
    const unknownOnly = await list("daily_sleep", { ...window, fields: "nope,zilch" });
    const full = await list("daily_sleep", window);
    expect(unknownOnly.body).toEqual(full.body);
    const resilience = await list("daily_resilience", { ...window, fields: "level" });
    expect(resilience.body.data[0]).toHaveProperty("contributors");
  });

  it("keeps the projection across pages when only next_token is sent", async () => {
    const pages = await listAll("daily_stress", { start_date: addDays(TEST_TODAY, -30), end_date: TEST_TODAY, fields: "day_summary" }, false);
    expect(pages.length).toBeGreaterThan(1);
    for (const d of pages.flatMap((p) => p.data)) expect(Object.keys(d).sort()).toEqual(["day", "day_summary", "id"]);
  });
});

describe("scopes and membership", () => {
  it("answers 403 without the collection's scope (daily → dailies and sleep; spo2Daily → daily_spo2)", async () => {
    const noDaily = await connect(base, undefined, { scope: "email personal spo2Daily" });
    for (const c of [...DAILY_COLLECTIONS.filter((c) => c !== "daily_spo2"), "sleep"]) {
      const r = await list(c, {}, noDaily.access_token);
      expect(r.status, c).toBe(403);
      expect(r.body).toEqual({ detail: expect.stringMatching(/daily/), status: 403, title: "Forbidden" });
    }
    expect((await list("daily_spo2", {}, noDaily.access_token)).status).toBe(200);
    const dailyOnly = await connect(base, undefined, { scope: "daily" });
    expect((await list("daily_spo2", {}, dailyOnly.access_token)).status).toBe(403);
    expect((await list("daily_sleep", {}, dailyOnly.access_token)).status).toBe(200);
    expect((await call(base, `/v2/usercollection/daily_spo2/${stored.daily_spo2[0]!.id}`, { token: dailyOnly.access_token })).status).toBe(403);
  });

  it("nulls personal_info fields by scope but always answers the id", async () => {
    const none = await connect(base, undefined, { scope: "daily" });
    const a = (await call(base, "/v2/usercollection/personal_info", { token: none.access_token })).body;
    expect(a).toEqual({ id: none.user_id, age: null, weight: null, height: null, biological_sex: null, email: null });
    const email = await connect(base, undefined, { scope: "email" });
    const b = (await call(base, "/v2/usercollection/personal_info", { token: email.access_token })).body;
    expect(b.email).toBe(email.email);
    expect(b.age).toBeNull();
    const personal = await connect(base, undefined, { scope: "personal" });
    const c = (await call(base, "/v2/usercollection/personal_info", { token: personal.access_token })).body;
    expect(c.email).toBeNull();
    expect(typeof c.age).toBe("number");
    expect(typeof c.height).toBe("number");
  });

  it("answers 403 on data routes for an expired membership, but personal_info still answers", async () => {
    const t = await connect(base);
    const patch = await call(base, `/_emulator/users/${t.user_id}`, { method: "PATCH", json: { subscription: "expired" } });
    expect(patch.status).toBe(200);
    const r = await list("daily_sleep", {}, t.access_token);
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatch(/membership/);
    expect((await call(base, "/v2/usercollection/personal_info", { token: t.access_token })).status).toBe(200);
    await call(base, `/_emulator/users/${t.user_id}`, { method: "PATCH", json: { subscription: "active" } });
    expect((await list("daily_sleep", {}, t.access_token)).status).toBe(200);
  });
});

describe("sandbox", () => {
  it("serves the fixed sample documents to any bearer; end-exclusive; fields ignored; valid against OpenAPI", async () => {
    for (const c of DAILY_COLLECTIONS) {
      const pages: Page[] = [];
      let next: string | null = null;
      do {
        const r = await list(c, next ? { next_token: next } : {}, "anything-at-all", "/v2/sandbox/usercollection");
        expect(r.status).toBe(200);
        expectValid(`/v2/sandbox/usercollection/${c}`, 200, r.body, true);
        pages.push(r.body);
        next = r.body.next_token;
      } while (next);
      expect(pages.flatMap((p) => p.data.map((d) => d.id))).toEqual(SANDBOX_DOCUMENTS[c].map((d) => d.id));
    }
    const D = "2024-11-10";
    const one = await list("daily_readiness", { start_date: D, end_date: D }, "x", "/v2/sandbox/usercollection");
    expect(one.body.data).toEqual([]);
    const two = await list("daily_readiness", { start_date: D, end_date: "2024-11-11", fields: "score" }, "x", "/v2/sandbox/usercollection");
    expect(two.body.data).toEqual(SANDBOX_DOCUMENTS.daily_readiness.filter((d) => d.day === D));
    expect(SANDBOX_FIRST_DAY < SANDBOX_LAST_DAY).toBe(true);
  });

  it("serves sandbox single documents and sleep periods, 404 for unknown ids, 401 without a bearer", async () => {
    const doc = SANDBOX_DOCUMENTS.daily_sleep[0]!;
    const one = await call(base, `/v2/sandbox/usercollection/daily_sleep/${doc.id}`, { token: "t" });
    expect(one.body).toEqual(doc);
    expectValid("/v2/sandbox/usercollection/daily_sleep/{document_id}", 200, one.body);
    expect((await call(base, "/v2/sandbox/usercollection/daily_sleep/nope", { token: "t" })).body).toEqual({ detail: "Document not found." });
    const sleep = await list("sleep", { start_date: SANDBOX_FIRST_DAY, end_date: "2024-11-03" }, "t", "/v2/sandbox/usercollection");
    expect(sleep.body.data.map((d: Doc) => d.id)).toEqual(
      SANDBOX_SLEEP_DOCUMENTS.filter((d) => d.day < "2024-11-03")
        .map((d) => d.id)
        .slice(0, 7),
    );
    expect((await call(base, "/v2/sandbox/usercollection/daily_sleep")).status).toBe(401);
    expect((await call(base, "/v2/sandbox/usercollection/personal_info", { token: "t" })).status).toBe(404);
  });
});

describe("rate limiting", () => {
  it("enforces the token layer, then the application layer, with all five headers; rejected requests do not count", async () => {
    const small = await startManualClockEmulator({ rateLimit: 3, appRateLimit: 5, rateWindowS: 2 });
    try {
      const client = await registerClient(small.url);
      const a = await connect(small.url, client);
      const b = await connect(small.url, client);
      const get = (t: string, sandbox = false) => call(small.url, `${sandbox ? "/v2/sandbox" : "/v2"}/usercollection/daily_sleep`, { token: t });
      // connect() already read personal_info once per token: a=1, b=1, application=2
      expect((await get(a.access_token)).status).toBe(200);
      expect((await get(a.access_token, true)).status).toBe(200); // sandbox counts too: a=3, application=4
      const started = small.clock.now();
      const limited = await get(a.access_token);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ status: 429, title: "Too Many Requests" });
      expect(limited.headers.get("x-ratelimit-tier")).toBe("token");
      expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
      expect(limited.headers.get("x-ratelimit-window")).toBe("2");
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
      const reset = Number(limited.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(started / 1000));
      expect(reset).toBeLessThanOrEqual(Math.ceil(started / 1000) + 3);

      // application layer: b takes the 5th slot, then 429 tier=application although b has used only 2 of 3
      expect((await get(b.access_token)).status).toBe(200);
      const app = await get(b.access_token);
      expect(app.status).toBe(429);
      expect(app.headers.get("x-ratelimit-tier")).toBe("application");
      expect(app.headers.get("x-ratelimit-limit")).toBe("5");

      // after the window every slot is back (rejections were not counted)
      await small.advance(2050);
      expect((await get(a.access_token)).status).toBe(200);
      expect((await get(b.access_token)).status).toBe(200);

      const log = (await call(small.url, "/_emulator/requests?kind=data")).body.requests;
      expect(log.filter((r: { status: number }) => r.status === 429).map((r: { rate_limit_tier: string }) => r.rate_limit_tier)).toEqual([
        "token",
        "application",
      ]);
    } finally {
      await small.close();
    }
  });
});

describe("scale", () => {
  it("serves a 5-year history, every page of it (memoized generation)", async () => {
    const big = await startTestEmulator({ historyDays: 1826, pageSize: 100 });
    try {
      const t = await connect(big.url, undefined, { email: uniqueEmail("big") });
      const query = { start_date: addDays(TEST_TODAY, -1825), end_date: TEST_TODAY };
      let r = await call(big.url, `/v2/usercollection/sleep?${new URLSearchParams(query)}`, { token: t.access_token });
      expect(r.status).toBe(200);
      let pages = 1;
      let total = r.body.data.length;
      while (r.body.next_token) {
        r = await call(big.url, `/v2/usercollection/sleep?next_token=${encodeURIComponent(r.body.next_token)}`, { token: t.access_token });
        pages++;
        total += r.body.data.length;
      }
      expect(pages).toBeGreaterThan(17);
      expect(total).toBeGreaterThan(1700);
      const stored: Doc[] = (await call(big.url, `/_emulator/users/${t.user_id}/documents/sleep`)).body.data;
      expect(total).toBe(stored.filter((d) => d.day < TEST_TODAY).length); // end-exclusive
    } finally {
      await big.close();
    }
  });
});
