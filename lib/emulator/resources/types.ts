// The resources beyond the seven daily collections, personal_info and sleep, and their documents.

export const RESOURCE_COLLECTIONS = [
  "daily_cycle_phases",
  "enhanced_tag",
  "rest_mode_period",
  "ring_configuration",
  "session",
  "sleep_time",
  "tag",
  "vO2_max",
  "workout",
] as const;
export type ResourceCollection = (typeof RESOURCE_COLLECTIONS)[number];
/** The resources that belong to one day (ring_configuration belongs to none). */
export const DAY_RESOURCES = RESOURCE_COLLECTIONS.filter((c) => c !== "ring_configuration") as readonly DayResource[];
export type DayResource = Exclude<ResourceCollection, "ring_configuration">;
export const TIME_SERIES = ["heartrate", "ring_battery_level"] as const;
export type TimeSeries = (typeof TIME_SERIES)[number];

export type ResourceDocument = Record<string, unknown> & { id: string };
