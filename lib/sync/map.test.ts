import { describe, expect, it } from "vitest";
import { documentKey, instantOf, mapDocument, mapSamples } from "@/lib/sync/map";
import { columnsOf, RING_COLLECTIONS } from "@/lib/resources";
import { rawDb } from "@/lib/db";
import { RING_TABLES } from "@/lib/db/ingest/documents";

const activity = {
  id: "a-1",
  day: "2024-11-11",
  timestamp: "2024-11-11T04:00:00+01:00",
  score: 95,
  active_calories: 1153,
  average_met_minutes: 1.875,
  contributors: { meet_daily_targets: 60, move_every_hour: 100, recovery_time: 100, stay_active: 97, training_frequency: 100, training_volume: null },
  equivalent_walking_distance: 17850,
  high_activity_met_minutes: 20,
  high_activity_time: 300,
  inactivity_alerts: 0,
  low_activity_met_minutes: 200,
  low_activity_time: 12000,
  medium_activity_met_minutes: 100,
  medium_activity_time: 2000,
  met: { interval: 60, items: [1.2, null, 0.9], timestamp: "2024-11-11T04:00:00.000+01:00" },
  meters_to_target: -3500,
  non_wear_time: 60,
  resting_time: 22860,
  sedentary_met_minutes: 10,
  sedentary_time: 38100,
  steps: 15185,
  target_calories: 950,
  target_meters: 17000,
  total_calories: 3502,
  class_5_min: "0011",
};

describe("mapDocument", () => {
  it("flattens contributors into columns of the same name and keeps the raw JSON", () => {
    const r = mapDocument("daily_activity", activity, "u1", "t");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.row).toMatchObject({
      userId: "u1",
      documentId: "a-1",
      day: "2024-11-11",
      steps: 15185,
      meters_to_target: -3500,
      meet_daily_targets: 60,
      training_volume: null,
    });
    expect(JSON.parse(r.row.raw)).toEqual(activity);
  });

  it("accepts nulls, missing optional keys and unknown extra keys", () => {
    const sleep = { id: "s-1", day: "2024-11-12", timestamp: "2024-11-12T00:00:00+00:00", contributors: {}, brand_new_field: [1, 2, 3] };
    const r = mapDocument("daily_sleep", sleep, "u1", "t");
    expect(r.ok && r.row.score).toBeNull();
    const readiness = {
      id: "r-1",
      day: "2024-11-11",
      timestamp: "2024-11-11T00:00:00+00:00",
      score: null,
      contributors: { activity_balance: 94, hrv_balance: null },
    };
    const rr = mapDocument("daily_readiness", readiness, "u1", "t");
    expect(rr.ok && rr.row.sleep_regularity).toBeNull();
    expect(rr.ok && rr.row.activity_balance).toBe(94);
  });

  it("stores cardiovascular age without an id, unique by day", () => {
    const r = mapDocument("daily_cardiovascular_age", { day: "2024-11-12", vascular_age: 35 }, "u1", "t");
    expect(r.ok && r.row.documentId).toBeNull();
    if (r.ok) expect(documentKey("daily_cardiovascular_age", r.row)).toBe("2024-11-12");
  });

  it("maps SpO2, stress, resilience and sleep periods", () => {
    const spo2 = mapDocument("daily_spo2", { id: "o", day: "2024-11-11", spo2_percentage: { average: 98.072 }, breathing_disturbance_index: 15 }, "u", "t");
    expect(spo2.ok && spo2.row.spo2_average).toBe(98.072);
    const spo2Null = mapDocument("daily_spo2", { id: "o2", day: "2024-11-11", spo2_percentage: null }, "u", "t");
    expect(spo2Null.ok && spo2Null.row.spo2_average).toBeNull();
    const stress = mapDocument("daily_stress", { id: "st", day: "2024-11-11", stress_high: 1800, recovery_high: 7200, day_summary: null }, "u", "t");
    expect(stress.ok && stress.row.day_summary).toBeNull();
    const res = mapDocument(
      "daily_resilience",
      { id: "re", day: "2024-11-11", level: "adequate", contributors: { sleep_recovery: 46.2, daytime_recovery: 49.3, stress: 34.5 } },
      "u",
      "t",
    );
    expect(res.ok && res.row.sleep_recovery).toBe(46.2);
    const period = mapDocument(
      "sleep",
      {
        id: "p",
        day: "2023-01-17",
        bedtime_start: "2023-01-16T21:41:00-05:00",
        bedtime_end: "2023-01-17T06:00:00-05:00",
        low_battery_alert: false,
        period: 0,
        time_in_bed: 28933,
        type: "long_sleep",
        heart_rate: null,
      },
      "u",
      "t",
    );
    expect(period.ok && period.row).toMatchObject({ type: "long_sleep", low_battery_alert: 0, time_in_bed: 28933, average_hrv: null });
  });

  it("says why a document is rejected, without throwing and without values", () => {
    const bad = { ...activity, steps: "many", contributors: undefined, day: "11/11/2024" };
    const r = mapDocument("daily_activity", bad, "u1", "t");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/steps/);
    expect(r.error).toMatch(/contributors/);
    expect(r.error).toMatch(/day/);
    expect(r.error).not.toContain("many");
    expect(r.documentId).toBe("a-1");
    expect(mapDocument("sleep", null, "u", "t").ok).toBe(false);
    expect(mapDocument("sleep", [1, 2], "u", "t").ok).toBe(false);
  });

  it("keeps a document whose closed-list value is new: the column is unknown (null), the raw JSON keeps the value, the value is reported", () => {
    const stress = mapDocument("daily_stress", { id: "st", day: "2024-11-11", stress_high: 1800, recovery_high: 7200, day_summary: "frantic" }, "u", "t");
    expect(stress.ok).toBe(true);
    if (!stress.ok) return;
    expect(stress.row).toMatchObject({ day_summary: null, stress_high: 1800, recovery_high: 7200 });
    expect(JSON.parse(stress.row.raw).day_summary).toBe("frantic");
    expect(stress.unknown).toEqual([{ field: "day_summary", value: "frantic" }]);
    const res = mapDocument(
      "daily_resilience",
      { id: "re", day: "2024-11-11", level: "legendary", contributors: { sleep_recovery: 1, daytime_recovery: 2, stress: 3 } },
      "u",
      "t",
    );
    expect(res.ok && res.row.level).toBeNull();
    expect(res.ok && res.unknown).toEqual([{ field: "level", value: "legendary" }]);
    const noLevel = mapDocument(
      "daily_resilience",
      { id: "re2", day: "2024-11-12", contributors: { sleep_recovery: 1, daytime_recovery: 2, stress: 3 } },
      "u",
      "t",
    );
    expect(noLevel.ok && noLevel.row.level).toBeNull();
    const nap = {
      id: "p2",
      day: "2023-01-17",
      bedtime_start: "2023-01-17T13:00:00-05:00",
      bedtime_end: "2023-01-17T13:40:00-05:00",
      low_battery_alert: false,
      period: 1,
      time_in_bed: 2400,
    };
    const period = mapDocument("sleep", { ...nap, type: "micro_nap" }, "u", "t");
    expect(period.ok && period.row).toMatchObject({ type: null, time_in_bed: 2400 });
    expect(period.ok && period.unknown).toEqual([{ field: "type", value: "micro_nap" }]);
    // known values are stored and nothing is reported
    const known = mapDocument("sleep", { ...nap, type: "late_nap" }, "u", "t");
    expect(known.ok && known.row.type).toBe("late_nap");
    expect(known.ok && known.unknown).toBeUndefined();
    // a value of the wrong type is still a broken document
    expect(mapDocument("sleep", { ...nap, type: 7 }, "u", "t").ok).toBe(false);
  });

  it("has a column in the database for every mapped field", () => {
    for (const c of RING_COLLECTIONS) {
      const cols = (rawDb().prepare(`PRAGMA table_info("${RING_TABLES[c].table}")`).all() as Array<{ name: string }>).map((r) => r.name);
      for (const { name: col } of columnsOf(c)) expect(cols, `${c}.${col}`).toContain(col);
    }
  });
});

