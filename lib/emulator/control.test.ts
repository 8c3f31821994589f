import { clock } from "@/lib/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS } from "./generator";
import type { RunningEmulator } from "./server";
import { DEMO, TEST_TODAY, call, connect, registerClient, startTestEmulator, uniqueEmail, wornEmail } from "@/lib/test/emulator-kit";
import { addDays } from "@/lib/days";

let emu: RunningEmulator;
let base: string;

beforeAll(async () => {
  emu = await startTestEmulator({ historyDays: 30 });
  base = emu.url;
});
afterAll(() => emu.close());

describe("health and input validation", () => {
  it("answers health", async () => {
    const r = await call(base, "/_emulator/health");
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("ok");
  });

  it("answers 400 for malformed JSON and 422 for schema violations", async () => {
    const bad = await call(base, "/_emulator/users", { method: "POST", headers: { "content-type": "application/json" }, json: undefined });
    expect(bad.status).toBe(422); // empty body = {} → email missing
    const raw = await fetch(`${base}/_emulator/users`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(raw.status).toBe(400);
    const invalid = await call(base, "/_emulator/users", { json: { email: "not-an-email", history_days: 0 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail.map((d: { loc: string[] }) => d.loc.join("."))).toEqual(expect.arrayContaining(["body.email", "body.history_days"]));
    expect((await call(base, "/_emulator/clients", { json: { client_id: "x" } })).status).toBe(422);
    expect((await call(base, "/_emulator/faults", { json: { status: 200, count: 1 } })).status).toBe(422);
    expect((await call(base, "/_emulator/nope")).status).toBe(404);
  });
});

describe("clients", () => {
  it("registers (201) and replaces (200) clients; the demo client exists", async () => {
    const body = { client_id: "ctl-client", client_secret: "s1", redirect_uris: ["http://localhost:5000/cb"], approved: true };
    const first = await call(base, "/_emulator/clients", { json: body });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ client_id: "ctl-client", redirect_uris: ["http://localhost:5000/cb"], approved: true, portal: "legacy" });
    const again = await call(base, "/_emulator/clients", { json: { ...body, client_secret: "s2" } });
    expect(again.status).toBe(200);
    const ok = await call(base, "/oauth/token", { form: { grant_type: "refresh_token", refresh_token: "x", client_id: "ctl-client", client_secret: "s2" } });
    expect(ok.body.error).toBe("invalid_grant"); // authenticated with the new secret
    const clients = (await call(base, "/_emulator/clients")).body.clients;
    expect(clients.find((c: { client_id: string }) => c.client_id === DEMO.client_id)).toMatchObject({
      redirect_uris: [DEMO.redirect_uri],
      approved: false,
      portal: "legacy",
    });
  });
});

describe("test people", () => {
  const docs = async (id: string, c: string) =>
    (await call(base, `/_emulator/users/${id}/documents/${c}`)).body.data as Array<{ day: string; id: string; timestamp?: string; bedtime_start?: string }>;

  it("a data key gives the same data whatever the e-mail; another key other data", async () => {
    const a = await call(base, "/_emulator/users", { json: { email: uniqueEmail("key-a"), data_key: "person-1" } });
    const b = await call(base, "/_emulator/users", { json: { email: uniqueEmail("key-b"), data_key: "person-1" } });
    const c = await call(base, "/_emulator/users", { json: { email: uniqueEmail("key-c"), data_key: "person-2" } });
    const strip = (d: Array<Record<string, unknown>>) => d.map(({ id: _id, ...rest }) => rest);
    const [da, db, dc] = await Promise.all([a, b, c].map((u) => docs(u.body.user_id, "daily_sleep")));
    expect(da!.length).toBeGreaterThan(0);
    expect(strip(db!)).toEqual(strip(da!));
    expect(strip(dc!)).not.toEqual(strip(da!));
  });

  it('wear "always" wears the ring every night but the days named', async () => {
    const off = [addDays(TEST_TODAY, -3), addDays(TEST_TODAY, -10)];
    const u = await call(base, "/_emulator/users", { json: { email: uniqueEmail("wear"), wear: "always", not_worn_days: off } });
    expect(u.status).toBe(201);
    const days = new Set((await docs(u.body.user_id, "daily_sleep")).map((d) => d.day));
    const sleepDays = new Set((await docs(u.body.user_id, "sleep")).map((d) => d.day));
    for (let i = 0; i < 30; i++) {
      const d = addDays(TEST_TODAY, -i);
      expect({ d, scored: days.has(d), slept: sleepDays.has(d) }).toEqual({ d, scored: !off.includes(d), slept: !off.includes(d) });
    }
    const bad = await call(base, "/_emulator/users", { json: { email: uniqueEmail("wear"), wear: "sometimes", not_worn_days: ["2026-02-30"] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join("."))).toEqual(expect.arrayContaining(["body.wear", "body.not_worn_days.0"]));
  });

  it("nights planted without a sleep: in the charger all night, worn without a sleep, rest mode on", async () => {
    const [charger, noSleep, rest] = [addDays(TEST_TODAY, -4), addDays(TEST_TODAY, -6), addDays(TEST_TODAY, -8)];
    const nights = { [charger]: "charger", [noSleep]: "no_sleep", [rest]: "rest_mode" };
    const u = await call(base, "/_emulator/users", { json: { email: uniqueEmail("nights"), wear: "always", nights } });
    expect(u.status).toBe(201);
    const id = u.body.user_id as string;
    const sleepDays = new Set((await docs(id, "sleep")).map((d) => d.day));
    const activityDays = new Set((await docs(id, "daily_activity")).map((d) => d.day));
    for (const d of [charger, noSleep, rest]) expect({ d, slept: sleepDays.has(d) }).toEqual({ d, slept: false });
    expect(sleepDays.has(addDays(charger, -1))).toBe(true);
    // worn without a sleep: the day's activity is there; in the charger: the ring was off all day
    expect([activityDays.has(noSleep), activityDays.has(rest), activityDays.has(charger)]).toEqual([true, true, false]);
    // the night (22:00 the evening before to 06:00, UTC here) in samples
    const samples = async (c: string, d: string) =>
      (await call(base, `/_emulator/users/${id}/documents/${c}?start=${addDays(d, -1)}T22:00:00Z&end=${d}T06:00:00Z`)).body.data as Array<
        Record<string, unknown>
      >;
    const battery = await samples("ring_battery_level", charger);
    expect(battery.length).toBeGreaterThan(50);
    expect(battery.every((b) => b.in_charger === true)).toBe(true);
    // no heart rate once the person would have been asleep (bedtimes end by 01:30)
    expect((await samples("heartrate", charger)).filter((h) => String(h.timestamp) >= `${charger}T02:00`).length).toBe(0);
    expect((await samples("heartrate", noSleep)).length).toBeGreaterThan(50);
    expect((await samples("ring_battery_level", noSleep)).some((b) => b.in_charger === true)).toBe(false);
    // rest mode from 20:00 the evening before to 10:00
    const periods = (await call(base, `/_emulator/users/${id}/documents/rest_mode_period`)).body.data as Array<Record<string, unknown>>;
    expect(periods).toContainEqual(expect.objectContaining({ start_day: addDays(rest, -1), end_day: rest, start_time: `${addDays(rest, -1)}T20:00:00+00:00` }));
    const bad = await call(base, "/_emulator/users", { json: { email: uniqueEmail("nights"), nights: { [charger]: "asleep", "2026-02-30": "charger" } } });
    expect(bad.status).toBe(422);
  });

  it("a time zone offset shows in the documents' timestamps", async () => {
    const u = await call(base, "/_emulator/users", { json: { email: uniqueEmail("tz"), wear: "always", tz_offset_minutes: 780 } });
    const sleep = await docs(u.body.user_id, "sleep");
    expect(sleep[0]!.bedtime_start).toMatch(/\+13:00$/);
  });
});

describe("users", () => {
  it("creates users idempotently by e-mail, with deterministic ids that are the personal_info id", async () => {
    const email = uniqueEmail("ctl");
    const a = await call(base, "/_emulator/users", { json: { email } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      user_id: expect.any(String),
      email,
      history_days: 30,
      subscription: "active",
      last_day: TEST_TODAY,
      first_day: addDays(TEST_TODAY, -29),
    });
    const b = await call(base, "/_emulator/users", { json: { email: email.toUpperCase() } });
    expect(b.status).toBe(200);
    expect(b.body.user_id).toBe(a.body.user_id);
    const t = await connect(base, undefined, { email });
    expect(t.user_id).toBe(a.body.user_id);

    // same seed + e-mail → same id and data in another emulator; another seed → another user
    const twin = await startTestEmulator({ historyDays: 30 });
    const other = await startTestEmulator({ historyDays: 30, seed: "another-seed" });
    try {
      const c = await call(twin.url, "/_emulator/users", { json: { email } });
      expect(c.body.user_id).toBe(a.body.user_id);
      const docsA = (await call(base, `/_emulator/users/${a.body.user_id}/documents/daily_sleep`)).body.data;
      const docsC = (await call(twin.url, `/_emulator/users/${c.body.user_id}/documents/daily_sleep`)).body.data;
      expect(docsC).toEqual(docsA);
      expect((await call(other.url, "/_emulator/users", { json: { email } })).body.user_id).not.toBe(a.body.user_id);
    } finally {
      await twin.close();
      await other.close();
    }
  });

  it("honours history_days and patches the membership", async () => {
    const u = (await call(base, "/_emulator/users", { json: { email: uniqueEmail(), history_days: 5, subscription: "expired" } })).body;
    expect(u).toMatchObject({ history_days: 5, subscription: "expired", first_day: addDays(TEST_TODAY, -4) });
    const readiness = (await call(base, `/_emulator/users/${u.user_id}/documents/daily_readiness`)).body.data;
    expect(readiness.every((d: { day: string }) => d.day >= addDays(TEST_TODAY, -4) && d.day <= TEST_TODAY)).toBe(true);
    const patched = await call(base, `/_emulator/users/${u.user_id}`, { method: "PATCH", json: { subscription: "active" } });
    expect(patched.status).toBe(200);
    expect(patched.body.subscription).toBe("active");
    expect((await call(base, "/_emulator/users/nobody", { method: "PATCH", json: {} })).status).toBe(404);
    expect((await call(base, `/_emulator/users/${u.user_id}`, { method: "PATCH", json: { subscription: "paused" } })).status).toBe(422);
  });

  it("lists every stored document of a collection across the whole history", async () => {
    const u = (await call(base, "/_emulator/users", { json: { email: uniqueEmail() } })).body;
    for (const c of COLLECTIONS) {
      const r = await call(base, `/_emulator/users/${u.user_id}/documents/${c}`);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(r.body.data.length);
      expect(r.body.data.length).toBeGreaterThan(15);
      const days = r.body.data.map((d: { day: string }) => d.day);
      expect(days).toEqual([...days].sort());
      expect(days[0] >= addDays(TEST_TODAY, -29)).toBe(true);
    }
    expect((await call(base, `/_emulator/users/${u.user_id}/documents/no_such_thing`)).status).toBe(404);
  });

  it("lists the derived resources as documents and the time series as their samples, optionally one day of them", async () => {
    const u = (await call(base, "/_emulator/users", { json: { email: wornEmail("series") } })).body;
    const sleepTime = await call(base, `/_emulator/users/${u.user_id}/documents/sleep_time`);
    expect(sleepTime.status).toBe(200);
    expect(sleepTime.body.data.length).toBeGreaterThan(15);
    const rings = await call(base, `/_emulator/users/${u.user_id}/documents/ring_configuration`);
    expect(rings.body.data.length).toBeGreaterThanOrEqual(1);
    const all = await call(base, `/_emulator/users/${u.user_id}/documents/heartrate`);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(all.body.data.length);
    expect(all.body.data.length).toBeGreaterThan(30 * 150);
    const times = all.body.data.map((s: { timestamp_unix: number }) => s.timestamp_unix);
    expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
    const day = await call(base, `/_emulator/users/${u.user_id}/documents/heartrate?start=${TEST_TODAY}&end=${TEST_TODAY}`);
    expect(day.body.data.length).toBeGreaterThan(100);
    for (const s of day.body.data) expect(String(s.timestamp).slice(0, 10)).toBe(TEST_TODAY);
    expect(day.body.data).toEqual(all.body.data.filter((s: { timestamp: string }) => s.timestamp.startsWith(TEST_TODAY)));
    const battery = await call(base, `/_emulator/users/${u.user_id}/documents/ring_battery_level?start=${TEST_TODAY}T00:00:00Z&end=${TEST_TODAY}T11:59:59Z`);
    expect(battery.body.data.length).toBeGreaterThan(10);
    for (const s of battery.body.data) expect(s.timestamp < `${TEST_TODAY}T12`).toBe(true);
    expect((await call(base, `/_emulator/users/${u.user_id}/documents/heartrate?start=soon`)).status).toBe(422);
    const first = all.body.data[0];
    expect((await call(base, `/_emulator/users/${u.user_id}/documents/heartrate/${first.timestamp_unix}/delete`, { method: "POST" })).status).toBe(404);
  });
});

describe("sync", () => {
  it("creates documents for a new day and revises an existing day with the same ids", async () => {
    const t = await connect(base, undefined, { email: wornEmail() });
    const tomorrow = addDays(TEST_TODAY, 1);
    const created = await call(base, `/_emulator/users/${t.user_id}/sync`, { json: { day: tomorrow } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ user_id: t.user_id, day: tomorrow, revision: 0, updated: 0 });
    expect(created.body.created).toBeGreaterThan(0);
    expect(created.body.events.every((e: { event_type: string }) => e.event_type === "create")).toBe(true);
    const newSleep = created.body.documents.daily_sleep;
    expect(newSleep).toHaveLength(1);
    expect(newSleep[0].day).toBe(tomorrow);
    // served by the data routes
    const listed = await call(base, `/v2/usercollection/daily_sleep?start_date=${tomorrow}&end_date=${tomorrow}`, { token: t.access_token });
    expect(listed.body.data).toEqual(newSleep);

    const before = (await call(base, `/_emulator/users/${t.user_id}/documents/daily_readiness`)).body.data.find((d: { day: string }) => d.day === TEST_TODAY);
    const revised = await call(base, `/_emulator/users/${t.user_id}/sync`, { json: {} }); // default: today
    expect(revised.body).toMatchObject({ day: TEST_TODAY, revision: 1, created: 0 });
    expect(revised.body.updated).toBeGreaterThan(0);
    const after = revised.body.documents.daily_readiness[0];
    expect(after.id).toBe(before.id);
    expect(after).not.toEqual(before);
    expect((await call(base, `/v2/usercollection/daily_readiness/${before.id}`, { token: t.access_token })).body).toEqual(after);
    const again = await call(base, `/_emulator/users/${t.user_id}/sync`, { json: { day: TEST_TODAY } });
    expect(again.body.revision).toBe(2);
    expect((await call(base, `/_emulator/users/${t.user_id}/sync`, { json: { day: "2026-02-30" } })).status).toBe(422);
    expect((await call(base, "/_emulator/users/nobody/sync", { json: {} })).status).toBe(404);
  });

  it("deletes single documents", async () => {
    const u = (await call(base, "/_emulator/users", { json: { email: uniqueEmail() } })).body;
    const doc = (await call(base, `/_emulator/users/${u.user_id}/documents/sleep`)).body.data[0];
    const del = await call(base, `/_emulator/users/${u.user_id}/documents/sleep/${doc.id}/delete`, { method: "POST" });
    expect(del.status).toBe(200);
    expect(del.body.events).toEqual([expect.objectContaining({ event_type: "delete", data_type: "sleep", object_id: doc.id })]);
    const remaining = (await call(base, `/_emulator/users/${u.user_id}/documents/sleep`)).body.data;
    expect(remaining.some((d: { id: string }) => d.id === doc.id)).toBe(false);
    expect((await call(base, `/_emulator/users/${u.user_id}/documents/sleep/${doc.id}/delete`, { method: "POST" })).status).toBe(404);
    // a later revision of that day keeps it deleted
    await call(base, `/_emulator/users/${u.user_id}/sync`, { json: { day: doc.day } });
    const afterSync = (await call(base, `/_emulator/users/${u.user_id}/documents/sleep`)).body.data;
    expect(afterSync.some((d: { id: string }) => d.id === doc.id)).toBe(false);
  });

  it("edits fields of single documents (e.g. a value the service adds later); served as edited, kept through revisions", async () => {
    const t = await connect(base, DEMO, { email: uniqueEmail("edit") });
    const list = (await call(base, `/_emulator/users/${t.user_id}/documents/daily_resilience`)).body.data as Array<{ id: string; day: string; level: string }>;
    const doc = list.at(-1)!;
    const path = `/_emulator/users/${t.user_id}/documents/daily_resilience/${doc.id}`;
    const edit = await call(base, path, { method: "PATCH", json: { level: "legendary", brand_new: [1] } });
    expect(edit.status).toBe(200);
    expect(edit.body.document).toMatchObject({ id: doc.id, day: doc.day, level: "legendary", brand_new: [1] });
    expect(edit.body.events).toEqual([expect.objectContaining({ event_type: "update", data_type: "daily_resilience", object_id: doc.id })]);
    expect((await call(base, `/v2/usercollection/daily_resilience/${doc.id}`, { token: t.access_token })).body.level).toBe("legendary");
    const served = await call(base, "/v2/usercollection/daily_resilience", { token: t.access_token, headers: {} });
    expect(served.status).toBe(200);
    await call(base, `/_emulator/users/${t.user_id}/sync`, { json: { day: doc.day } });
    expect((await call(base, `/v2/usercollection/daily_resilience/${doc.id}`, { token: t.access_token })).body.level).toBe("legendary");
    expect((await call(base, path, { method: "PATCH", json: { id: "other" } })).status).toBe(422);
    expect((await call(base, path, { method: "PATCH", json: {} })).status).toBe(422);
    expect((await call(base, `/_emulator/users/${t.user_id}/documents/daily_resilience/nope`, { method: "PATCH", json: { level: "x" } })).status).toBe(404);
  });
});

describe("faults", () => {
  it("fails the next N data requests with a 5xx, then serves normally", async () => {
    const t = await connect(base);
    const f = await call(base, "/_emulator/faults", { json: { status: 503, count: 2 } });
    expect(f.status).toBe(201);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(base, "/v2/usercollection/daily_sleep", { token: t.access_token })).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect((await call(base, "/_emulator/faults")).body.faults).toEqual([]);
  });

  it("answers 429 with all five headers, retry_after and tier from the fault", async () => {
    const t = await connect(base);
    await call(base, "/_emulator/faults", { json: { status: 429, count: 1, retry_after: 7, tier: "application" } });
    const before = Math.floor(clock.now() / 1000);
    const r = await call(base, "/v2/usercollection/daily_sleep", { token: t.access_token });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("7");
    expect(r.headers.get("x-ratelimit-tier")).toBe("application");
    expect(r.headers.get("x-ratelimit-limit")).toBe(String(emu.config.appRateLimit));
    expect(r.headers.get("x-ratelimit-window")).toBe(String(emu.config.rateWindowS));
    const reset = Number(r.headers.get("x-ratelimit-reset"));
    expect(reset - before).toBeGreaterThanOrEqual(7);
    expect(reset - before).toBeLessThanOrEqual(9);
    await call(base, "/_emulator/faults", { json: { status: 429, count: 1 } });
    const tokenTier = await call(base, "/v2/usercollection/daily_sleep", { token: t.access_token });
    expect(tokenTier.headers.get("x-ratelimit-tier")).toBe("token");
    expect(tokenTier.headers.get("x-ratelimit-limit")).toBe(String(emu.config.rateLimit));
  });

  it("drops the connection for status 0 or 'drop'", async () => {
    for (const status of [0, "drop"]) {
      await call(base, "/_emulator/faults", { json: { status, count: 1 } });
      await expect(fetch(`${base}/v2/sandbox/usercollection/daily_sleep`, { headers: { authorization: "Bearer x" } })).rejects.toThrow();
    }
    expect((await call(base, "/v2/sandbox/usercollection/daily_sleep", { token: "x" })).status).toBe(200);
  });

  it("delays responses with delay_ms and can target other paths with path_prefix", async () => {
    await call(base, "/_emulator/faults", { json: { delay_ms: 300, count: 1 } });
    const t0 = clock.now();
    const slow = await call(base, "/v2/sandbox/usercollection/daily_sleep", { token: "x" });
    expect(slow.status).toBe(200);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(280);

    await call(base, "/_emulator/faults", { json: { status: 500, count: 1, path_prefix: "/oauth/token" } });
    const data = await call(base, "/v2/sandbox/usercollection/daily_sleep", { token: "x" });
    expect(data.status).toBe(200); // not a matching path
    const token = await call(base, "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: "x", client_id: DEMO.client_id, client_secret: DEMO.client_secret },
    });
    expect(token.status).toBe(500);
  });
});

