import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchor, SIGNAL_KINDS, SIGNALS, SIGNALS_DOCS_ANCHORS } from "@/lib/signals/catalog";
import { getMetric } from "@/lib/metrics/catalog";
import { SIGNAL_METRICS } from "@/lib/metrics/signal-metrics";
import type { SignalKind } from "@/lib/signals/catalog";

describe("signals catalog and docs/signals.md", () => {
  it("every section the app links to is a heading of docs/signals.md", () => {
    const md = fs.readFileSync(path.resolve("docs/signals.md"), "utf8");
    const anchors = [...md.matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingAnchor(m[1]!));
    for (const a of SIGNALS_DOCS_ANCHORS) expect(anchors, a).toContain(a);
    expect(headingAnchor("Sleep Regularity Index")).toBe("sleep-regularity-index");
  });

  it("declares every kind once, and sleep debt is a metric of the catalog", () => {
    expect(Object.keys(SIGNALS)).toEqual([...SIGNAL_KINDS]);
    // the metric catalog names the signals it charts: each is a kind of this catalog (the type checks it too)
    const charted: Readonly<Record<string, { signal: SignalKind }>> = SIGNAL_METRICS;
    for (const m of Object.values(charted)) expect(SIGNAL_KINDS).toContain(m.signal);
    expect(getMetric("signals.sleep_debt")).toMatchObject({
      unit: "s",
      group: "Signals",
      collection: "sleep",
      source: { type: "signal", signal: "sleep_debt" },
    });
  });
});
