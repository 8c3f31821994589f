// The dashboard API's contract, shared by the route handlers (which answer with these shapes:
// `json<T>()` below) and the client hooks (which ask for them), with the React Query keys of
// each. Types and key builders only — no server code — so it is the one module under lib/api
// that the browser imports. A shape changes here or nowhere.
import type { CollectionRange } from "@/lib/db/queries/ring-data";
import type { DayNoteEntry, TagSummary } from "@/lib/db/queries/notes";
import type { DataKind } from "@/lib/auth/api-scopes";
import type { MetricDef, MetricId } from "@/lib/metrics/catalog";
import type { DayDetail } from "@/lib/metrics/day-detail";
import type { MissingReason } from "@/lib/metrics/missing-night";
import type { MetricSeries } from "@/lib/metrics/series";
import type { SeriesColumns } from "@/lib/metrics/columns";
import type { Preferences } from "@/lib/schemas/requests";
import type {
  CalendarResponse,
  CorrelationColumns,
  CorrelationResponse,
  DayTable,
  MetricsOverview,
  StrongestResponse,
  TodayResponse,
} from "@/lib/services/metrics";
import type { DeletedCounts } from "@/lib/services/people";
import type { SignalsResponse } from "@/lib/services/signals";
import type { SignalSettings } from "@/lib/schemas/requests";
import type { DayRecords, WorkoutDetail, WorkoutsResponse as WorkoutsAnswer } from "@/lib/services/records";
import type { DayNoteWithRing, RingTagSummary, TagComparisonResponse } from "@/lib/services/tags";
import type { ApiTokenSummary } from "@/lib/services/api-tokens";
import type { ReportLinkSummary } from "@/lib/services/report-links";
import type { StateDocument } from "@/lib/services/state";
import type { ImportReport } from "@/lib/import/run";
import type { ImportStatus } from "@/lib/import/status";
import type { SyncStatusResponse, CollectionSyncStatus } from "@/lib/sync/status";

export type {
  CalendarResponse,
  CollectionRange,
  CorrelationColumns,
  CorrelationResponse,
  SeriesColumns,
  DayRecords,
  MetricsOverview,
  Preferences,
  SignalSettings,
  SignalsResponse,
  StrongestResponse,
  SyncStatusResponse,
  TodayResponse,
};

/**
 * A metric's chart series (GET /api/v1/metrics/:metric; what the dashboard's hooks hand the
 * charts). GET /api/metrics/:metric sends it as SeriesColumns (lib/metrics/columns.ts decodes).
 */
export type SeriesResponse = MetricSeries;
/** A tag as it appears on a day: the person's own (a numeric id) or the ring app's ("ring:…"). */
export type TagRef = DayNoteEntry["tags"][number] | DayNoteWithRing["ringTags"][number];
/** GET/PUT /api/notes/:day: the person's note and tags, and the ring app's tags of the day (`ringTags`, read-only) */
export type DayNote = DayNoteWithRing;
/** A tag of the ring's app (read-only; id "ring:<code>"). */
export type RingTag = RingTagSummary;
/** GET /api/days/:day */
export type DayResponse = DayDetail & { note: DayNote; records: DayRecords; missing_reason: MissingReason | null };
/** GET /api/workouts */
export type WorkoutsResponse = WorkoutsAnswer;
/** GET /api/workouts/:id */
export type WorkoutResponse = WorkoutDetail;
/** GET /api/notes?from&to */
export type NotesResponse = { from: string; to: string; days: DayNote[] };
/** POST /api/tags, PATCH /api/tags/:id */
export type Tag = TagSummary;
/** GET /api/tags: the person's own tags, and the ring app's */
export type TagsResponse = { tags: Tag[]; ringTags: RingTag[] };
/** GET /api/tags/:id/comparison */
export type { TagComparisonResponse };
/** One collection's freshness, as the dashboard's chips read GET /api/sync/status. */
export type SyncCollectionStatus = { collection: string } & Partial<
  Pick<CollectionSyncStatus, "status" | "lastSuccessAt" | "newestDay" | "oldestDay" | "backfillDone" | "lastError">
>;

/** POST /api/import (and ?dry_run=1, ?resume=1) */
export type ImportResponse = ImportReport;
/** GET /api/import: the person's import, for the progress bar */
export type ImportStatusResponse = ImportStatus;
/** DELETE /api/data */
export type DeleteDataResponse = { deleted: DeletedCounts };

/**
 * The public read API (/api/v1, bearer tokens only): the app's shapes above where it serves the
 * same thing, and these where a token's data kinds shape the answer.
 */
