import { describe, expect, it } from "vitest";
import { formatAgo, freshnessOf, normaliseSyncStatus } from "@/components/dashboard/freshness";

const NOW = Date.parse("2024-05-02T12:00:00Z");
const ranges = [
  { collection: "daily_sleep" as const, label: "Daily sleep", lastDay: "2024-05-02" },
  { collection: "daily_spo2" as const, label: "Daily SpO₂", lastDay: null },
  { collection: "daily_activity" as const, label: "Daily activity", lastDay: "2024-04-28" },
];

describe("freshness chips", () => {
  it("writes ages", () => {
    expect(formatAgo("2024-05-02T11:59:30Z", NOW)).toBe("just now");
    expect(formatAgo("2024-05-02T11:15:00Z", NOW)).toBe("45 min ago");
    expect(formatAgo("2024-05-02T02:00:00Z", NOW)).toBe("10 h ago");
    expect(formatAgo("2024-04-29T12:00:00Z", NOW)).toBe("3 days ago");
  });

  it("uses the sync status when it answers", () => {
    const f = freshnessOf(
      ranges,
      [
        { collection: "daily_sleep", status: "idle", lastSuccessAt: "2024-05-02T11:00:00Z", newestDay: "2024-05-02" },
        { collection: "daily_spo2", status: "not_shared" },
        { collection: "daily_activity", status: "error", lastError: "429 from the ring service" },
      ],
      "2024-05-02",
      NOW,
    );
    expect(f.map((x) => [x.collection, x.tone, x.text])).toEqual([
      ["daily_sleep", "fresh", "1 h ago"],
      ["daily_spo2", "idle", "not shared"],
      ["daily_activity", "problem", "error"],
    ]);
  });

  it("falls back to the newest stored day without a status", () => {
    const f = freshnessOf(ranges, undefined, "2024-05-02", NOW);
    expect(f.map((x) => x.text)).toEqual(["today", "no data", "4 days old"]);
    expect(f[2]?.tone).toBe("stale");
  });

  it("while the history is still downloading, says how far back it reaches", () => {
    const f = freshnessOf(
      ranges,
      [
        { collection: "daily_sleep", status: "backfilling", backfillDone: false, oldestDay: "2023-11-01", newestDay: "2024-05-02" },
        // between two back-fill jobs (idle, not done): still reaching back
        { collection: "daily_spo2", status: "idle", backfillDone: false, oldestDay: "2024-04-03", lastSuccessAt: "2024-05-02T11:00:00Z" },
        // nothing stored yet: the back-fill has not reached a day
        { collection: "daily_activity", status: "backfilling", backfillDone: false, oldestDay: null },
      ],
      "2024-05-02",
      NOW,
    );
    expect(f.map((x) => [x.collection, x.tone, x.text, x.title])).toEqual([
      ["daily_sleep", "fresh", "back to Nov 2023", "Daily sleep: history back to Wed 1 Nov 2023, still downloading"],
      ["daily_spo2", "fresh", "back to Apr 2024", "Daily SpO₂: history back to Wed 3 Apr 2024, still downloading"],
      ["daily_activity", "fresh", "syncing…", "Daily activity: sync in progress"],
    ]);
    // short enough for a chip on a phone
    for (const x of f) expect(x.text.length).toBeLessThanOrEqual(16);
  });

  it("a problem outranks the history still downloading", () => {
    const [f] = freshnessOf(
      ranges.slice(0, 1),
      [{ collection: "daily_sleep", status: "error", backfillDone: false, oldestDay: "2023-11-01", lastError: "429 from the ring service" }],
      "2024-05-02",
      NOW,
    );
    expect([f?.tone, f?.text]).toEqual(["problem", "error"]);
  });

  it("once the history is complete, the text is unchanged and the title names where it starts", () => {
    const f = freshnessOf(
      ranges,
      [
        {
          collection: "daily_sleep",
          status: "idle",
          backfillDone: true,
          lastSuccessAt: "2024-05-02T11:00:00Z",
          newestDay: "2024-05-02",
          oldestDay: "2021-03-02",
        },
        // a status without the field (an older server): as before
        { collection: "daily_activity", status: "idle", lastSuccessAt: "2024-05-02T11:00:00Z", newestDay: "2024-04-28" },
      ],
      "2024-05-02",
      NOW,
    );
    expect(f.map((x) => [x.text, x.title])).toEqual([
      ["1 h ago", "Daily sleep: synced 1 h ago, newest day Thu 2 May 2024, history from Tue 2 Mar 2021"],
      ["no data", "Daily SpO₂: nothing synced yet"],
      ["1 h ago", "Daily activity: synced 1 h ago, newest day Sun 28 Apr 2024"],
    ]);
  });

  it("reads the oldest day and whether the back-fill is done from the status", () => {
    expect(
      normaliseSyncStatus({
        collections: [
          { collection: "sleep", status: "backfilling", backfillDone: false, oldestDay: "2025-11-01", newestDay: "2026-03-15" },
          { collection: "daily_sleep", status: "idle", backfillDone: "yes", oldestDay: 20251101 },
        ],
      }),
    ).toEqual([
      {
        collection: "sleep",
        status: "backfilling",
        backfillDone: false,
        oldestDay: "2025-11-01",
        newestDay: "2026-03-15",
        lastSuccessAt: null,
        lastError: null,
      },
      { collection: "daily_sleep", status: "idle", oldestDay: null, newestDay: null, lastSuccessAt: null, lastError: null },
    ]);
  });
});
