import { describe, expect, it } from "vitest";
import { DEFAULT_LAYERS, parseTrendsState, trendsStateToQuery } from "@/components/dashboard/trends-state";

describe("trends URL state", () => {
  it("keeps known metrics (at most four), a valid range and the layers", () => {
    const s = parseTrendsState({ m: "sleep.score,nope,activity.steps,sleep.score", range: "1y", layers: "avg7,tags" });
    expect(s.metrics).toEqual(["sleep.score", "activity.steps"]);
    expect(s.range).toBe("1y");
    expect(s.layers).toEqual({ avg7: true, avg30: false, band: false, normal: false, tags: true });
  });

  it("falls back to defaults and round-trips through the query string", () => {
    const d = parseTrendsState({});
    expect(d.metrics.length).toBeGreaterThan(0);
    expect(d.range).toBe("90d");
    expect(d.layers).toEqual(DEFAULT_LAYERS);
    const s = parseTrendsState(new URLSearchParams("m=resilience.level&range=custom&from=2024-01-01&to=2024-02-01&layers="));
    expect(trendsStateToQuery(s)).toBe("m=resilience.level&range=custom&from=2024-01-01&to=2024-02-01&layers=");
    expect(parseTrendsState(new URLSearchParams(trendsStateToQuery(s)))).toEqual(s);
  });
});