describe("request log", () => {
  it("records data and token requests, so tests can count refreshes", async () => {
    const e = await startTestEmulator();
    try {
      const t = await connect(e.url);
      await call(e.url, "/oauth/token", {
        form: { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: DEMO.client_id, client_secret: DEMO.client_secret },
      });
      await call(e.url, "/v2/usercollection/daily_sleep", { token: t.access_token });
      await call(e.url, "/_emulator/health");
      const all = (await call(e.url, "/_emulator/requests")).body.requests;
      expect(all.map((r: { kind: string }) => r.kind)).toEqual(["authorize", "token", "data", "token", "data"]);
      const tokens = (await call(e.url, "/_emulator/requests?kind=token")).body.requests;
      expect(tokens.map((r: { grant_type: string; status: number }) => [r.grant_type, r.status])).toEqual([
        ["authorization_code", 200],
        ["refresh_token", 200],
      ]);
      const data = (await call(e.url, "/_emulator/requests?kind=data")).body.requests.at(-1);
      expect(data).toMatchObject({
        method: "GET",
        path: "/v2/usercollection/daily_sleep",
        status: 200,
        client_id: DEMO.client_id,
        user_id: t.user_id,
        token_fingerprint: expect.any(String),
      });
      expect(JSON.stringify(all)).not.toContain(t.access_token);
      await call(e.url, "/_emulator/requests", { method: "DELETE" });
      expect((await call(e.url, "/_emulator/requests")).body.requests).toEqual([]);
    } finally {
      await e.close();
    }
  });
});

