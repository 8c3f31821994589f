import { describe, expect, it } from "vitest";
import {
  collectionsForScopes,
  dataCollectionsForScopes,
  missingCollections,
  missingScopes,
  normalizeScopes,
  RING_SCOPES,
  SHARED_ITEMS,
} from "@/lib/auth/scopes";

// registry order (lib/resources): the order the pages list collections in
const DAILY = ["daily_sleep", "daily_readiness", "daily_activity", "daily_stress", "daily_resilience", "daily_cardiovascular_age", "sleep"];

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
    expect(collectionsForScopes("heartrate workout tag session")).toEqual([]);
  });
  it("all eight scopes share everything and miss nothing", () => {
    expect(collectionsForScopes(RING_SCOPES)).toEqual([...SHARED_ITEMS]);
    expect(missingCollections(RING_SCOPES)).toEqual([]);
  });
  it("a subset says plainly what is not shared", () => {
    expect(missingCollections("daily email")).toEqual(["daily_spo2", "personal_details"]);
    expect(missingCollections("spo2Daily personal")).toEqual([...DAILY, "email"]);
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
    expect(dataCollectionsForScopes("daily email personal")).toEqual(DAILY);
    expect(dataCollectionsForScopes("spo2Daily")).toEqual(["daily_spo2"]);
  });
});

describe("missingScopes", () => {
  it("lists requested scopes that were not granted", () => {
    expect(missingScopes("daily", ["email", "daily", "spo2Daily"])).toEqual(["email", "spo2Daily"]);
    expect(missingScopes("extapi:daily extapi:spo2", ["daily", "spo2Daily"])).toEqual([]);
  });
});
