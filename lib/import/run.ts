import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import { AppError } from "@/lib/http/errors";
import { clock as systemClock, type Clock } from "@/lib/clock";
import { dbTime } from "@/lib/db/ingest/driver";
import { claimImportLease, IMPORT_LEASE_MS, readImportState, releaseImportLease, saveImportState, type ImportState } from "@/lib/db/queries/imports";
import { logger } from "@/lib/log";
import { checkRingsideFile, IMPORT_LIMITS, readRingsideFile, SERIES_IMPORT_LIMITS, type RingsideChecked } from "@/lib/import/ringside";
import { ImportRefusal } from "@/lib/import/refusal";
import { arriving, IMPORT_UPLOAD_DEADLINE_MS, type SpoolOptions } from "@/lib/import/spool";
import { spoolUpload, type ImportUpload, type Source } from "@/lib/import/upload";
import { importSpoolDir, removeSpool } from "@/lib/import/spool-dir";
import { entryKey, readVendorFiles, type CheckedFile, type RowLimits, type VendorFile } from "@/lib/import/vendor";
import { ImportWriter, type CollectionCounts, type NoteCounts } from "@/lib/import/writer";
import type { ZipLimits } from "@/lib/import/zip";
import { ImportBudget, ImportStopped, type UploadLimits } from "@/lib/import/budget";
import { inSlot, runGated, runTracked, type RunningImport } from "@/lib/import/gate";
import { findCycleSettings } from "@/lib/db/queries/cycle";

export type { ImportUpload };

// One import, whatever was uploaded — Ringside's own export (JSON), the ring maker's account
// export (ZIP) or CSV files of it, a Trends CSV —, always the same way:
//  0. a few imports at a time per process, and their check and storing one at a time, in the
//     process's one slot, taken only once the upload is spooled (lib/import/gate.ts: more uploads
//     than it takes → 429 with Retry-After; a spooled upload waits its turn), within one CPU
//     budget bounded by the bytes received (lib/import/budget.ts: over it → 413, nothing
//     stored), stopping when its client goes away or it loses its lease;
//  1. one at a time per person (a lease, renewed as the work goes; a second import meanwhile → 409);
//  2. the upload is spooled to a private folder, keeping a free-disk margin (507), within its
//     deadline (IMPORT_UPLOAD_DEADLINE_MS: a slower upload → 408) and stopping at once when its
//     connection closes;
//  3. a check reads every row of every file and refuses the whole upload on the first bad one
//     (naming file and row): nothing is stored before everything passed. A dry run stops here
//     with what storing would do, per collection. A dry run has no other effect: it takes no
//     lease, writes no row (its progress is kept in memory, lib/import/gate.ts), leaves an
//     interrupted import alone and removes its own spool;
//  4. the rows are stored in chunks, each followed by a checkpoint (the rows stored so far). A
//     failure part-way (the database going away) leaves the import "interrupted" with its spool:
//     it resumes after the checkpoint (POST /api/import?resume=1) or is discarded. Every write
//     is idempotent, so nothing is stored twice either way.

export type ImportKind = NonNullable<ImportState["kind"]>;

export type ImportFileReport = {
  name: string;
  role: "collection" | "trends" | "unmapped";
  collection: string | null;
  rows: number | null;
  /** bytes (unpacked), when known */
  size: number | null;
  unknownColumns: string[];
};

export type ImportReport = {
  dryRun: boolean;
  kind: ImportKind;
  /** per collection: rows, and what storing them did (or would do) */
  collections: Record<string, CollectionCounts>;
  files: ImportFileReport[];
  /** files Ringside does not map, by name, with their size (never parsed) */
  unmapped: Array<{ name: string; size: number | null }>;
  /** a Ringside export's notes (null for the ring maker's files) */
  notes: NoteCounts | null;
  /** new tags */
  tags: number;
  /** a Ringside export's new period entries (0 for the ring maker's files) */
  cycleEntries: number;
  /** documents (samples for a time series) stored or unchanged, per collection */
  documents: Record<string, number>;
  rejected: number;
  /** collections of a Ringside export that this Ringside does not keep */
  ignoredCollections: string[];
};