describe("the ring's other documents", () => {
  it("stores a workout's duration from its span, and its closed lists", () => {
    const r = mapDocument(
      "workout",
      {
        id: "w-1",
        activity: "cycling",
        calories: 132.9,
        day: "2026-03-13",
        distance: null,
        end_datetime: "2026-03-13T07:59:55+01:00",
        intensity: "moderate",
        label: null,
        source: "confirmed",
        start_datetime: "2026-03-13T07:25:07+01:00",
      },
      "u1",
      "t",
    );
    expect(r.ok && r.row).toMatchObject({
      day: "2026-03-13",
      activity: "cycling",
      duration: 2088,
      intensity: "moderate",
      source: "confirmed",
      calories: 132.9,
      distance: null,
    });
    // across an offset change the span is still the instants' difference
    const across = mapDocument(
      "session",
      { id: "s-1", day: "2026-03-29", start_datetime: "2026-03-29T01:50:00+01:00", end_datetime: "2026-03-29T03:10:00+02:00", type: "rest" },
      "u1",
      "t",
    );
    expect(across.ok && across.row.duration).toBe(1200);
  });

  it("takes a tag's day from start_day, and stores the ring of no day with none", () => {
    const tag = mapDocument(
      "enhanced_tag",
      {
        id: "e-1",
        tag_type_code: "tag_generic_alcohol",
        start_time: "2026-03-10T21:16:08+00:00",
        end_time: null,
        start_day: "2026-03-10",
        end_day: null,
        comment: "",
        custom_name: null,
      },
      "u1",
      "t",
    );
    expect(tag.ok && tag.row).toMatchObject({ day: "2026-03-10", documentId: "e-1", tag_type_code: "tag_generic_alcohol", comment: "" });
    const ring = mapDocument(
      "ring_configuration",
      { id: "r-1", color: "silver", design: "horizon", firmware_version: "2.14.30", hardware_type: "gen3", set_up_at: "1970-01-01T00:00:00+00:00", size: 10 },
      "u1",
      "t",
    );
    expect(ring.ok && ring.row).toMatchObject({ day: null, documentId: "r-1", firmware_version: "2.14.30", hardware_type: "gen3", size: 10 });
    expect(ring.ok && documentKey("ring_configuration", ring.row)).toBe("r-1");
    // a rejected tag names its start_day as its day (the Sync page lists it there)
    const bad = mapDocument("enhanced_tag", { id: "e-2", start_day: "2026-03-11" }, "u1", "t");
    expect(bad).toMatchObject({ ok: false, day: "2026-03-11", documentId: "e-2" });
  });

  it("reads the bedtime window's offsets out of optimal_bedtime (null when there is none)", () => {
    const found = mapDocument(
      "sleep_time",
      {
        id: "b-1",
        day: "2026-03-15",
        optimal_bedtime: { day_tz: 3600, start_offset: -5400, end_offset: -1800 },
        recommendation: "follow_optimal_bedtime",
        status: "optimal_found",
      },
      "u1",
      "t",
    );
    expect(found.ok && found.row).toMatchObject({ start_offset: -5400, end_offset: -1800, day_tz: 3600, status: "optimal_found" });
    const none = mapDocument(
      "sleep_time",
      { id: "b-2", day: "2026-03-16", optimal_bedtime: null, recommendation: "earlier_bedtime", status: "only_recommended_found" },
      "u1",
      "t",
    );
    expect(none.ok && none.row).toMatchObject({ start_offset: null, end_offset: null, recommendation: "earlier_bedtime" });
  });
});

