import { describe, expect, it } from "vitest";
import { TwoTierRateLimiter, rateLimitHeaders } from "./rate-limit";

const T0 = 1_700_000_000_000; // epoch ms, a whole second

describe("TwoTierRateLimiter", () => {
  it("admits exactly `limit` requests per rolling window per token", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 3, appLimit: 100, windowS: 10 });
    expect(rl.check("t", "app", T0).ok).toBe(true);
    expect(rl.check("t", "app", T0 + 1000).ok).toBe(true);
    expect(rl.check("t", "app", T0 + 2000).ok).toBe(true);
    const d = rl.check("t", "app", T0 + 3000);
    expect(d).toMatchObject({ ok: false, tier: "token", limit: 3, windowS: 10 });
    // another token of the same app is unaffected
    expect(rl.check("t2", "app", T0 + 3000).ok).toBe(true);
  });

  it("frees a slot when the oldest request leaves the window (rolling, not fixed)", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 2, appLimit: 100, windowS: 10 });
    rl.check("t", null, T0);
    rl.check("t", null, T0 + 4000);
    const d = rl.check("t", null, T0 + 6000);
    // oldest at T0 expires at T0+10s → 4 s from now; the newest at T0+4s → full reset at T0+14s
    expect(d).toEqual({ ok: false, tier: "token", limit: 2, windowS: 10, retryAfterS: 4, resetEpochS: (T0 + 14_000) / 1000 });
    expect(rl.check("t", null, T0 + 9_999).ok).toBe(false);
    expect(rl.check("t", null, T0 + 10_000).ok).toBe(true); // T0 request is now outside (t - W, t]
    expect(rl.check("t", null, T0 + 10_001).ok).toBe(false);
  });

  it("rounds Retry-After up to whole seconds and never below 1", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 1, appLimit: 100, windowS: 5 });
    rl.check("t", null, T0);
    const a = rl.check("t", null, T0 + 1);
    expect(a.ok === false && a.retryAfterS).toBe(5); // 4.999 s → 5
    const b = rl.check("t", null, T0 + 4_999);
    expect(b.ok === false && b.retryAfterS).toBe(1); // 1 ms → 1
  });

  it("does not count rejected requests", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 1, appLimit: 100, windowS: 10 });
    rl.check("t", null, T0);
    for (let i = 1; i <= 50; i++) expect(rl.check("t", null, T0 + i * 100).ok).toBe(false);
    // had the rejections counted, the window would still be full at T0+10s
    expect(rl.check("t", null, T0 + 10_000).ok).toBe(true);
    expect(rl.usage(T0 + 10_000, "t").token).toBe(1);
  });

  it("applies the application ceiling across all tokens of the application", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 10, appLimit: 4, windowS: 60 });
    expect(rl.check("a", "app", T0).ok).toBe(true);
    expect(rl.check("b", "app", T0 + 1).ok).toBe(true);
    expect(rl.check("c", "app", T0 + 2).ok).toBe(true);
    expect(rl.check("d", "app", T0 + 3).ok).toBe(true);
    const d = rl.check("e", "app", T0 + 4);
    expect(d).toMatchObject({ ok: false, tier: "application", limit: 4, windowS: 60, retryAfterS: 60 });
    // a token of another application is unaffected
    expect(rl.check("x", "other", T0 + 5).ok).toBe(true);
    // the rejected request was not recorded against token "e" either
    expect(rl.usage(T0 + 5, "e", "app")).toEqual({ token: 0, application: 4 });
  });

  it("reports the layer that frees later when both are full", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 2, appLimit: 2, windowS: 10 });
    rl.check("other", "app", T0); // app: T0
    rl.check("t", "app", T0 + 5000); // app full, token t has 1
    const d = rl.check("t", "app", T0 + 6000);
    expect(d).toMatchObject({ ok: false, tier: "application", retryAfterS: 4 });
    // fill token t beyond: new window
    const rl2 = new TwoTierRateLimiter({ tokenLimit: 1, appLimit: 2, windowS: 10 });
    rl2.check("t", "app", T0); // token full from T0, app 1
    rl2.check("u", "app", T0 + 8000); // app full
    const d2 = rl2.check("t", "app", T0 + 9000);
    // token frees at T0+10 (1 s), app frees at T0+10 too (oldest T0) → tie → token reported
    expect(d2).toMatchObject({ ok: false, tier: "token", retryAfterS: 1 });
  });

  it("builds the five 429 headers", () => {
    expect(rateLimitHeaders({ tier: "application", limit: 25000, windowS: 300, retryAfterS: 7, resetEpochS: 1_700_000_300 })).toEqual({
      "retry-after": "7",
      "x-ratelimit-limit": "25000",
      "x-ratelimit-window": "300",
      "x-ratelimit-reset": "1700000300",
      "x-ratelimit-tier": "application",
    });
  });

  it("stays fast and bounded over many requests", () => {
    const rl = new TwoTierRateLimiter({ tokenLimit: 5000, appLimit: 25000, windowS: 300 });
    const started = performance.now();
    let admitted = 0;
    for (let i = 0; i < 60_000; i++) if (rl.check(`t${i % 20}`, "app", T0 + i * 10).ok) admitted++;
    // 600 s of traffic at 100 req/s against a 25000/300 s application ceiling
    expect(admitted).toBeLessThanOrEqual(25_000 * 2 + 20);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
