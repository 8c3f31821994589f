// Conformance: the "Emulator contract" of ARCHITECTURE.md — settings and their defaults, one
// host for all addresses, the control API (users, sync, documents, reset), deterministic
// data, and the sandbox family serving fixed samples to any bearer token.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "@/lib/emulator/server";
import { addDays } from "@/lib/days";
import { ALL_SCOPES, DAILY_COLLECTIONS, DEMO_CLIENT, EXTRA_SCOPES, TEST_DEFAULTS, TODAY, Ring, uniqueEmail, useEmulator } from "@/e2e/conformance/support";
import { wornEmail } from "@/lib/test/emulator-kit";

const ring: Ring = useEmulator({ historyDays: 30 });

describe("emulator contract — settings", () => {
  it("every setting has the documented default (token TTL 86400, 5000/25000 per 300 s, page 100, webhook 30000/2000 ms, subscription 7776000 s, history 730 days, port 4010)", async () => {
    const emu = await startEmulator({ port: 0, host: "127.0.0.1" });
    try {
      expect(emu.config).toMatchObject({
        tokenTtlS: 86_400,
        rateLimit: 5_000,
        appRateLimit: 25_000,
        rateWindowS: 300,
        pageSize: 100,
        webhookDelayMs: 30_000,
        webhookRetryMs: 2_000,
        subscriptionTtlS: 7_776_000,
        historyDays: 730,
      });
      expect(typeof emu.config.seed).toBe("string");
      expect(emu.port).toBeGreaterThan(0);
      expect(emu.url).toContain(String(emu.port));
      // the default port is 4010 when none is given (checked without binding it)
      const { DEFAULT_CONFIG } = await import("@/lib/emulator/config");
      expect(DEFAULT_CONFIG.port).toBe(4010);
      // a served default: a new user's history spans 730 days
      const r = new Ring();
      r.emu = emu;
      const user = await r.createUser();
      const docs = await r.storedDocuments(user.user_id, "daily_readiness");
      const first = String(docs[0]!.day);
      expect(first >= addDays(String(docs[docs.length - 1]!.day), -730)).toBe(true);
      expect(first <= addDays(String(docs[docs.length - 1]!.day), -700)).toBe(true);
    } finally {
      await emu.close();
    }
  });

  it("npm run emulator: RING_EMULATOR_* variables are read and the settings printed at start", async () => {
    const env: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("VITEST") && !k.startsWith("RING_EMULATOR_")) env[k] = v;
    Object.assign(env, {
      RING_EMULATOR_PORT: "0",
      RING_EMULATOR_PAGE_SIZE: "3",
      RING_EMULATOR_TOKEN_TTL_S: "77",
      RING_EMULATOR_TODAY: TODAY,
    });
    const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "lib/emulator/main.ts"], {
      cwd: path.resolve("."),
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 20_000);
        const check = () => {
          const m = /(https?:\/\/[^\s]+:\d+)/.exec(out);
          if (m?.[1]) {
            clearTimeout(timer);
            resolve(m[1].replace(/\/$/, ""));
          }
        };
        child.stdout.on("data", check);
        child.once("exit", () => reject(new Error(`emulator exited: ${out}`)));
      });
      for (const name of [
        "RING_EMULATOR_PORT",
        "RING_EMULATOR_TOKEN_TTL_S",
        "RING_EMULATOR_RATE_LIMIT",
        "RING_EMULATOR_APP_RATE_LIMIT",
        "RING_EMULATOR_RATE_WINDOW_S",
        "RING_EMULATOR_PAGE_SIZE",
        "RING_EMULATOR_WEBHOOK_DELAY_MS",
        "RING_EMULATOR_WEBHOOK_RETRY_MS",
        "RING_EMULATOR_SUBSCRIPTION_TTL_S",
        "RING_EMULATOR_HISTORY_DAYS",
        "RING_EMULATOR_SEED",
      ]) {
        expect(out, name).toContain(name);
      }
      const r = new Ring();
      r.emu = { url, port: Number(new URL(url).port), config: {}, close: async () => {} } as unknown as Ring["emu"];
      const c = await r.registerClient();
      const conn = await r.connect(c, { scope: "daily" });
      expect(conn.expiresIn).toBe(77);
      const page = await r.api<{ data: unknown[]; next_token: string | null }>("/v2/usercollection/daily_sleep", {
        token: conn.accessToken,
        query: { start_date: addDays(TODAY, -20), end_date: TODAY },
      });
      expect(page.body.data).toHaveLength(3);
      expect(typeof page.body.next_token).toBe("string");
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 40_000);

  it("overrides given to startEmulator are applied (tests set small values)", async () => {
    expect(ring.config.pageSize).toBe(TEST_DEFAULTS.pageSize);
    expect(ring.config.webhookDelayMs).toBe(TEST_DEFAULTS.webhookDelayMs);
    expect(ring.config.historyDays).toBe(30);
    const c = await ring.registerClient();
    const conn = await ring.connect(c, { scope: "daily" });
    expect(conn.expiresIn).toBe(TEST_DEFAULTS.tokenTtlS);
    const page = await ring.api<{ data: unknown[] }>("/v2/usercollection/daily_sleep", {
      token: conn.accessToken,
      query: { start_date: addDays(TODAY, -29), end_date: TODAY },
    });
    expect(page.body.data).toHaveLength(TEST_DEFAULTS.pageSize!);
  });
});

