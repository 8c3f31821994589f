// RingClient against a scripted fetch and a fake clock: exact 429 waits per layer, one
// refresh after 401, bounded backoff on 5xx/no answer, no retry on 4xx, nothing secret in errors.
import { beforeEach, describe, expect, it } from "vitest";
import { rawDb } from "@/lib/db";
import { RingClient, TOKEN_REUSE_MS, type TokenSource } from "@/lib/ring/client";
import { RingApiError, RingRateLimitedError } from "@/lib/ring/errors";
import { RateGate } from "@/lib/ring/rate-gate";
import type { Clock } from "@/lib/clock";

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | "drop";

function fakeClock(start = 1_800_000_000_000): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

function scripted(steps: Step[], seen: Array<{ url: string; auth: string | null; at: number }>, clock: Clock): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({ url: String(input), auth: headers.get("authorization"), at: clock.now() });
    const step = steps.shift() ?? { status: 200, body: { data: [], next_token: null } };
    if (step === "drop") throw new TypeError("fetch failed");
    return new Response(step.body === undefined ? null : JSON.stringify(step.body), { status: step.status, headers: step.headers });
  }) as typeof fetch;
}

function tokens(): TokenSource & { refreshed: string[] } {
  let current = "tok-1";
  const refreshed: string[] = [];
  return {
    refreshed,
    getValidAccessToken: async () => current,
    refreshAfterUnauthorized: async (_id, rejected) => {
      refreshed.push(rejected);
      current = `tok-${refreshed.length + 1}`;
      return current;
    },
  };
}

// Pauses are persisted (AppSetting): each test starts without any.
beforeEach(() => {
  rawDb().prepare(`DELETE FROM "AppSetting" WHERE key LIKE 'rate_limit_pause:%'`).run();
});

const ok = { status: 200, body: { data: [{ id: "x", day: "2026-01-01" }], next_token: null } };

function client(steps: Step[], opts: { accountId?: string; gate?: RateGate; clock?: ReturnType<typeof fakeClock>; tokens?: TokenSource } = {}) {
  const clock = opts.clock ?? fakeClock();
  const seen: Array<{ url: string; auth: string | null; at: number }> = [];
  const c = new RingClient({
    accountId: opts.accountId ?? "acc-1",
    baseUrl: "http://ring.test",
    family: "usercollection",
    fetch: scripted(steps, seen, clock),
    tokens: opts.tokens ?? tokens(),
    gate: opts.gate ?? new RateGate({ clock }),
    clock,
    backoff: { baseMs: 1_000, maxMs: 300_000, maxRetries: 3 },
  });
  return { c, seen, clock };
}

describe("429", () => {
  it("waits exactly the later of Retry-After and X-RateLimit-Reset, then asks again", async () => {
    const clock = fakeClock(1_800_000_000_400);
    const reset = Math.ceil(clock.now() / 1000) + 3; // 3.6 s away
    const { c, seen } = client([{ status: 429, headers: { "retry-after": "3", "x-ratelimit-reset": String(reset), "x-ratelimit-tier": "token" } }, ok], {
      clock,
    });
    const page = await c.listPage("daily_activity", { start_date: "2026-01-01", end_date: "2026-01-02" });
    expect(page.data).toHaveLength(1);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(seen[1]!.at - reset * 1000).toBeLessThanOrEqual(2);
  });

  it("pauses every account on the application layer, only the one account on the token layer", async () => {
    const clock = fakeClock();
    const gate = new RateGate({ clock });
    const a = client([{ status: 429, headers: { "retry-after": "5", "x-ratelimit-tier": "token" } }, ok], { accountId: "a", gate, clock });
    await a.c.listPage("daily_sleep", {});
    expect(await gate.pausedUntil("b")).toBeNull();
    const b = client([{ status: 429, headers: { "retry-after": "7", "x-ratelimit-tier": "application" } }, ok], { accountId: "b", gate, clock });
    await b.c.listPage("daily_sleep", {});
    const t0 = clock.now();
    await gate.record("application", null, t0 + 4_000);
    const other = client([ok], { accountId: "c", gate, clock });
    await other.c.listPage("daily_sleep", {});
    expect(other.seen[0]!.at).toBeGreaterThanOrEqual(t0 + 4_000);
  });

  it("hands a long pause to the job instead of sleeping through it", async () => {
    const { c } = client([{ status: 429, headers: { "retry-after": "600", "x-ratelimit-tier": "application" } }]);
    await expect(c.listPage("daily_sleep", {})).rejects.toBeInstanceOf(RingRateLimitedError);
  });
});

describe("401", () => {
  it("refreshes once and retries once with the new token", async () => {
    const tk = tokens();
    const { c, seen } = client([{ status: 401 }, ok], { tokens: tk });
    await c.listPage("daily_readiness", {});
    expect(tk.refreshed).toEqual(["tok-1"]);
    expect(seen.map((s) => s.auth)).toEqual(["Bearer tok-1", "Bearer tok-2"]);
  });

  it("gives up after the second 401", async () => {
    const tk = tokens();
    const { c, seen } = client([{ status: 401 }, { status: 401 }, ok], { tokens: tk });
    await expect(c.listPage("daily_readiness", {})).rejects.toMatchObject({ status: 401 });
    expect(seen).toHaveLength(2);
    expect(tk.refreshed).toHaveLength(1);
  });
});

