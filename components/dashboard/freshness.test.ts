import { describe, expect, it } from "vitest";
import { formatAgo, freshnessOf } from "@/components/dashboard/freshness";

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
});
