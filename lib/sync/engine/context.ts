import "server-only";
import type { Clock } from "@/lib/clock";
import type { RingClient } from "@/lib/ring/client";
import { isSeriesCollection, type SyncCollection } from "@/lib/resources";
import { documentSummary, type CollectionSummary } from "@/lib/db/ingest/documents";
import { seriesSummaryOf } from "@/lib/db/ingest/series";
import type { Work } from "@/lib/db/ingest/driver";
import { collectionSummary } from "@/lib/db/queries/ring-documents";
import { seriesSummary } from "@/lib/db/queries/time-series";
import type { SyncRun } from "./runs";

// What the parts of the engine share: its settings, counters and progress, the clock, and the
// person's ring client.

export type SyncStats = {
  requests: number;
  pages: number;
  documents: number;
  /** time-series samples stored (heart rate, battery) */
  samples: number;
  rejected: number;
  /** time spent validating, mapping and writing (ms) */
  ingestMs: number;
  /** of which validating and mapping (ms) */
  mapMs: number;
};

export type CollectionOutcome = {
  collection: SyncCollection;
  result: "done" | "skipped" | "failed";
  reason?: string;
  error?: unknown;
  documents?: number;
  deleted?: number;
  /** newest first: the recent days are stored, the history behind them is still to fetch (a backfill run again does it) */
  more?: boolean;
};

export type EngineHooks = {
  /** runs inside each page's transaction before it commits: throw to simulate a crash */
  beforeCommit?: (info: { userId: string; collection: SyncCollection; page: number }) => void;
  /** runs after each committed page */
  afterPage?: (info: { userId: string; collection: SyncCollection; page: number; documents: number }) => void | Promise<void>;
};

export type BackfillProgress = {
  startedAt: number;
  pages: number;
  documents: number;
  firstDay: string | null;
  cursorDay: string | null;
  /** this engine's own work on the backfill, both passes (the "backfill finished" log line) */
  work: { pages: number; stored: number; ingestMs: number; mapMs: number };
};

export type RingAccess = { client: RingClient; scopes: string[]; ringUserId: string };

export type EngineContext = {
  readonly clock: Clock;
  readonly stats: SyncStats;
  readonly progress: Map<string, BackfillProgress>;
  readonly hooks: EngineHooks;
  readonly backfillStart: string;
  readonly trailingDays: number;
  readonly maxWindowDays: number | undefined;
  now(): Date;
  /** The person's ring client for a run (its requests stop when the run does; throws RingAccountPausedError when the account is not active). */
  accessFor(run: SyncRun): Promise<RingAccess>;
};

export type Totals = { documentsTotal: number; newestDay: string | null };

/** What a collection holds for a person: documents (or samples), the oldest and the newest day. */
export function storedSummary(userId: string, collection: SyncCollection): Promise<CollectionSummary> {
  return isSeriesCollection(collection) ? seriesSummary(collection, userId) : collectionSummary(collection, userId);
}

/** The totals the SyncState shows: documents (or samples) stored and the newest day. */
export async function summarize(userId: string, collection: SyncCollection): Promise<Totals> {
  const s = await storedSummary(userId, collection);
  return { documentsTotal: s.documents, newestDay: s.newestDay };
}

/** `summarize` as a step of a page's transaction (a finished backfill's checkpoint). */
export function* summarizeInPage(userId: string, collection: SyncCollection): Work<Totals> {
  const s = isSeriesCollection(collection) ? yield* seriesSummaryOf(collection, userId) : yield* documentSummary(collection, userId);
  return { documentsTotal: s.documents, newestDay: s.newestDay };
}
