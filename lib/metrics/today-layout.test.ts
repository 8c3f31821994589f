import { describe, expect, it } from "vitest";
import { COLLECTIONS, contributorsOf, getMetric, isMetricId } from "@/lib/metrics/catalog";
import { buildTodaySummary } from "@/lib/metrics/today";
import { TODAY_CATEGORIES, TODAY_LAYOUT, TODAY_METRICS } from "@/lib/metrics/today-layout";

const DAY = "2026-11-24";
const { scores, body, heart, stress, resilience, cardio } = TODAY_LAYOUT;
const documentCards = [...scores, stress, resilience, cardio];

describe("Today's layout", () => {
  it("lists metrics of the catalog, each once: numbers as numbers, categories as categories", () => {
    expect(TODAY_METRICS.length).toBeGreaterThan(30);
    expect(new Set([...TODAY_METRICS, ...TODAY_CATEGORIES]).size).toBe(TODAY_METRICS.length + TODAY_CATEGORIES.length);
    for (const id of TODAY_METRICS) {
      expect(isMetricId(id), id).toBe(true);
      expect(getMetric(id).kind, id).not.toBe("category");
    }
    for (const id of TODAY_CATEGORIES) expect(getMetric(id).kind, id).toBe("category");
  });

  it("lists every card's metrics, in the page's order", () => {
    expect(TODAY_METRICS).toEqual([
      ...scores.flatMap((c) => [c.score, ...c.contributors]),
      ...body.metrics,
      ...heart.metrics,
      ...stress.metrics,
      ...resilience.metrics,
      ...cardio.metrics,
    ]);
    expect(TODAY_CATEGORIES).toEqual([stress.category, resilience.category]);
  });

  it("a card of a document shows that document's metrics, titled and coloured as its collection", () => {
    for (const c of documentCards) {
      expect({ title: c.title, color: c.color }).toEqual({ title: COLLECTIONS[c.collection].label, color: COLLECTIONS[c.collection].color });
      const ids = [...("score" in c ? [c.score, ...c.contributors] : c.metrics), ...("category" in c ? [c.category] : [])];
      for (const id of ids) expect(getMetric(id).collection, `${id} on the ${c.title} card`).toBe(c.collection);
    }
    // the headings the pages (and their specs) show
    expect(documentCards.map((c) => c.title)).toEqual(["Sleep", "Readiness", "Activity", "Stress", "Resilience", "Cardiovascular age"]);
    expect(scores.map((c) => c.color)).toEqual(["var(--sleep)", "var(--readiness)", "var(--activity)"]);
  });

  it("each score lists the catalog's contributors under it, and none is a contributor of another", () => {
    expect(scores.map((c) => c.score)).toEqual(["sleep.score", "readiness.score", "activity.score"]);
    for (const c of scores) {
      expect(c.contributors.length, c.score).toBeGreaterThan(3);
      expect(c.contributors).toEqual(contributorsOf(c.collection).map((m) => m.id));
      expect(c.contributors).not.toContain(c.score);
    }
    expect(resilience.metrics).toEqual(contributorsOf("daily_resilience").map((m) => m.id));
  });

  it("the summary holds each metric the layout lists, in its order", () => {
    const rows = Object.fromEntries(
      [...TODAY_METRICS, ...TODAY_CATEGORIES].map((id) => [id, [{ day: DAY, value: getMetric(id).kind === "category" ? "normal" : 1 }]]),
    );
    const latestDay = Object.fromEntries(Object.keys(COLLECTIONS).map((c) => [c, DAY]));
    const summary = buildTodaySummary({ day: DAY, latestDay, rows, age: null });
    expect(Object.keys(summary.metrics)).toEqual(TODAY_METRICS);
    expect(Object.keys(summary.categories)).toEqual(TODAY_CATEGORIES);
  });
});