describe("the access token", () => {
  it("is asked of the token source once for a run of pages, again once it has been held for TOKEN_REUSE_MS, and after a refresh", async () => {
    let asked = 0;
    const tk: TokenSource = { getValidAccessToken: async () => `tok-${++asked}`, refreshAfterUnauthorized: async () => "tok-fresh" };
    const clock = fakeClock();
    const { c, seen } = client([ok, ok, ok, ok, { status: 401 }, ok, ok], { tokens: tk, clock });
    for (let i = 0; i < 3; i++) await c.listPage("daily_sleep", {});
    expect(asked).toBe(1);
    await clock.sleep(TOKEN_REUSE_MS);
    await c.listPage("daily_sleep", {});
    expect(asked).toBe(2);
    await c.listPage("daily_sleep", {}); // 401 → refreshed; the next page asks the source again
    await c.listPage("daily_sleep", {});
    expect(asked).toBe(3);
    expect(seen.map((s) => s.auth)).toEqual([
      "Bearer tok-1",
      "Bearer tok-1",
      "Bearer tok-1",
      "Bearer tok-2",
      "Bearer tok-2",
      "Bearer tok-fresh",
      "Bearer tok-3",
    ]);
  });

  it("is not held past the moment the source says it stops being usable", async () => {
    const clock = fakeClock();
    let asked = 0;
    const tk: TokenSource = {
      getValidAccessToken: async () => "unused",
      getValidAccessTokenUntil: async () => ({ token: `tok-${++asked}`, until: clock.now() + 5_000 }),
      refreshAfterUnauthorized: async () => "tok-fresh",
    };
    const { c, seen } = client([ok, ok, ok], { tokens: tk, clock });
    await c.listPage("daily_sleep", {});
    await clock.sleep(4_999);
    await c.listPage("daily_sleep", {});
    await clock.sleep(1);
    await c.listPage("daily_sleep", {});
    expect(seen.map((s) => s.auth)).toEqual(["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"]);
  });
});

describe("5xx and network errors", () => {
  it("backs off exponentially with jitter within bounds and recovers", async () => {
    const { c, clock } = client([{ status: 503 }, "drop", { status: 500 }, ok]);
    await c.listPage("sleep", {});
    expect(clock.slept).toHaveLength(3);
    const [d0, d1, d2] = clock.slept as [number, number, number];
    expect(d0).toBeGreaterThanOrEqual(500);
    expect(d0).toBeLessThanOrEqual(1_000);
    expect(d1).toBeGreaterThanOrEqual(1_000);
    expect(d1).toBeLessThanOrEqual(2_000);
    expect(d2).toBeGreaterThanOrEqual(2_000);
    expect(d2).toBeLessThanOrEqual(4_000);
  });

  it("fails after the last retry with the status and the path only", async () => {
    const { c, seen } = client([{ status: 502 }, { status: 502 }, { status: 502 }, { status: 502 }, ok]);
    const err = (await c.listPage("sleep", { start_date: "2026-01-01", next_token: "secret-cursor" }).catch((e) => e)) as RingApiError;
    expect(err).toBeInstanceOf(RingApiError);
    expect(err.status).toBe(502);
    expect(err.isTransient).toBe(true);
    expect(seen).toHaveLength(4);
    expect(err.message).toContain("/v2/usercollection/sleep");
    expect(err.message).not.toMatch(/tok-1|secret-cursor|start_date/);
  });
});

describe("other answers", () => {
  it("does not retry 400, 403 or 422", async () => {
    for (const status of [400, 403, 422]) {
      const { c, seen } = client([{ status, body: { detail: "nope" } }, ok]);
      await expect(c.listPage("daily_stress", {})).rejects.toMatchObject({ status });
      expect(seen).toHaveLength(1);
    }
  });

  it("tells a lapsed membership from a missing scope on 403", async () => {
    const a = client([{ status: 403, body: { detail: "The user's membership has expired, so this data is unavailable." } }]);
    const e1 = (await a.c.listPage("daily_stress", {}).catch((e) => e)) as RingApiError;
    expect(e1.isSubscriptionExpired).toBe(true);
    const b = client([{ status: 403, body: { detail: 'Missing scopes: this data requires the "daily" scope.' } }]);
    const e2 = (await b.c.listPage("daily_stress", {}).catch((e) => e)) as RingApiError;
    expect(e2.isSubscriptionExpired).toBe(false);
  });

  it("uses the sandbox routes when the family says so, and answers 404 single documents with null", async () => {
    const clock = fakeClock();
    const seen: Array<{ url: string; auth: string | null; at: number }> = [];
    const c = new RingClient({
      accountId: "a",
      baseUrl: "http://ring.test",
      family: "sandbox",
      fetch: scripted([ok, { status: 404, body: { detail: "Document not found." } }], seen, clock),
      tokens: tokens(),
      gate: new RateGate({ clock }),
      clock,
    });
    await c.listPage("daily_sleep", { start_date: "2026-01-01", end_date: "2026-01-03" });
    expect(new URL(seen[0]!.url).pathname).toBe("/v2/sandbox/usercollection/daily_sleep");
    expect(await c.getDocument("daily_sleep", "gone")).toBeNull();
  });
});
