import { describe, expect, it } from "vitest";
import { rankCorrelations } from "@/lib/metrics/correlations";
import type { Num } from "@/lib/metrics/stats";

const noise = (i: number) => Math.sin(i * 12.9898) * 43758.5453 - Math.floor(Math.sin(i * 12.9898) * 43758.5453);

describe("ranking relationships", () => {
  it("ranks by |r|, keeps lag-0 pairs once and leaves same-family pairs out", () => {
    const n = 60;
    const steps: Num[] = Array.from({ length: n }, (_, i) => 5000 + 4000 * noise(i));
    // next night's sleep follows today's steps; readiness mirrors steps the same day, inversely
    const sleep: Num[] = Array.from({ length: n }, (_, i) => (i === 0 ? null : 60 + (steps[i - 1]! - 5000) / 200));
    const readiness: Num[] = steps.map((s, i) => 100 - s! / 200 + 3 * noise(i + 1000));
    const night: Num[] = sleep.map((v) => (v === null ? null : v * 2)); // same family as sleep
    const ranked = rankCorrelations([
      { metric: { id: "activity.steps", collection: "daily_activity" }, values: steps },
      { metric: { id: "sleep.score", collection: "daily_sleep" }, values: sleep },
      { metric: { id: "readiness.score", collection: "daily_readiness" }, values: readiness },
      { metric: { id: "night.average_hrv", collection: "sleep" }, values: night },
    ]);
    expect(ranked[0]).toMatchObject({ x: "activity.steps", lag: 1 });
    expect(ranked[0]!.r).toBeCloseTo(1, 6);
    expect(ranked.some((c) => c.x === "sleep.score" && c.y === "night.average_hrv")).toBe(false);
    const lag0 = ranked.filter((c) => c.lag === 0 && [c.x, c.y].sort().join() === "activity.steps,readiness.score");
    expect(lag0).toHaveLength(1);
    expect(lag0[0]!.r).toBeLessThan(-0.9);
    for (let i = 1; i < ranked.length; i++) expect(Math.abs(ranked[i - 1]!.r)).toBeGreaterThanOrEqual(Math.abs(ranked[i]!.r));
  });
});