describe("tokens shortcut and reset", () => {
  it("mints tokens for tests without the browser flow", async () => {
    const client = await registerClient(base);
    const r = await call(base, "/_emulator/tokens", { json: { client_id: client.client_id, email: uniqueEmail(), scope: "daily" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ token_type: "bearer", scope: "daily", expires_in: emu.config.tokenTtlS });
    expect((await call(base, "/v2/usercollection/daily_sleep", { token: r.body.access_token })).status).toBe(200);
    expect((await call(base, "/v2/usercollection/daily_spo2", { token: r.body.access_token })).status).toBe(403);
  });

  it("resets to an empty state with the demo client re-registered", async () => {
    const e = await startTestEmulator();
    try {
      const client = await registerClient(e.url);
      const t = await connect(e.url);
      await call(e.url, "/_emulator/faults", { json: { status: 500, count: 5 } });
      const r = await call(e.url, "/_emulator/reset", { method: "POST" });
      expect(r.status).toBe(200);
      expect((await call(e.url, "/v2/usercollection/daily_sleep", { token: t.access_token })).status).toBe(401);
      expect((await call(e.url, "/_emulator/users")).body.users).toEqual([]);
      expect((await call(e.url, "/_emulator/faults")).body.faults).toEqual([]);
      const clients = (await call(e.url, "/_emulator/clients")).body.clients.map((c: { client_id: string }) => c.client_id);
      expect(clients).toEqual([DEMO.client_id]);
      expect(clients).not.toContain(client.client_id);
      const again = await connect(e.url, undefined, { email: t.email });
      expect(again.user_id).toBe(t.user_id); // deterministic ids survive a reset
    } finally {
      await e.close();
    }
  });
});
