import { describe, expect, it } from "vitest";
import { documentKey, mapDocument, TYPED_COLUMNS } from "@/lib/sync/map";
import { RING_COLLECTIONS } from "@/lib/ring/schemas";
import { rawDb } from "@/lib/db/raw";
import { RING_TABLES } from "@/lib/db/queries/ring-documents";

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
    expect(r.row).toMatchObject({ userId: "u1", documentId: "a-1", day: "2024-11-11", steps: 15185, meters_to_target: -3500, meet_daily_targets: 60, training_volume: null });
    expect(JSON.parse(r.row.raw)).toEqual(activity);
  });

  it("accepts nulls, missing optional keys and unknown extra keys", () => {
    const sleep = { id: "s-1", day: "2024-11-12", timestamp: "2024-11-12T00:00:00+00:00", contributors: {}, brand_new_field: [1, 2, 3] };
    const r = mapDocument("daily_sleep", sleep, "u1", "t");
    expect(r.ok && r.row.score).toBeNull();
    const readiness = { id: "r-1", day: "2024-11-11", timestamp: "2024-11-11T00:00:00+00:00", score: null, contributors: { activity_balance: 94, hrv_balance: null } };
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
    const res = mapDocument("daily_resilience", { id: "re", day: "2024-11-11", level: "adequate", contributors: { sleep_recovery: 46.2, daytime_recovery: 49.3, stress: 34.5 } }, "u", "t");
    expect(res.ok && res.row.sleep_recovery).toBe(46.2);
    const period = mapDocument(
      "sleep",
      { id: "p", day: "2023-01-17", bedtime_start: "2023-01-16T21:41:00-05:00", bedtime_end: "2023-01-17T06:00:00-05:00", low_battery_alert: false, period: 0, time_in_bed: 28933, type: "long_sleep", heart_rate: null },
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
    const res = mapDocument("daily_resilience", { id: "re", day: "2024-11-11", level: "legendary", contributors: { sleep_recovery: 1, daytime_recovery: 2, stress: 3 } }, "u", "t");
    expect(res.ok && res.row.level).toBeNull();
    expect(res.ok && res.unknown).toEqual([{ field: "level", value: "legendary" }]);
    const noLevel = mapDocument("daily_resilience", { id: "re2", day: "2024-11-12", contributors: { sleep_recovery: 1, daytime_recovery: 2, stress: 3 } }, "u", "t");
    expect(noLevel.ok && noLevel.row.level).toBeNull();
    const nap = { id: "p2", day: "2023-01-17", bedtime_start: "2023-01-17T13:00:00-05:00", bedtime_end: "2023-01-17T13:40:00-05:00", low_battery_alert: false, period: 1, time_in_bed: 2400 };
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
      for (const col of TYPED_COLUMNS[c]) expect(cols, `${c}.${col}`).toContain(col);
    }
  });
});
