import { describe, expect, it } from "vitest";
import { SETTINGS_SECTIONS, settingsHref, settingsHrefForAnchor, settingsSection, visibleSettingsSections } from "@/lib/settings-sections";

describe("the sections of Settings", () => {
  it("in the order a person thinks in, each slug and anchor once", () => {
    expect(SETTINGS_SECTIONS.map((s) => s.slug)).toEqual([
      "account",
      "household",
      "cycle",
      "alerts",
      "signals",
      "preferences",
      "data",
      "api",
      "home-automation",
      "report-links",
      "sync",
    ]);
    const anchors = SETTINGS_SECTIONS.flatMap((s) => [...s.anchors]);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it("the one-page Settings' anchors land on their section and field", () => {
    expect(settingsHrefForAnchor("#alerts")).toBe("/settings/alerts");
    expect(settingsHrefForAnchor("#signals")).toBe("/settings/signals");
    expect(settingsHrefForAnchor("#sleep-need")).toBe("/settings/signals#sleep-need");
    expect(settingsHrefForAnchor("cycle")).toBe("/settings/cycle");
    expect(settingsHrefForAnchor("#cycle-tracking")).toBe("/settings/cycle#cycle-tracking");
    expect(settingsHrefForAnchor("#connection")).toBe("/settings/account");
    expect(settingsHrefForAnchor("#import")).toBe("/settings/data#import");
    expect(settingsHrefForAnchor("")).toBeNull();
    expect(settingsHrefForAnchor("#nothing-here")).toBeNull();
    expect(settingsHref("signals", "free-days")).toBe("/settings/signals#free-days");
  });

  it("a member's list leaves out the owner's sections; an unknown slug is no section", () => {
    expect(visibleSettingsSections("owner")).toHaveLength(SETTINGS_SECTIONS.length);
    expect(visibleSettingsSections("member").map((s) => s.slug)).not.toContain("household");
    expect(settingsSection("cycle")?.title).toBe("Your cycle");
    expect(settingsSection("../etc")).toBeNull();
  });
});
