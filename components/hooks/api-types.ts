// Response shapes of the dashboard API, for the hooks and pages (types only).
import type { MetricSeries } from "@/lib/metrics/series";
import type { TodaySummary } from "@/lib/metrics/today";
import type { CalendarStatus } from "@/lib/metrics/calendar";
import type { DayDetail } from "@/lib/metrics/day-detail";
import type { Correlation, GroupComparison } from "@/lib/metrics/stats";
import type { CollectionId, MetricId } from "@/lib/metrics/catalog";

export type CollectionRange = { collection: CollectionId; firstDay: string | null; lastDay: string | null; count: number };
export type MetricsOverview = { ranges: CollectionRange[]; firstDay: string | null; lastDay: string | null };
export type TodayResponse = TodaySummary & { ranges: CollectionRange[] };
export type SeriesResponse = MetricSeries;
export type CalendarResponse = {
  metric: string;
  from: string;
  to: string;
  thresholds: number[];
  days: Array<{ day: string; status: CalendarStatus; value: number | null; level: number | null }>;
};
export type TagRef = { id: number; name: string; color: string | null };
export type DayNote = { day: string; text: string; tags: TagRef[] };
export type DayResponse = DayDetail & { note: DayNote };
export type Strength = "negligible" | "weak" | "moderate" | "strong";
export type CorrelationResponse = {
  x: MetricId;
  y: MetricId;
  lag: 0 | 1;
  from: string;
  to: string;
  points: Array<{ day: string; x: number; y: number }>;
  correlation: (Correlation & { strength: Strength }) | null;
};
export type StrongestResponse = {
  from: string;
  to: string;
  minN: number;
  results: Array<Correlation & { x: MetricId; y: MetricId; lag: 0 | 1; strength: Strength }>;
};
export type NotesResponse = { from: string; to: string; days: DayNote[] };
export type Tag = TagRef & { days: number };
export type TagsResponse = { tags: Tag[] };
export type TagComparisonResponse = {
  tag: Tag;
  metric: string;
  lag: 0 | 1;
  from: string | null;
  to: string | null;
  comparison: GroupComparison | null;
};
export type Preferences = { units: "metric" | "imperial"; theme: "light" | "dark" | "system" };
/** GET /api/sync/status (the sync feature's route); read defensively. */
export type SyncCollectionStatus = {
  collection: string;
  status?: string;
  lastSuccessAt?: string | null;
  newestDay?: string | null;
  lastError?: string | null;
};
