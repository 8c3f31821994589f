// The V2 resources beyond the seven daily collections, personal_info and sleep: workouts,
// sessions, enhanced tags, the deprecated tags, VO2 max, bedtime guidance (sleep_time), rest-mode
// periods and the ring's configuration. They are derived from a user's generated documents of
// lib/emulator/generator and never change them (tests pick generated people and days by those documents).
//
// Everything here is a pure function of (seed, user, day, revision) and, for rest mode and the
// ring, of the user's "today": no clock, no Math.random. A resource's existence and shape come from
// revision 0 of its day (and of neighbouring days), its values from the day's current revision, so
// `sync` of a day with data keeps the same set of ids and only edits values (update events), like
// the existing collections. Heart rate and the ring battery are time series: ../timeseries.ts.
//
// Conventions (OpenAPI 1.37 schemas, ring-api-facts §3.10 and its Addendum of 2026-11-23):
// - workouts lie on the day's high-activity blocks of daily_activity.class_5_min (runs of class
//   ≥ 3 holding ≥ 5 blocks of class ≥ 4, at least 60 % of the run), calories from that day's
//   minute METs; now and then a long walk (≥ 50 min of class ≥ 3) is an autodetected walk;
// - sessions lie on inactive blocks (class 2), with 5-second heart-rate, HRV and motion samples;
// - enhanced tags: realistic tag_type_codes with habits per person, some custom names; alcohol
//   is tagged more often before a night of lower HRV, late meals before a higher night heart rate,
//   sickness on fever days — so tagged-versus-untagged comparisons find something;
// - tag (deprecated) mirrors some enhanced tags in the old note shape, one note per day;
// - vO2_max about weekly, from resting heart rate (Uth et al.: 15.3 × HRmax / HRrest, scaled);
// - sleep_time for most days with data: status from the recent nights, optimal_bedtime only when
//   status is optimal_found (often null, as observed);
// - rest_mode_period on low-activity days (steps well below the person's 28-day median, more
//   readily with a fever), plus zero-length toggles (start_time == end_time, as observed);
// - ring_configuration: one ring, replaced once on a fixed day per person (the old one's
//   set_up_at may be 1970-01-01T00:00:00+00:00, as observed); firmware as of "today";
// - daily_cycle_phases: every day of a woman's cycles (the generator's cycleAt), phase and cycle
//   day consistent with her temperature; not in the published OpenAPI document.
//
// One file per family: workouts.ts, sessions.ts, tags.ts (enhanced and deprecated), vo2-max.ts,
// sleep-time.ts, rest-mode.ts, ring.ts, cycle-phases.ts; habits.ts draws a person's habits, read.ts reads the
// generated documents, source.ts is one user's view of them.
import { dayToIndex } from "@/lib/days";
import type { GenerateOptions } from "../generator/types";
import { cyclePhases } from "./cycle-phases";
import { restModes } from "./rest-mode";
import { sessions } from "./sessions";
import { sleepTime } from "./sleep-time";
import { ResourceSource } from "./source";
import { enhancedTags, oldTags } from "./tags";
import type { DayResource, ResourceDocument } from "./types";
import { vo2Max } from "./vo2-max";
import { workouts } from "./workouts";

export type { Habits } from "./habits";
export { workoutWindows } from "./read";
export { ringConfigurations, ringReplacementIndex } from "./ring";
export { ResourceSource } from "./source";
export { TAG_CODES } from "./tags";
export { DAY_RESOURCES, RESOURCE_COLLECTIONS, TIME_SERIES, type DayResource, type ResourceCollection, type ResourceDocument, type TimeSeries } from "./types";

/** The webhook data_type of a collection (vO2_max is `vo2_max` there; facts §6.1); null for daily_cycle_phases, which has none. */
export function webhookDataType(collection: string): string | null {
  if (collection === "daily_cycle_phases") return null;
  return collection === "vO2_max" ? "vo2_max" : collection;
}

/** The day a document belongs to (its `day`, or `start_day` for tags and rest mode); null for the ring. */
export function dayKeyOf(collection: string, doc: Record<string, unknown>): string | null {
  if (collection === "ring_configuration") return null;
  const v = collection === "enhanced_tag" || collection === "rest_mode_period" ? doc.start_day : doc.day;
  return typeof v === "string" ? v : null;
}

export type DayResources = Record<DayResource, ResourceDocument[]>;

/**
 * The resources of one day at a revision. `today` (a day index) decides whether a rest-mode
 * period that started on this day is still ongoing.
 */
export function generateDayResources(src: ResourceSource, idx: number, revision: number, today: number): DayResources {
  const current = src.at(idx, revision);
  const enhanced = enhancedTags(src, idx);
  return {
    daily_cycle_phases: cyclePhases(src, idx, today),
    enhanced_tag: enhanced,
    rest_mode_period: restModes(src, idx, current, today),
    session: sessions(src, idx, current),
    sleep_time: sleepTime(src, idx, current),
    tag: oldTags(src, idx, enhanced),
    vO2_max: vo2Max(src, idx, current),
    workout: workouts(src, idx, current),
  };
}

/** The resources of one day, for callers that do not keep a source (tests, pickers). */
export function resourcesOfDay(opts: GenerateOptions, day: string, revision = 0, today = day): DayResources {
  return generateDayResources(new ResourceSource(opts), dayToIndex(day), revision, dayToIndex(today));
}
