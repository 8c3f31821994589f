// Test support, never imported by the app: a person's history as Ringside's own export
// ("ringside-export-v1", what POST /api/import takes), planted night by night so a test knows
// every value. A steady life (small, fixed wobbles), then an episode of nights with the
// markers moved as illness moves them. Used by the signals' integration test and Playwright.
import { addDays, dayRange } from "@/lib/days";

export type PlantedHistoryOptions = {
  /** the first and the last day of the history (the episode ends on `to`) */
  from: string;
  to: string;
  /** nights of the episode, ending on `to` (0: none) */
  episodeNights: number;
  /** the person's UTC offset as the ring writes it ("+01:00", "+14:00", "-11:00") */
  offset?: string;
  /** the temperature deviation (°C) of these days, instead of the steady wobble */
  temperature?: Readonly<Record<string, number>>;
};

/** The episode's moves: three nights with +1.0 °C, +7 bpm, −30 % HRV, +2 breaths a minute. */
export const EPISODE = { temperature: 1.0, restingHeartRate: 7, hrvFactor: 0.7, breathing: 2 } as const;

/** A fixed wobble per day (never random: the same history every run). */
const WOBBLE = [0, 1, -1, 0.5, -0.5, 1, -1] as const;

type Doc = Record<string, unknown>;
export type PlantedHistory = { file: Doc; episode: string[]; steady: string[] };

function iso(day: string, clock: string, offset: string): string {
  return `${day}T${clock}:00${offset}`;
}

export function plantedHistory(opts: PlantedHistoryOptions): PlantedHistory {
  const offset = opts.offset ?? "+01:00";
  const days = dayRange(opts.from, opts.to);
  const episodeStart = addDays(opts.to, -(opts.episodeNights - 1));
  const c: Record<string, Doc[]> = { sleep: [], daily_sleep: [], daily_readiness: [], daily_activity: [], workout: [], vO2_max: [] };
  days.forEach((day, i) => {
    const w = WOBBLE[i % WOBBLE.length]!;
    const ill = opts.episodeNights > 0 && day >= episodeStart;
    const planted = opts.temperature?.[day];
    const usual = 0.05 * w + (ill ? EPISODE.temperature : 0);
    const sleepS = Math.round(7.25 * 3600 + w * 600);
    const inBed = sleepS + 1800;
    // in bed 23:00 the evening before (a little later on the wobble), asleep after 15 minutes
    const bedMin = 23 * 60 + Math.round(w * 10);
    const bed = `${String(Math.floor(bedMin / 60)).padStart(2, "0")}:${String(bedMin % 60).padStart(2, "0")}`;
    const start = iso(addDays(day, -1), bed, offset);
    const end = new Date(Date.parse(start) + inBed * 1000);
    const endLocal = new Date(end.getTime() + offsetMs(offset)).toISOString().slice(11, 16);
    c.sleep!.push({
      id: `planted-sleep-${day}`,
      day,
      type: "long_sleep",
      bedtime_start: start,
      bedtime_end: iso(day, endLocal, offset),
      low_battery_alert: false,
      period: 0,
      time_in_bed: inBed,
      total_sleep_duration: sleepS,
      awake_time: 1800,
      latency: 900,
      efficiency: Math.round((100 * sleepS) / inBed),
      deep_sleep_duration: Math.round(sleepS * 0.2),
      rem_sleep_duration: Math.round(sleepS * 0.22),
      light_sleep_duration: sleepS - Math.round(sleepS * 0.2) - Math.round(sleepS * 0.22),
      lowest_heart_rate: 52 + Math.round(w) + (ill ? EPISODE.restingHeartRate : 0),
      average_heart_rate: 58 + w + (ill ? EPISODE.restingHeartRate : 0),
      average_hrv: Math.round((60 + 2 * w) * (ill ? EPISODE.hrvFactor : 1)),
      average_breath: Math.round((14.5 + 0.1 * w + (ill ? EPISODE.breathing : 0)) * 10) / 10,
      restless_periods: 200,
      readiness: {
        score: 75 + Math.round(3 * w),
        temperature_deviation: planted ?? usual,
        temperature_trend_deviation: 0,
        contributors: {},
      },
    });
    if (i % 7 === 3) {
      // a nap on the afternoon of the day
      c.sleep!.push({
        id: `planted-nap-${day}`,
        day,
        type: "sleep",
        bedtime_start: iso(day, "14:00", offset),
        bedtime_end: iso(day, "14:40", offset),
        low_battery_alert: false,
        period: 1,
        time_in_bed: 2400,
        total_sleep_duration: 1800,
      });
    }
    c.daily_sleep!.push({
      id: `planted-daily-sleep-${day}`,
      day,
      timestamp: iso(day, "00:00", offset),
      score: 78 + Math.round(3 * w),
      contributors: { total_sleep: 80, efficiency: 85, restfulness: 75, rem_sleep: 80, deep_sleep: 85, latency: 90, timing: 85 },
    });
    c.daily_readiness!.push({
      id: `planted-readiness-${day}`,
      day,
      timestamp: iso(day, "00:00", offset),
      score: ill ? 55 : 75 + Math.round(3 * w),
      temperature_deviation: planted ?? Math.round(usual * 100) / 100,
      temperature_trend_deviation: 0,
      contributors: {
        previous_night: 80,
        sleep_balance: 80,
        previous_day_activity: 80,
        activity_balance: 80,
        body_temperature: ill ? 40 : 95,
        resting_heart_rate: ill ? 40 : 90,
        hrv_balance: ill ? 40 : 85,
        recovery_index: 80,
        sleep_regularity: 85,
      },
    });
    const medium = 150 + Math.round(20 * w);
    const high = 60 + Math.round(10 * w);
    c.daily_activity!.push({
      id: `planted-activity-${day}`,
      day,
      timestamp: iso(day, "04:00", offset),
      score: 80,
      active_calories: 450,
      average_met_minutes: 1.6,
      contributors: { meet_daily_targets: 80, move_every_hour: 90, recovery_time: 90, stay_active: 80, training_frequency: 80, training_volume: 80 },
      equivalent_walking_distance: 9000,
      high_activity_met_minutes: high,
      high_activity_time: 600,
      inactivity_alerts: 0,
      low_activity_met_minutes: 200,
      low_activity_time: 10000,
      medium_activity_met_minutes: medium,
      medium_activity_time: 2400,
      meters_to_target: 0,
      non_wear_time: 0,
      resting_time: 30000,
      sedentary_met_minutes: 20,
      sedentary_time: 30000,
      steps: 9000,
      target_calories: 450,
      target_meters: 9000,
      total_calories: 2400,
    });
    if (i % 3 === 0) {
      c.workout!.push({
        id: `planted-workout-${day}`,
        day,
        activity: "running",
        start_datetime: iso(day, "18:00", offset),
        end_datetime: iso(day, "18:45", offset),
        intensity: "moderate",
        source: "manual",
        calories: 450,
        distance: 7500,
        label: null,
      });
    }
    if (i % 7 === 0) c.vO2_max!.push({ id: `planted-vo2-${day}`, day, timestamp: iso(day, "12:00", offset), vo2_max: 44 + Math.floor(i / 28) });
  });
  const episode = opts.episodeNights > 0 ? dayRange(episodeStart, opts.to) : [];
  return {
    file: { format: "ringside-export-v1", from: opts.from, to: opts.to, exported_at: `${opts.to}T12:00:00Z`, notes: [], tags: [], collections: c },
    episode,
    steady: days.filter((d) => !episode.includes(d)),
  };
}

function offsetMs(offset: string): number {
  const sign = offset.startsWith("-") ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
}
