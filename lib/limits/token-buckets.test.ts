import { describe, expect, it } from "vitest";
import { TokenBuckets } from "@/lib/limits/token-buckets";

describe("TokenBuckets", () => {
  it("lets a token burst `limit` requests, then refills one every 60/limit seconds", () => {
    let now = 1_000_000;
    const b = new TokenBuckets(60, () => now);
    for (let i = 0; i < 60; i++) expect(b.take("t").ok).toBe(true);
    expect(b.take("t")).toEqual({ ok: false, retryAfterS: 1 });
    now += 999;
    expect(b.take("t").ok).toBe(false);
    now += 1;
    expect(b.take("t")).toEqual({ ok: true, remaining: 0 });
    now += 30_000;
    for (let i = 0; i < 30; i++) expect(b.take("t").ok).toBe(true);
    expect(b.take("t").ok).toBe(false);
  });

  it("says how long to wait when the rate is slow", () => {
    let now = 0;
    const b = new TokenBuckets(2, () => now);
    b.take("t");
    b.take("t");
    expect(b.take("t")).toEqual({ ok: false, retryAfterS: 30 });
    now += 10_000;
    expect(b.take("t")).toEqual({ ok: false, retryAfterS: 20 });
  });

  it("keeps each token's bucket apart, and never beyond the burst", () => {
    let now = 0;
    const b = new TokenBuckets(3, () => now);
    for (let i = 0; i < 3; i++) b.take("a");
    expect(b.take("a").ok).toBe(false);
    expect(b.take("b")).toEqual({ ok: true, remaining: 2 });
    now += 3_600_000;
    expect(b.take("a")).toEqual({ ok: true, remaining: 2 });
  });

  it("a dropped key (a revoked token) starts over, and the table stays bounded", () => {
    const now = 0;
    const b = new TokenBuckets(1, () => now, 4);
    b.take("a");
    b.drop("a");
    expect(b.take("a").ok).toBe(true);
    for (const k of ["b", "c", "d", "e", "f"]) b.take(k);
    expect((b as unknown as { buckets: Map<string, unknown> }).buckets.size).toBeLessThanOrEqual(4);
  });
});
