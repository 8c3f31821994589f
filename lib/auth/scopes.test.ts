import { describe, expect, it } from "vitest";
import {
  collectionsForScopes,
  dataCollectionsForScopes,
  missingCollections,
  missingScopes,
  normalizeScopes,
  RING_SCOPES,
  scopeBrings,
  SHARED_ITEMS,
} from "@/lib/auth/scopes";

// registry order (lib/resources): the order the pages list collections in
const DAILY = [
  "daily_sleep",
  "daily_readiness",
  "daily_activity",
  "daily_stress",
  "daily_resilience",
  "daily_cardiovascular_age",
  "sleep",
  "vO2_max",
  "sleep_time",
  "rest_mode_period",
  "ring_configuration",
  "ring_battery_level",
];
// what the five scopes of the ring's other records bring, in scope order (heartrate, workout, tag, session, reproductive_cycle)
const OTHERS = ["heartrate", "workout", "enhanced_tag", "tag", "session", "daily_cycle_phases"];

describe("normalizeScopes", () => {
  it("accepts space- or comma-separated strings and lists, in canonical order without duplicates", () => {
    expect(normalizeScopes("spo2Daily daily email daily")).toEqual(["email", "daily", "spo2Daily"]);
    expect(normalizeScopes("daily,personal")).toEqual(["personal", "daily"]);
    expect(normalizeScopes(["daily personal", "email"])).toEqual(["email", "personal", "daily"]);
  });
  it("understands the newer identity provider's spellings and drops unknown names", () => {
    expect(normalizeScopes("extapi:daily extapi:spo2 extapi:personal openid profile")).toEqual(["personal", "daily", "spo2Daily"]);
    expect(normalizeScopes("DAILY Spo2Daily")).toEqual(["daily", "spo2Daily"]);
  });
  it("returns nothing for empty input", () => {
    expect(normalizeScopes("")).toEqual([]);
    expect(normalizeScopes(null)).toEqual([]);
    expect(normalizeScopes(undefined)).toEqual([]);
  });
});

describe("collectionsForScopes / missingCollections", () => {
  it("maps every scope to what it shares", () => {
    expect(collectionsForScopes("daily")).toEqual(DAILY);
    expect(collectionsForScopes("spo2Daily")).toEqual(["daily_spo2"]);
    expect(collectionsForScopes("personal")).toEqual(["personal_details"]);
    expect(collectionsForScopes("email")).toEqual(["email"]);
    expect(collectionsForScopes("heartrate workout tag session reproductive_cycle")).toEqual(OTHERS);
    expect(collectionsForScopes("extapi:reproductive_cycle")).toEqual(["daily_cycle_phases"]);
    expect(collectionsForScopes("heartrate")).toEqual(["heartrate"]);
    expect(collectionsForScopes("tag")).toEqual(["enhanced_tag", "tag"]);
  });
  it("all eight scopes share everything and miss nothing", () => {
    expect(collectionsForScopes(RING_SCOPES)).toEqual([...SHARED_ITEMS]);
    expect(missingCollections(RING_SCOPES)).toEqual([]);
  });
  it("a subset says plainly what is not shared", () => {
    expect(missingCollections("daily email")).toEqual(["daily_spo2", "personal_details", ...OTHERS]);
    expect(missingCollections("spo2Daily personal")).toEqual([...DAILY, "email", ...OTHERS]);
    expect(missingCollections("")).toEqual([...SHARED_ITEMS]);
  });
  it("shared and missing always partition the items", () => {
    for (let mask = 0; mask < 1 << RING_SCOPES.length; mask++) {
      const scopes = RING_SCOPES.filter((_, i) => mask & (1 << i));
      const shared = collectionsForScopes(scopes);
      const missing = missingCollections(scopes);
      expect([...shared, ...missing].sort()).toEqual([...SHARED_ITEMS].sort());
      expect(shared.filter((s) => missing.includes(s))).toEqual([]);
    }
  });
  it("dataCollectionsForScopes lists only syncable collections", () => {
    // in registry order, time series included
    expect(dataCollectionsForScopes("daily email personal")).toEqual([
      "daily_sleep",
      "daily_readiness",
      "daily_activity",
      "daily_stress",
      "daily_resilience",
      "daily_cardiovascular_age",
      "sleep",
      "vO2_max",
      "sleep_time",
      "rest_mode_period",
      "ring_configuration",
      "ring_battery_level",
    ]);
    expect(dataCollectionsForScopes("spo2Daily")).toEqual(["daily_spo2"]);
    expect(dataCollectionsForScopes("heartrate workout tag session")).toEqual(["heartrate", "workout", "session", "enhanced_tag", "tag"]);
  });
});

describe("scopeBrings", () => {
  it("says what each scope brings, from the registry's labels", () => {
    expect(scopeBrings("heartrate")).toEqual(["Heart rate through the day and night"]);
    expect(scopeBrings("tag")).toEqual([
      "Tags you enter in the ring's app (alcohol, caffeine, custom tags …)",
      "Notes of the ring's app (the older tag format)",
    ]);
    expect(scopeBrings("daily")).toContain("VO2 max estimates");
    expect(scopeBrings("daily")).toContain("The ring's battery level");
    for (const s of RING_SCOPES) expect(scopeBrings(s).length, s).toBeGreaterThan(0);
  });
});

describe("missingScopes", () => {
  it("lists requested scopes that were not granted", () => {
    expect(missingScopes("daily", ["email", "daily", "spo2Daily"])).toEqual(["email", "spo2Daily"]);
    expect(missingScopes("extapi:daily extapi:spo2", ["daily", "spo2Daily"])).toEqual([]);
  });
});