describe("mapSamples", () => {
  it("turns rows into samples: the instant (any offset, milliseconds), the fields in the registry's order", () => {
    const r = mapSamples("heartrate", [
      { bpm: 68, source: "sleep", timestamp: "2026-03-14T00:00:14+00:00", timestamp_unix: 1773446414000 },
      { bpm: 91, source: "awake", timestamp: "2024-12-13T12:31:21+00:00" },
      { bpm: 70, source: "awake", timestamp: "2026-03-14T01:00:00.000Z", producer_timestamp: 1 },
      { bpm: 72, source: "rest", timestamp: "2026-03-14T02:00:00+01:00" },
    ]);
    expect(r.rejectedCount).toBe(0);
    expect(r.samples).toEqual([
      { t: 1773446414000, v: [68, "sleep"] },
      { t: Date.parse("2024-12-13T12:31:21Z"), v: [91, "awake"] },
      { t: Date.parse("2026-03-14T01:00:00Z"), v: [70, "awake"] },
      { t: Date.parse("2026-03-14T01:00:00Z"), v: [72, "rest"] },
    ]);
  });

  it("sets a bad row aside with why (paths, not values), and keeps a source it does not know as sent", () => {
    const r = mapSamples("heartrate", [
      { bpm: "fast", source: "awake", timestamp: "2026-03-14T00:00:00+00:00" },
      { bpm: 60, source: "awake", timestamp: "yesterday" },
      { bpm: 99_999, source: "awake", timestamp: "2026-03-14T00:00:00+00:00" },
      { bpm: 60, source: "telepathy", timestamp: "2026-03-14T00:05:00+00:00" },
      { bpm: 61, source: "telepathy", timestamp: "2026-03-14T00:10:00+00:00" },
      "not a row",
    ]);
    expect(r.samples).toEqual([
      { t: Date.parse("2026-03-14T00:05:00Z"), v: [60, "telepathy"] },
      { t: Date.parse("2026-03-14T00:10:00Z"), v: [61, "telepathy"] },
    ]);
    expect(r.unknown).toEqual([{ field: "source", value: "telepathy" }]);
    expect(r.rejectedCount).toBe(4);
    expect(r.rejected.map((x) => x.error)).toEqual([
      expect.stringContaining("bpm"),
      "timestamp: not a date-time",
      expect.stringContaining("bpm"),
      expect.stringContaining("(document)"),
    ]);
    expect(r.rejected[0]).toMatchObject({ day: "2026-03-14" });
  });

  it("reads the battery's flags, absent ones as none", () => {
    const r = mapSamples("ring_battery_level", [
      { charging: false, in_charger: false, level: 23, timestamp: "2026-03-14T00:03:49+00:00", timestamp_unix: 1773446629000 },
      { level: 24, timestamp: "2026-03-14T00:30:00+00:00" },
    ]);
    expect(r.samples.map((s) => s.v)).toEqual([
      [23, false, false],
      [24, null, null],
    ]);
  });
});

describe("instantOf", () => {
  it("reads ISO date-times with Z, offsets and fractions like Date.parse, and refuses what is none", () => {
    for (const iso of [
      "2026-03-14T00:00:14+00:00",
      "2026-03-14T00:00:14Z",
      "2026-03-14T00:00:14.5+02:00",
      "2026-03-14T23:59:59.999-05:30",
      "2026-03-14T00:00:14.123456Z",
    ]) {
      expect(instantOf(iso), iso).toBe(Date.parse(iso.replace(/(\.\d{3})\d+/, "$1")));
    }
    expect(instantOf("2026-13-14T00:00:00Z")).toBeNaN();
    expect(instantOf("soon")).toBeNaN();
  });
});