export type RunOptions = {
  dryRun?: boolean;
  replaceNotes?: boolean;
  clock?: Clock;
  /** where uploads are spooled (default: the data directory) */
  spoolRoot?: string;
  spool?: SpoolOptions;
  zipLimits?: ZipLimits;
  rowLimits?: RowLimits;
  /** tests: runs after each stored chunk (throw to simulate a failure part-way) */
  afterChunk?: (items: number) => void | Promise<void>;
  /** the client went away (the request's signal): the import stops */
  signal?: AbortSignal;
  /** CPU-seconds the import may use (default: from the bytes received) */
  cpuSeconds?: number;
  /** aborts when the upload has taken too long to arrive (default: IMPORT_UPLOAD_DEADLINE_MS from the start; tests abort it themselves) */
  uploadDeadline?: AbortSignal;
  uploadLimits?: UploadLimits;
};

export const ROW_LIMITS: RowLimits = {
  maxRowsPerFile: IMPORT_LIMITS.maxItemsPerCollection,
  maxSeriesRows: Object.fromEntries(Object.entries(SERIES_IMPORT_LIMITS).map(([c, l]) => [c, l.maxItems])),
};

function kindOf(sources: readonly Source[]): ImportKind {
  if (sources.some((s) => s.kind === "json")) {
    if (sources.length > 1) throw new ImportRefusal("A Ringside export is imported on its own: upload it without other files.");
    return "ringside";
  }
  return sources.some((s) => s.kind === "zip") ? "account_export" : "csv";
}

function report(
  kind: ImportKind,
  dryRun: boolean,
  writer: ImportWriter,
  files: CheckedFile[],
  extra: { notes: NoteCounts | null; tags: number; cycleEntries?: number; ignoredCollections: string[] },
): ImportReport {
  const documents: Record<string, number> = {};
  let rejected = 0;
  for (const [c, n] of Object.entries(writer.counts)) {
    documents[c] = n.new + n.changed + n.unchanged;
    rejected += n.rejected;
  }
  const fileReports: ImportFileReport[] = files.map((f) => ({
    name: f.name,
    role: f.role.kind,
    collection: f.role.kind === "collection" ? f.role.collection : f.role.kind === "trends" ? "trends" : null,
    rows: f.rows,
    size: f.size,
    unknownColumns: f.unknownColumns,
  }));
  return {
    dryRun,
    kind,
    collections: writer.counts,
    files: fileReports,
    unmapped: fileReports.filter((f) => f.role === "unmapped").map((f) => ({ name: f.name, size: f.size })),
    notes: extra.notes,
    tags: extra.tags,
    cycleEntries: extra.cycleEntries ?? 0,
    documents,
    rejected,
    ignoredCollections: extra.ignoredCollections,
  };
}

class ImportRun {
  readonly clock: Clock;
  constructor(
    readonly userId: string,
    public state: ImportState,
    readonly opts: RunOptions,
    readonly budget: ImportBudget,
    /** a dry run's progress goes here, not to the database */
    private readonly dryProgress: ((state: ImportState) => void) | null,
  ) {
    this.clock = opts.clock ?? systemClock;
  }

  /** the archive entries the check found mapped (unknown after a restart: every CSV is opened) */
  private mapped: ReadonlySet<string> | undefined;
  private savedAt = Number.NEGATIVE_INFINITY;
  private leasedAt = Number.NEGATIVE_INFINITY;

  /**
   * Records progress and renews the lease: at once for a change of phase or status, else at most
   * once a second (the progress bar polls each second; a checkpoint recorded a little late only
   * means rows stored again on resume, which changes nothing).
   */
  async progress(patch: Partial<ImportState>): Promise<void> {
    this.state = { ...this.state, ...patch };
    const routine = patch.status === undefined && patch.totalRows === undefined && patch.sources === undefined;
    // (a change of phase is recorded whatever the budget: the work it ends is done)
    if (routine) await this.budget.tick();
    if (this.dryProgress) return this.dryProgress(this.state);
    const now = this.clock.now();
    if (routine && now - this.savedAt < 1_000) return;
    this.savedAt = now;
    await saveImportState(this.userId, this.state);
    if (now - this.leasedAt >= 10_000 || !routine) {
      this.leasedAt = now;
      const held = await claimImportLease(this.userId, this.state.id, now);
      if (!held && patch.status !== "done") throw new ImportStopped("lease_lost");
    }
  }

  /**
   * Whether the import keeps the ring's cycle phases: only for a person who tracks their cycle
   * (a Ringside export's cycle settings, which the import stores, say so for them).
   */
  private async keepsCycle(ringside: RingsideChecked | null): Promise<boolean> {
    const fromFile = ringside?.cycle?.settings?.tracking;
    return fromFile ?? Boolean((await findCycleSettings(this.userId))?.tracking);
  }

