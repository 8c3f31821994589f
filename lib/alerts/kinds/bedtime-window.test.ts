// The bedtime_window kind through its registry entry: a moment, due while tonight's window is
// open (keyed by its night), held back in quiet hours; its words.
import { describe, expect, it } from "vitest";
import { bedtimeWindow } from "@/lib/alerts/kinds/bedtime-window";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("bedtime_window", () => {
  const guidance = { day: "2026-11-22", status: "optimal_found", recommendation: null, start_offset: -5400, end_offset: -1800, day_tz: 0 };
  const at = (iso: string) => ruleEnv(iso, { newestBedtime: async () => guidance });

  it("is due from the window's start to its end, once per night; its times are always in the words", async () => {
    if (bedtimeWindow.watch.type !== "moment") throw new Error("a moment kind");
    expect(bedtimeWindow.watch).toMatchObject({ prefix: "bedtime", purpose: "alert", quiet: true });
    expect(await bedtimeWindow.watch.due({}, at("2026-11-22T22:29:00Z"))).toBeNull();
    expect(await bedtimeWindow.watch.due({}, at("2026-11-22T23:30:00Z"))).toBeNull();
    const due = await bedtimeWindow.watch.due({}, at("2026-11-22T22:45:00Z"));
    expect(due?.key).toBe("2026-11-22");
    const m = bedtimeWindow.message(await due!.facts(), messageContext(false), {});
    expect(m.title).toBe("Bedtime window open: 22:30 – 23:30");
    expect(m.link).toBe("https://ring.example/day/2026-11-22");
  });

  it("has no parameters", () => {
    expect(bedtimeWindow.params.safeParse({}).success).toBe(true);
    expect(bedtimeWindow.describe({})).toBe("When tonight's recommended bedtime window opens");
  });
});
