// Conformance: interface spec §8 (10-user cap, two rate-limit layers, the five 429 headers)
// and the emulator contract's fault injection (POST /_emulator/faults).
import { clock as suiteClock } from "@/lib/clock";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { DEMO_CLIENT, type Ring, type TestClient, uniqueEmail, useEmulator } from "@/e2e/conformance/support";

const RATE = 5;
const APP_RATE = 8;
const WINDOW = 2;
// A manual clock: the rolling window is checked by moving time, not by waiting for it.
const limited: Ring = useEmulator({ rateLimit: RATE, appRateLimit: APP_RATE, rateWindowS: WINDOW }, { clock: "manual" });
const faulty: Ring = useEmulator({ rateLimit: 1000, appRateLimit: 2000, rateWindowS: 300 });
const capped: Ring = useEmulator();

const PERSONAL = "/v2/usercollection/personal_info";
const HEADERS = ["retry-after", "x-ratelimit-limit", "x-ratelimit-window", "x-ratelimit-reset", "x-ratelimit-tier"];

function expect429(
  r: { status: number; headers: Headers },
  want: { tier: "token" | "application"; limit: number; window: number; retryAfter?: number },
  nowMs = suiteClock.now(),
) {
  expect(r.status).toBe(429);
  for (const h of HEADERS) expect(r.headers.get(h), h).toMatch(/\S/);
  const retryAfter = r.headers.get("retry-after") ?? "";
  expect(retryAfter).toMatch(/^\d+$/);
  if (want.retryAfter !== undefined) expect(Number(retryAfter)).toBe(want.retryAfter);
  else {
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(want.window);
  }
  expect(r.headers.get("x-ratelimit-limit")).toBe(String(want.limit));
  expect(r.headers.get("x-ratelimit-window")).toBe(String(want.window));
  expect(r.headers.get("x-ratelimit-tier")).toBe(want.tier);
  const reset = r.headers.get("x-ratelimit-reset") ?? "";
  expect(reset).toMatch(/^\d+$/);
  const nowS = nowMs / 1000;
  expect(Number(reset)).toBeGreaterThanOrEqual(Math.floor(nowS) - 1);
  expect(Number(reset)).toBeLessThanOrEqual(Math.ceil(nowS) + want.window + 1);
  // the quota is not fully back before the client was told it may retry
  expect(Number(reset)).toBeGreaterThanOrEqual(Math.floor(nowS) + Number(retryAfter) - 1);
}

/** The flow must end in an OAuth refusal (error redirect or token-endpoint error), not a crash. */
async function expectRefused(ring: Ring, client: TestClient, email: string): Promise<void> {
  let error: unknown = null;
  try {
    await ring.connect(client, { email, scope: "daily" });
  } catch (e) {
    error = e;
  }
  expect(error, "the flow was refused").not.toBeNull();
  const refused = error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError;
  expect(refused, `refused by an OAuth error, got ${String(error)}`).toBe(true);
}

async function tokenOf(ring: Ring, client: TestClient): Promise<string> {
  return (await ring.connect(client, { scope: "daily email" })).accessToken;
}