  private readContext() {
    return {
      now: this.clock.now(),
      limits: this.opts.rowLimits ?? ROW_LIMITS,
      zipLimits: this.opts.zipLimits,
      budget: this.budget,
      progress: (file: string, rows: number) => this.progress({ file, rows }),
    };
  }

  private vendorFiles(): VendorFile[] {
    return this.state.sources.map((s) => ({ name: s.name, path: s.path, kind: s.kind === "zip" ? "zip" : "csv" }));
  }

  /** Step 3: every row checked (a Ringside export may have been checked as it arrived); a dry run compares with what is stored. */
  async check(ringside: RingsideChecked | null): Promise<ImportReport | { total: number }> {
    const kind = this.state.kind!;
    const dryRun = this.state.dryRun;
    const first = this.state.sources[0]!;
    const checkedFile = kind === "ringside" ? (ringside ?? (await checkRingsideFile(first.path, (rows) => this.progress({ file: first.name, rows })))) : null;
    const writer = new ImportWriter({
      userId: this.userId,
      dryRun: true,
      syncedAt: dbTime(new Date(this.clock.now())),
      replaceNotes: this.state.options.replaceNotes,
      keepCycle: await this.keepsCycle(checkedFile),
    });
    if (checkedFile) {
      if (!dryRun) return { total: checkedFile.items };
      const read = await readRingsideFile(this.userId, first.path, checkedFile, writer, { dryRun: true, progress: async () => undefined });
      return report(kind, true, writer, [], {
        notes: writer.notes,
        tags: read.tags,
        cycleEntries: read.cycleEntries,
        ignoredCollections: read.ignoredCollections,
      });
    }
    if (!dryRun) {
      const files = await readVendorFiles(this.vendorFiles(), this.readContext(), null);
      // storing opens only the files the check found Ringside maps
      this.mapped = new Set(files.filter((f) => f.role.kind !== "unmapped").map((f) => entryKey(f.source, f.entry)));
      return { total: files.reduce((n, f) => n + (f.role.kind === "unmapped" ? 0 : (f.rows ?? 0)), 0) };
    }
    const files = await readVendorFiles(this.vendorFiles(), this.readContext(), writer, "documents");
    // (the first pass read every file whole)
    const trends = await readVendorFiles(this.vendorFiles(), { ...this.readContext(), checkedBefore: true }, writer, "trends");
    await writer.flush();
    return report(kind, true, writer, inOrder(files, trends), { notes: null, tags: 0, ignoredCollections: [] });
  }

  /** Step 4: the rows stored, after the checkpoint of an earlier run. */
  async store(): Promise<ImportReport> {
    const kind = this.state.kind!;
    const skip = this.state.checkpoint;
    await this.progress({ status: "storing", rows: skip, phaseStartedAt: this.clock.now(), message: null });
    const checkedFile = kind === "ringside" ? await checkRingsideFile(this.state.sources[0]!.path, async () => undefined) : null;
    const writer = new ImportWriter({
      userId: this.userId,
      dryRun: false,
      syncedAt: dbTime(new Date(this.clock.now())),
      keepCycle: await this.keepsCycle(checkedFile),
      skip,
      replaceNotes: this.state.options.replaceNotes,
      afterChunk: async (items) => {
        // the checkpoint: every item before it is committed (writes are idempotent, so one stored again after a failure is harmless)
        await this.progress({ checkpoint: Math.max(items, skip), rows: Math.max(items, skip) });
        await this.opts.afterChunk?.(items);
      },
    });
    // the check read every file whole: storing unpacks only what it parses
    const ctx = { ...this.readContext(), checkedBefore: true, entries: this.mapped, progress: async (file: string) => this.progress({ file }) };
    if (checkedFile) {
      const file = this.state.sources[0]!;
      const read = await readRingsideFile(this.userId, file.path, checkedFile, writer, {
        dryRun: false,
        progress: async () => this.progress({ file: file.name }),
      });
      return report(kind, false, writer, [], {
        notes: writer.notes,
        tags: read.tags,
        cycleEntries: read.cycleEntries,
        ignoredCollections: read.ignoredCollections,
      });
    }
    const files = await readVendorFiles(this.vendorFiles(), ctx, writer, "documents");
    await writer.flush();
    const trends = await readVendorFiles(this.vendorFiles(), ctx, writer, "trends");
    await writer.flush();
    return report(kind, false, writer, inOrder(files, trends), { notes: null, tags: 0, ignoredCollections: [] });
  }
}

