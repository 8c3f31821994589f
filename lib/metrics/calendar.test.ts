import { describe, expect, it } from "vitest";
import { classifyCalendarDays, NOT_WORN_NON_WEAR_S } from "@/lib/metrics/calendar";

describe("calendar day states", () => {
  const base = {
    from: "2024-05-01",
    to: "2024-05-07",
    //        1     2     3     4     5     6     7
    values: [80, null, null, null, 75, null, null],
    hasAnyDocument: [true, true, false, true, true, false, false],
    nonWearS: [600, NOT_WORN_NON_WEAR_S + 1, null, 0, 0, null, null],
    newestDocumentDay: "2024-05-05",
    newestSyncedDay: null,
  };

  it("tells values, not worn, missing and not yet synced apart", () => {
    const days = classifyCalendarDays(base);
    expect(days.map((d) => d.status)).toEqual([
      "value", // a score
      "not_worn", // activity says the ring was off most of the day
      "not_worn", // no document at all, later days have some
      "missing", // other documents, none for this metric
      "value",
      "not_synced", // after the newest synced day
      "not_synced",
    ]);
    expect(days[0]).toEqual({ day: "2024-05-01", status: "value", value: 80 });
  });

  it("uses the sync's newest day when it is later than the newest document", () => {
    const days = classifyCalendarDays({ ...base, newestSyncedDay: "2024-05-06" });
    expect(days[5]?.status).toBe("missing"); // synced, but nothing came for it
    expect(days[6]?.status).toBe("not_synced");
  });

  it("keeps days before the first document apart from unworn ones", () => {
    const days = classifyCalendarDays({ ...base, oldestDocumentDay: "2024-05-02" });
    expect(days[0]?.status).toBe("before_history");
    expect(days[2]?.status).toBe("not_worn");
  });

  it("calls everything not synced when nothing has been synced", () => {
    const days = classifyCalendarDays({ ...base, values: [], hasAnyDocument: [], nonWearS: [], newestDocumentDay: null });
    expect(new Set(days.map((d) => d.status))).toEqual(new Set(["not_synced"]));
  });
});

describe("heat levels", () => {
  it("uses the score bands for scores and quartiles otherwise, turned round when lower is better", async () => {
    const { heatThresholds, heatLevel, summarizeCalendar } = await import("@/lib/metrics/calendar");
    expect(heatThresholds("score", "score", [])).toEqual([60, 70, 85]);
    expect(heatLevel(59, [60, 70, 85], "higher")).toBe(0);
    expect(heatLevel(85, [60, 70, 85], "higher")).toBe(3);
    expect(heatThresholds("measure", "bpm", [40, 50, 60, 70, 80, null])).toEqual([50, 60, 70]);
    expect(heatLevel(45, [50, 60, 70], "lower")).toBe(3);
    expect(
      summarizeCalendar([
        { status: "value", value: 80 },
        { status: "value", value: 90 },
        { status: "not_worn", value: null },
      ]),
    ).toEqual({ counts: { value: 2, not_worn: 1, missing: 0, not_synced: 0, before_history: 0 }, mean: 85 });
  });
});