export type ApiKind = { kind: DataKind; label: string; granted: boolean };
/** One metric of the catalog; `readable`: the token's kinds include the metric's kind. */
export type ApiMetric = Pick<MetricDef, "id" | "label" | "short" | "group" | "unit" | "kind" | "direction" | "decimals"> & {
  dataKind: DataKind;
  description: string | null;
  categories: Array<{ value: string; label: string }> | null;
  readable: boolean;
};
/** GET /api/v1/metrics: every metric, the kinds, and which days each readable collection covers */
export type ApiCatalogResponse = MetricsOverview & { kinds: ApiKind[]; metrics: ApiMetric[] };
/** GET /api/v1/days: one row per day with a value, one column per metric */
export type ApiDaysResponse = DayTable;
/** GET /api/v1/days/:day (the note is null for a token without the notes kind) */
export type ApiDayResponse = DayDetail & { note: DayNote | null; records: DayRecords; missing_reason: MissingReason | null };
/** GET /api/v1/sync/status: the freshness of each readable collection */
export type ApiSyncStatusResponse = Pick<SyncStatusResponse, "running" | "lastSuccessAt" | "rateLimitedUntil"> & {
  account: { status: string } | null;
  collections: Array<
    Pick<
      CollectionSyncStatus,
      "collection" | "label" | "status" | "unit" | "documents" | "backfillDone" | "progress" | "lastSuccessAt" | "newestDay" | "oldestDay"
    >
  >;
};

/** GET /api/v1/state: the person's state in one small document (home automation) */
export type ApiStateResponse = StateDocument;

/** Settings → API: one of the person's tokens (never the token itself). */
export type { ApiTokenSummary };
/** Settings → API's "Create token": the token, shown once. */
export type CreateApiTokenState = { token?: string; name?: string; error?: { code: string; message: string }; at?: number };

/** Settings → Report links: one of the person's share links (never its secret). */
export type { ReportLinkSummary };
/** The report page's "Create share link": the link, shown once (only its hash is kept). */
export type CreateReportLinkState = { link?: string; label?: string | null; expiresAt?: string; error?: { code: string; message: string }; at?: number };

/** A server action bound to a form (it answers refusals as the error envelope, lib/api/action.ts). */
export type FormAction = (formData: FormData) => Promise<void>;
/** Settings → Household's "Create invite link" (useActionState). */
export type CreateInviteState = { link?: string; expiresAt?: string; error?: { code: string; message: string } };
/** A form of Settings → Alerts: a message, or the error envelope's `error`; `at` tells one outcome from the next; `secret` a new webhook's. */
export type AlertFormState = { ok?: boolean; message?: string; error?: { code: string; message: string }; secret?: string; at?: number };
/** A server action of Settings → Alerts run from a form (useActionState). */
export type AlertFormAction = (prev: AlertFormState, form: FormData) => Promise<AlertFormState>;

/** A route handler's JSON answer, checked against its contract type. */
export function json<T>(body: T, init?: ResponseInit): Response {
  return Response.json(body, init);
}

/**
 * The React Query keys: arrays that start with the resource's name, so invalidating a prefix
 * (`queryKeys.notes.all`) reaches every range of it.
 */
export const queryKeys = {
  metricsOverview: ["metrics-overview"] as const,
  metricSeries: (metric: MetricId, from: string, to: string) => ["metric-series", { metric, from, to }] as const,
  calendar: (metric: MetricId, from: string | null, to: string | null) => ["calendar", { metric, from, to }] as const,
  correlation: (x: MetricId, y: MetricId, lag: 0 | 1, from: string | null, to: string | null) => ["correlation", { x, y, lag, from, to }] as const,
  strongest: (from: string | null, to: string | null) => ["correlations-strongest", { from, to }] as const,
  day: { all: ["day"] as const, one: (day: string) => ["day", day] as const },
  notes: { all: ["notes"] as const, range: (from: string, to: string) => ["notes", { from, to }] as const },
  tags: ["tags"] as const,
  tagComparison: {
    all: ["tag-comparison"] as const,
    one: (tagId: number | string | null, metric: MetricId, lag: 0 | 1) => ["tag-comparison", { tagId, metric, lag }] as const,
  },
  workouts: {
    all: ["workouts"] as const,
    list: (from: string | null, to: string | null, activity: string | null, intensity: string | null) =>
      ["workouts", { from, to, activity, intensity }] as const,
    one: (id: string) => ["workouts", "one", id] as const,
  },
  preferences: ["preferences"] as const,
  /** GET /api/signals?from&to (the same answer as GET /api/v1/signals) */
  signals: { all: ["signals"] as const, range: (from: string, to: string) => ["signals", { from, to }] as const },
  signalSettings: ["signal-settings"] as const,
  syncStatus: ["sync-status"] as const,
  importStatus: ["import-status"] as const,
};

// What the Settings and Sync pages hand their components (server data, typed once where it is made).
export type { AlertChannelView, AlertHistoryView, AlertRuleView, AlertsOverview } from "@/lib/services/alerts";
export type { SettingsPageData } from "@/lib/services/settings";
export type { PendingInvite } from "@/lib/db/queries/invites";
export type { HouseholdMember } from "@/lib/db/queries/users";
export type { CollectionSyncStatus };