/** The files of both passes in upload order (and archive order within an upload). */
function inOrder(a: readonly CheckedFile[], b: readonly CheckedFile[]): CheckedFile[] {
  return [...a, ...b].sort((x, y) => x.source - y.source || (x.entry ?? 0) - (y.entry ?? 0));
}

function newState(id: string, now: number, opts: RunOptions): ImportState {
  return {
    id,
    status: "checking",
    dryRun: opts.dryRun ?? false,
    kind: null,
    file: null,
    rows: 0,
    totalRows: null,
    startedAt: now,
    phaseStartedAt: now,
    checkpoint: 0,
    spoolDir: null,
    sources: [],
    message: null,
    options: { replaceNotes: opts.replaceNotes ?? false },
  };
}

/** Stores the rows (step 4) and ends the import: done, or interrupted with its spool kept. */
async function storeAndFinish(run: ImportRun): Promise<ImportReport> {
  const { userId } = run;
  const spoolDir = run.state.spoolDir;
  try {
    const result = await run.store();
    await run.progress({ status: "done", file: null, rows: run.state.totalRows ?? run.state.rows, spoolDir: null, sources: [], result: summary(result) });
    if (spoolDir) await removeSpool(spoolDir);
    const mem = process.memoryUsage();
    logger.info(
      {
        userId,
        kind: result.kind,
        rows: run.state.totalRows,
        rejected: result.rejected,
        storeMs: Math.round(run.clock.now() - run.state.phaseStartedAt),
        cpuS: Math.round(run.budget.cpuSeconds * 100) / 100,
        rssMb: Math.round(mem.rss / 1048576),
        heapMb: Math.round(mem.heapUsed / 1048576),
        externalMb: Math.round(mem.external / 1048576),
      },
      "import stored",
    );
    return result;
  } catch (err) {
    if (err instanceof ImportStopped && err.reason === "lease_lost") {
      // another import took the lease over: its state and spool are its own now (kept here)
      run.state = { ...run.state, status: "interrupted" };
      throw err;
    }
    const at = run.state.file ? ` in ${run.state.file}` : "";
    const message =
      `The import stopped part-way${at}: ${run.state.checkpoint} of ${run.state.totalRows ?? "?"} rows are stored. ` +
      "Resume it (Settings → Your data → Import) to store the rest; nothing is stored twice.";
    // a refusal cannot happen here (the check passed), so this is the database or the disk: keep the spool to resume
    run.state = { ...run.state, status: "interrupted", message };
    await saveImportState(userId, run.state).catch(() => undefined);
    logger.warn({ userId, checkpoint: run.state.checkpoint, err: err instanceof Error ? err.message : String(err) }, "import interrupted");
    throw new AppError("service_unavailable", message);
  }
}

/** What the state keeps of a finished import's report (the page shows it after a reload). */
function summary(r: ImportReport) {
  return { kind: r.kind, documents: r.documents, rejected: r.rejected, unmapped: r.unmapped };
}

/**
 * Imports an upload for a person (steps 0–4 above). Throws AppError: 429 another import is
 * running in this process, 409 another import of theirs is running, 413/422/400 a refused
 * upload (nothing stored), 507 the disk is too full, 503 interrupted part-way (resumable);
 * ImportStopped when its client went away or it lost its lease.
 */
export function runImport(userId: string, upload: ImportUpload, opts: RunOptions = {}): Promise<ImportReport> {
  return runTracked(userId, opts.signal, (signal, self) =>
    importOnce(userId, upload, opts, signal, self, opts.dryRun ? (state) => (self.dryState = state) : null),
  );
}