describe("spec §8 — limits", () => {
  it("§8.2 per access token: the token's ceiling gives 429 with X-RateLimit-Tier token", async () => {
    const client = await limited.registerClient();
    const t = await tokenOf(limited, client);
    for (let i = 0; i < RATE; i++) expect((await limited.api(PERSONAL, { token: t })).status, `request ${i + 1}`).toBe(200);
    const r = await limited.api(PERSONAL, { token: t });
    expect429(r, { tier: "token", limit: RATE, window: WINDOW }, limited.now());
    // another token of the same application is not affected by this token's layer
    const other = await tokenOf(limited, client);
    expect((await limited.api(PERSONAL, { token: other })).status).toBe(200);
  });

  it("§8.2 per application: the aggregate over all its user tokens gives 429 with X-RateLimit-Tier application", async () => {
    const client = await limited.registerClient();
    const [a, b, c] = [await tokenOf(limited, client), await tokenOf(limited, client), await tokenOf(limited, client)];
    for (let i = 0; i < 4; i++) expect((await limited.api(PERSONAL, { token: a })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await limited.api(PERSONAL, { token: b })).status).toBe(200);
    // 8 = the application ceiling, though every token is below its own ceiling of 5
    expect429(await limited.api(PERSONAL, { token: c }), { tier: "application", limit: APP_RATE, window: WINDOW }, limited.now());
    expect429(await limited.api(PERSONAL, { token: a }), { tier: "application", limit: APP_RATE, window: WINDOW }, limited.now());
    // another application is independent
    const otherApp = await limited.registerClient();
    expect((await limited.api(PERSONAL, { token: await tokenOf(limited, otherApp) })).status).toBe(200);
  });

  it("§8.3 429 carries Retry-After, X-RateLimit-Limit, X-RateLimit-Window, X-RateLimit-Reset, X-RateLimit-Tier", async () => {
    const client = await limited.registerClient();
    const t = await tokenOf(limited, client);
    for (let i = 0; i < RATE; i++) await limited.api("/v2/usercollection/daily_sleep", { token: t });
    const r = await limited.api("/v2/usercollection/daily_sleep", { token: t });
    expect429(r, { tier: "token", limit: RATE, window: WINDOW }, limited.now());
  });

  it("§8.3 the window is rolling: after Retry-After seconds the quota is back", async () => {
    const client = await limited.registerClient();
    const t = await tokenOf(limited, client);
    for (let i = 0; i < RATE; i++) await limited.api(PERSONAL, { token: t });
    const r = await limited.api(PERSONAL, { token: t });
    expect(r.status).toBe(429);
    const waitS = Number(r.headers.get("retry-after"));
    await limited.advance(waitS * 1000);
    expect((await limited.api(PERSONAL, { token: t })).status).toBe(200);
    await limited.advance(WINDOW * 1000);
    for (let i = 0; i < RATE; i++) expect((await limited.api(PERSONAL, { token: t })).status).toBe(200);
  });

  it("§8.2 sandbox calls count against the same limit (facts §7)", async () => {
    const client = await limited.registerClient();
    const t = await tokenOf(limited, client);
    for (let i = 0; i < RATE; i++) {
      expect((await limited.api("/v2/sandbox/usercollection/daily_sleep", { token: t })).status).toBe(200);
    }
    expect429(await limited.api(PERSONAL, { token: t }), { tier: "token", limit: RATE, window: WINDOW }, limited.now());
  });

  it("§8.1 unapproved applications: at most 10 users — the 11th distinct user gets no access token", async () => {
    const client = await capped.registerClient({ approved: false });
    const emails = Array.from({ length: 10 }, () => uniqueEmail("cap"));
    for (const email of emails) await capped.connect(client, { email, scope: "daily" });
    // one of the ten connecting again does not count twice
    await capped.connect(client, { email: emails[3], scope: "daily" });
    await expectRefused(capped, client, uniqueEmail("eleventh"));
    // the ten keep working
    await capped.connect(client, { email: emails[9], scope: "daily" });
  });

  it("§8.1 after approval there is no user limit", async () => {
    const client = await capped.registerClient({ approved: true });
    for (let i = 0; i < 12; i++) await capped.connect(client, { scope: "daily" });
  });

  it("§8.1 the demo client ringside-demo is not approved (the 10-user cap applies)", async () => {
    for (let i = 0; i < 10; i++) await capped.connect(DEMO_CLIENT, { scope: "daily" });
    await expectRefused(capped, DEMO_CLIENT, uniqueEmail("demo-11th"));
  });
});

describe("emulator contract — POST /_emulator/faults", () => {
  it("429 with retry_after: that value in Retry-After and all five headers; X-RateLimit-Limit is the ceiling of the tier named", async () => {
    const client = await faulty.registerClient();
    const t = await tokenOf(faulty, client);
    await faulty.fault({ status: 429, count: 1, retry_after: 17 });
    const r = await faulty.api(PERSONAL, { token: t });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("17");
    for (const h of HEADERS) expect(r.headers.get(h), h).toMatch(/\S/);
    const tier = r.headers.get("x-ratelimit-tier");
    expect(["token", "application"]).toContain(tier);
    expect(r.headers.get("x-ratelimit-limit")).toBe(tier === "token" ? "1000" : "2000");
    expect(r.headers.get("x-ratelimit-window")).toBe("300");
    expect((await faulty.api(PERSONAL, { token: t })).status).toBe(200);

    await faulty.fault({ status: 429, count: 1, retry_after: 3, tier: "application" });
    const app = await faulty.api(PERSONAL, { token: t });
    expect429(app, { tier: "application", limit: 2000, window: 300, retryAfter: 3 });
    await faulty.fault({ status: 429, count: 1, retry_after: 4, tier: "token" });
    expect429(await faulty.api(PERSONAL, { token: t }), { tier: "token", limit: 1000, window: 300, retryAfter: 4 });
  });

  it("5xx: the next `count` matching data requests fail; path_prefix limits which ones", async () => {
    const client = await faulty.registerClient();
    const t = await tokenOf(faulty, client);
    await faulty.fault({ status: 503, count: 2, path_prefix: "/v2/usercollection/daily_sleep" });
    expect((await faulty.api("/v2/usercollection/daily_activity", { token: t })).status).toBe(200);
    expect((await faulty.api("/v2/usercollection/daily_sleep", { token: t })).status).toBe(503);
    expect((await faulty.api("/v2/usercollection/daily_sleep", { token: t })).status).toBe(503);
    expect((await faulty.api("/v2/usercollection/daily_sleep", { token: t })).status).toBe(200);
    await faulty.fault({ status: 500, count: 1 });
    expect((await faulty.api(PERSONAL, { token: t })).status).toBe(500);
    expect((await faulty.api(PERSONAL, { token: t })).status).toBe(200);
  });

  it("a dropped connection (status 0) makes the request fail at the network level", async () => {
    const client = await faulty.registerClient();
    const t = await tokenOf(faulty, client);
    await faulty.fault({ status: 0, count: 1, path_prefix: "/v2/usercollection/daily_readiness" });
    await expect(faulty.api("/v2/usercollection/daily_readiness", { token: t })).rejects.toThrow();
    expect((await faulty.api("/v2/usercollection/daily_readiness", { token: t })).status).toBe(200);
  });
});