describe("emulator contract — one host serves {base_url}, {authorize_url} and {alt_authorize_url}", () => {
  it("/oauth/authorize, /authorize, /oauth/token, /oauth/revoke and /v2/... answer on the same origin", async () => {
    const c = await ring.registerClient();
    const params = {
      response_type: "code",
      client_id: c.client_id,
      redirect_uri: c.redirect_uris[0],
      scope: "daily",
    };
    expect((await ring.getAuthorize(params)).status).toBe(200);
    expect((await ring.getAuthorize(params, "/authorize")).status).toBe(200);
    const conn = await ring.connect(c, { scope: "daily" });
    expect((await ring.api("/v2/usercollection/daily_sleep", { token: conn.accessToken })).status).toBe(200);
    const revoke = await fetch(`${ring.url}/oauth/revoke?access_token=${conn.accessToken}`);
    expect([200, 204]).toContain(revoke.status);
  });
});

describe("emulator contract — control API", () => {
  it("POST /_emulator/users {email, history_days} → {user_id, email}; the user has that many days of history", async () => {
    const user = await ring.createUser({ history_days: 12 });
    const docs = await ring.storedDocuments(user.user_id, "daily_readiness");
    const days = [...new Set(docs.map((d) => String(d.day)))].sort();
    expect(days.length).toBeGreaterThan(0);
    expect(days[0]! >= addDays(TODAY, -11)).toBe(true);
    expect(days[days.length - 1]! <= TODAY).toBe(true);
  });

  it("POST /_emulator/users {subscription: expired} → data answers 403; PATCH /_emulator/users/{id} {subscription: active} → 200", async () => {
    const c = await ring.registerClient();
    const user = await ring.createUser({ subscription: "expired" });
    const conn = await ring.connect(c, { email: user.email });
    expect((await ring.api("/v2/usercollection/daily_sleep", { token: conn.accessToken })).status).toBe(403);
    await ring.setSubscription(user.user_id, "active");
    expect((await ring.api("/v2/usercollection/daily_sleep", { token: conn.accessToken })).status).toBe(200);
    await ring.setSubscription(user.user_id, "expired");
    expect((await ring.api("/v2/usercollection/daily_sleep", { token: conn.accessToken })).status).toBe(403);
  });

  it("POST /_emulator/users/{id}/sync {day} → the documents created or changed for that day; the API then serves them", async () => {
    const c = await ring.registerClient();
    const user = await ring.createUser({ history_days: 10 });
    // every scope, the cycle's too: a generated person may track a cycle (then the day has its phases)
    const conn = await ring.connect(c, { email: user.email, scope: [...ALL_SCOPES, ...EXTRA_SCOPES].join(" ") });
    const day = addDays(TODAY, -40); // outside the history: everything is new
    const r = await ring.sync(user.user_id, day);
    const documents = (r.body as { documents?: Record<string, Array<Record<string, unknown>>> }).documents ?? {};
    const created = Object.values(documents).flat();
    expect(created.length).toBeGreaterThan(0);
    for (const [collection, docs] of Object.entries(documents)) {
      // tags and rest mode carry start_day; a ring belongs to no day
      const dayOf = (d: Record<string, unknown>) => (collection === "enhanced_tag" || collection === "rest_mode_period" ? d.start_day : d.day);
      for (const d of docs) if (collection !== "ring_configuration") expect(dayOf(d), collection).toBe(day);
    }
    for (const [collection, docs] of Object.entries(documents)) {
      for (const d of docs) {
        const got = await ring.api(`/v2/usercollection/${collection}/${String(d.id)}`, { token: conn.accessToken });
        expect(got.status, `${collection}/${String(d.id)}`).toBe(200);
        expect(got.body).toEqual(d);
      }
    }
    const list = await ring.api<{ data: Array<{ day: string }> }>("/v2/usercollection/daily_readiness", {
      token: conn.accessToken,
      query: { start_date: day, end_date: day },
    });
    expect(list.body.data.map((d) => d.day)).toEqual((documents.daily_readiness ?? []).map(() => day));
  });

  it("POST /_emulator/users/{id}/sync without a day syncs today (existing documents change, same ids)", async () => {
    // a user who wore the ring today (some generated days have no data at all)
    const user = await ring.createUser({ email: wornEmail("sync-today", [TODAY]), history_days: 10 });
    const userId = user.user_id;
    const before: Record<string, unknown> | undefined = (await ring.storedDocuments(userId, "daily_activity")).find((d) => d.day === TODAY);
    expect(before, "a user with an activity document today").toBeDefined();
    const r = await ring.sync(userId);
    const documents = (r.body as { documents?: Record<string, Array<Record<string, unknown>>> }).documents ?? {};
    const all = Object.entries(documents).flatMap(([c, docs]) => docs.map((d) => (c === "enhanced_tag" || c === "rest_mode_period" ? d.start_day : d.day)));
    expect(all.length).toBeGreaterThan(0);
    for (const d of all) expect(d).toBe(TODAY);
    const after = (await ring.storedDocuments(userId, "daily_activity")).find((d) => d.day === TODAY);
    expect(after?.id).toBe(before?.id);
  });

  it("GET /_emulator/users/{id}/documents/{collection} → every stored document of the seven daily collections and sleep", async () => {
    const user = await ring.createUser({ history_days: 8 });
    for (const c of [...DAILY_COLLECTIONS, "sleep"]) {
      const docs = await ring.storedDocuments(user.user_id, c);
      for (const d of docs) {
        expect(String(d.day) >= addDays(TODAY, -7)).toBe(true);
        expect(String(d.day) <= TODAY).toBe(true);
      }
    }
    expect((await ring.storedDocuments(user.user_id, "daily_sleep")).length).toBeGreaterThan(0);
    expect((await ring.storedDocuments(user.user_id, "sleep")).length).toBeGreaterThan(0);
  });

  it("POST /_emulator/reset → empty state (tokens, clients, users gone), demo client re-registered", async () => {
    const local = new Ring();
    local.emu = await startEmulator({ ...TEST_DEFAULTS });
    try {
      const c = await local.registerClient();
      const conn = await local.connect(c, { scope: "daily" });
      const r = await local.control("POST", "/_emulator/reset");
      expect(r.status).toBeLessThan(300);
      expect((await local.api("/v2/usercollection/daily_sleep", { token: conn.accessToken })).status).toBe(401);
      const page = await local.getAuthorize({
        response_type: "code",
        client_id: c.client_id,
        redirect_uri: c.redirect_uris[0],
      });
      expect(page.status).toBe(400);
      expect(page.headers.get("location")).toBeNull();
      const demo = await local.connect(DEMO_CLIENT, { scope: "daily" });
      expect(demo.accessToken).toBeTruthy();
      const subs = await local.webhook<unknown[]>(DEMO_CLIENT, "GET", "/v2/webhook/subscription");
      expect(subs.body).toEqual([]);
    } finally {
      await local.emu.close();
    }
  });
});