async function importOnce(
  userId: string,
  upload: ImportUpload,
  opts: RunOptions,
  signal: AbortSignal,
  self: RunningImport,
  dryProgress: ((state: ImportState) => void) | null,
): Promise<ImportReport> {
  const clock = opts.clock ?? systemClock;
  const id = crypto.randomUUID();
  const dryRun = dryProgress !== null;
  if (!dryRun && !(await claimImportLease(userId, id, clock.now())))
    throw new AppError("conflict", "An import of yours is already running: wait for it to finish.");
  const budget = new ImportBudget(
    { signal, cpuSeconds: opts.cpuSeconds, renew: dryRun ? undefined : () => claimImportLease(userId, id, clock.now()) },
    opts.uploadLimits,
  );
  const run = new ImportRun(userId, newState(id, clock.now(), opts), opts, budget, dryProgress);
  let dir: string | null = null;
  let keepLease: ReturnType<typeof setInterval> | null = null;
  try {
    // a new import replaces one left interrupted (what that one stored stays); a dry run leaves it be
    const previous = dryRun ? null : await readImportState(userId);
    if (previous?.status === "interrupted" && previous.spoolDir) await removeSpool(previous.spoolDir);
    dir = importSpoolDir(id, opts.spoolRoot);
    await run.progress({ spoolDir: dir });
    const deadline = opts.uploadDeadline ?? AbortSignal.timeout(IMPORT_UPLOAD_DEADLINE_MS);
    const arrived = { ...upload, body: arriving(upload.body, signal, deadline) };
    // the lease is kept while the upload arrives and waits for the slot (the work renews it after)
    keepLease = dryRun ? null : setInterval(() => void claimImportLease(userId, id, clock.now()).catch(() => undefined), IMPORT_LEASE_MS / 4);
    keepLease?.unref();
    const { sources, ringside, bytes } = await spoolUpload(arrived, dir, opts.spool, (rows) => run.progress({ rows }));
    budget.received(bytes);
    // the upload is whole: the check and the storing wait for the process's one slot
    return await inSlot(self, async () => {
      if (keepLease) clearInterval(keepLease);
      // storing gets what the check leaves; a dry run's check is all its work
      budget.checkShare = dryRun ? 1 : CHECK_SHARE;
      await run.progress({ sources, kind: kindOf(sources) });
      const checkStarted = clock.now();
      const checked = await run.check(ringside);
      logger.info(
        {
          userId,
          kind: run.state.kind,
          dryRun: run.state.dryRun,
          checkMs: Math.round(clock.now() - checkStarted),
          spoolMs: Math.round(checkStarted - run.state.startedAt),
          cpuS: Math.round(budget.cpuSeconds * 100) / 100,
        },
        "import checked",
      );
      if ("dryRun" in checked) return checked;
      budget.checkShare = 1;
      await run.progress({ totalRows: checked.total });
      return await storeAndFinish(run);
    });
  } catch (err) {
    // a dry run records nothing; an import that lost its lease leaves the state to the one that took it
    const lost = err instanceof ImportStopped && err.reason === "lease_lost";
    if (!dryRun && !lost && run.state.status !== "interrupted") {
      const message = err instanceof AppError || err instanceof ImportStopped ? err.message : "The import failed.";
      await saveImportState(userId, { ...run.state, status: "failed", spoolDir: null, sources: [], message }).catch(() => undefined);
    }
    throw err;
  } finally {
    if (keepLease) clearInterval(keepLease);
    // an interrupted import keeps its spool to resume from
    if (dir && run.state.status !== "interrupted") await removeSpool(dir);
    if (!dryRun) await releaseImportLease(userId, id, clock.now()).catch(() => undefined);
  }
}

/** The share of the CPU budget the check may use before anything is stored (the rest is for storing). */
const CHECK_SHARE = 0.5;

/** Resumes an interrupted import after its checkpoint. 409 when there is none (or it is running). */
export async function resumeImport(userId: string, opts: RunOptions = {}): Promise<ImportReport> {
  const clock = opts.clock ?? systemClock;
  const state = await readImportState(userId);
  if (!state || !(state.status === "interrupted" || state.status === "storing") || !state.spoolDir || !fs.existsSync(state.spoolDir))
    throw new AppError("conflict", "There is no interrupted import to resume.");
  return runGated(userId, opts.signal, async (signal) => {
    if (!(await claimImportLease(userId, state.id, clock.now())))
      throw new AppError("conflict", "An import of yours is already running: wait for it to finish.");
    const runOpts = { ...opts, replaceNotes: state.options.replaceNotes };
    const budget = new ImportBudget({ signal, cpuSeconds: opts.cpuSeconds, renew: () => claimImportLease(userId, state.id, clock.now()) });
    budget.received(state.sources.reduce((n, s) => n + (fs.existsSync(s.path) ? fs.statSync(s.path).size : 0), 0));
    const run = new ImportRun(userId, state, runOpts, budget, null);
    try {
      return await storeAndFinish(run);
    } finally {
      await releaseImportLease(userId, state.id, clock.now()).catch(() => undefined);
    }
  });
}