describe("emulator contract — data", () => {
  it("deterministic per user: the same seed and e-mail give the same documents in a fresh emulator", async () => {
    const email = uniqueEmail("same");
    const runs: Array<Record<string, unknown[]>> = [];
    for (let i = 0; i < 2; i++) {
      const r = new Ring();
      r.emu = await startEmulator({ ...TEST_DEFAULTS, seed: "conformance-seed" });
      try {
        const user = await r.createUser({ email, history_days: 20 });
        const out: Record<string, unknown[]> = {};
        for (const c of [...DAILY_COLLECTIONS, "sleep"]) out[c] = await r.storedDocuments(user.user_id, c);
        runs.push(out);
      } finally {
        await r.emu.close();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
  });

  it("a different seed gives different data", async () => {
    const email = uniqueEmail("seeded");
    const scores: string[] = [];
    for (const seed of ["seed-a", "seed-b"]) {
      const r = new Ring();
      r.emu = await startEmulator({ ...TEST_DEFAULTS, seed });
      try {
        const user = await r.createUser({ email, history_days: 20 });
        scores.push(JSON.stringify((await r.storedDocuments(user.user_id, "daily_sleep")).map((d) => d.score)));
      } finally {
        await r.emu.close();
      }
    }
    expect(scores[0]).not.toBe(scores[1]);
  });

  it("the sandbox family serves the same fixed sample documents to any bearer token", async () => {
    const a = await ring.api("/v2/sandbox/usercollection/daily_readiness", {
      token: "first-token",
      query: { start_date: "2000-01-01", end_date: "2100-01-01" },
    });
    const b = await ring.api("/v2/sandbox/usercollection/daily_readiness", {
      token: "another-token-entirely",
      query: { start_date: "2000-01-01", end_date: "2100-01-01" },
    });
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  it("personal_info has no sandbox twin (facts §3.8)", async () => {
    const r = await ring.api("/v2/sandbox/usercollection/personal_info", { token: "x" });
    expect(r.status).toBe(404);
  });
});
