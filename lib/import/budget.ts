import "server-only";
import { backgroundCpuMicros, threadCpuMicros } from "@/lib/cpu-ledger";
import { ImportRefusal } from "@/lib/import/refusal";

// What one import may cost, whatever was uploaded: bounded by what was sent. Every archive of an
// upload draws on the same budget (entries, inflated bytes), and the work as a whole on one CPU
// budget: 6 CPU-seconds per MiB received, 45 in all, on the import's own thread, which keeps the
// whole process's cost of an upload (its reading and spooling, the thread pool's inflating — 5,000
// small ZIP entries cost 6.6 CPU-s in all while the thread counted 4.8 — and the garbage collector)
// under 10 per MiB and 60 in all (the bench's guard block measures that). The process's CPU is not
// counted instead: other work of the process would count against the import. The work is cooperative: it runs
// on the request's thread and calls `tick()` between pieces of work (a batch of rows, a chunk
// inflated); a tick measures the thread's CPU time, yields to the event loop now and then (so
// other requests are answered while a long import runs), stops the work when its client went
// away or its lease was lost, and renews the lease as the work goes. The thread's CPU time
// while the import yields is others' (on a busy server, the scheduler's syncs and housekeeping:
// counted, they could refuse a good 0.5 MB export whose own cost is a fifth of its budget), so a
// tick leaves it out; so is the sync engine's work that lands in the import's other waits (a
// stream's next chunk, a write): its mapping and commits, counted where they run
// (lib/cpu-ledger.ts), are left out too.

export const IMPORT_BUDGET = {
  /** CPU-seconds per MiB received */
  cpuSecondsPerMiB: 6,
  /** CPU-seconds for one import in all */
  maxCpuSeconds: 45,
  /**
   * CPU-seconds any upload gets, however small: the fixed costs of an import (its state and lease
   * written, the archive's directory, a few thousand rows stored, the code's first run) on a busy
   * machine: a 50 kB export took 0.31 CPU-s on a loaded 2-core box, so 0.25 refused good uploads.
   * An upload under 350 kB may so cost more than 6 per MiB, never more than this.
   */
  minCpuSeconds: 2,
  /** how long the work runs before it lets the event loop answer others (ms of wall time) */
  sliceMs: 20,
  /** how often the lease is renewed while the work goes (ms) */
  renewEveryMs: 10_000,
} as const;

export type UploadLimits = { readonly maxEntries: number; readonly maxInflatedBytes: number };

/** Archive entries and inflated bytes an upload may hold, over all its archives together. */
export const UPLOAD_LIMITS: UploadLimits = {
  /** entries in all the upload's archives */
  maxEntries: 5_000,
  /** inflated bytes of every entry of every archive */
  maxInflatedBytes: 4 * 1024 * 1024 * 1024,
};

export type BudgetOptions = {
  /** CPU-seconds this import may use (default: from the bytes received, IMPORT_BUDGET) */
  cpuSeconds?: number;
  /** the client went away: the work stops */
  signal?: AbortSignal;
  /** renews the lease; false when it was lost (another process holds it): the work stops */
  renew?: () => Promise<boolean>;
  /** the thread's CPU time in microseconds (tests) */
  cpuMicros?: () => number;
  /** the process's background work's CPU so far, in microseconds (tests; lib/cpu-ledger.ts) */
  backgroundMicros?: () => number;
  /** a monotonic clock in milliseconds, for the slices (tests) */
  now?: () => number;
};

/** The CPU-seconds an upload of this many bytes may cost (pure). */
export function cpuSecondsFor(bytesReceived: number): number {
  const perMib = (bytesReceived / 1024 / 1024) * IMPORT_BUDGET.cpuSecondsPerMiB;
  return Math.min(IMPORT_BUDGET.maxCpuSeconds, Math.max(IMPORT_BUDGET.minCpuSeconds, perMib));
}

/** Thrown when the work stops for its client or its lease (not a refusal of the file). */
export class ImportStopped extends Error {
  constructor(readonly reason: "aborted" | "lease_lost") {
    super(reason === "aborted" ? "The upload was abandoned: the import stopped." : "The import lost its lease (another process took it over): it stopped.");
    this.name = "ImportStopped";
  }
}

/** One import's budget (see above). Entries and inflated bytes are counted by the archive reader. */
export class ImportBudget {
  private readonly cpuMicros: () => number;
  private readonly backgroundMicros: () => number;
  private cpuStart: number;
  private backgroundStart: number;
  /** the background work's CPU within the yields (already in othersMicros) */
  private backgroundInYields = 0;
  private cpuLimitMicros: number;
  private readonly now: () => number;
  private sliceStart: number;
  private renewedAt: number;
  /** the thread's CPU time spent on others' work while the import yielded (not counted) */
  private othersMicros = 0;
  /** the share of the budget the work may use so far (the check leaves the rest to storing) */
  checkShare = 1;
  entries = 0;
  inflatedBytes = 0;
  declaredBytes = 0;
  private readonly listed = new Set<string>();

  constructor(
    private readonly opts: BudgetOptions = {},
    readonly limits: UploadLimits = UPLOAD_LIMITS,
  ) {
    this.cpuMicros = opts.cpuMicros ?? threadCpuMicros;
    this.backgroundMicros = opts.backgroundMicros ?? backgroundCpuMicros;
    this.backgroundStart = this.backgroundMicros();
    this.now = opts.now ?? (() => performance.now());
    this.sliceStart = this.renewedAt = this.now();
    this.cpuStart = this.cpuMicros();
    this.cpuLimitMicros = (opts.cpuSeconds ?? IMPORT_BUDGET.maxCpuSeconds) * 1e6;
  }

  /**
   * Sets the CPU budget from the bytes received (once the upload is spooled), unless given, and
   * starts counting from here: spooling costs what the network's chunking makes it cost (one
   * byte at a time is slow, not a bomb), bounded by the request's cap; a Ringside export checked
   * as it arrives is held to the 60 s until then.
   */
  received(bytes: number): void {
    if (this.opts.cpuSeconds === undefined) this.cpuLimitMicros = cpuSecondsFor(bytes) * 1e6;
    this.cpuStart = this.cpuMicros();
    this.othersMicros = 0;
    this.backgroundStart = this.backgroundMicros();
    this.backgroundInYields = 0;
  }

  /**
   * The import's own CPU time so far, in microseconds: the thread's, less what others used while
   * it yielded, less the background work that ran in its other waits.
   */
  private usedMicros(): number {
    const backgroundElsewhere = this.backgroundMicros() - this.backgroundStart - this.backgroundInYields;
    return this.cpuMicros() - this.cpuStart - this.othersMicros - backgroundElsewhere;
  }

  /** CPU-seconds used so far. */
  get cpuSeconds(): number {
    return this.usedMicros() / 1e6;
  }

  /** Throws when the work must stop: over its CPU budget (a refusal, 413), its client gone. Synchronous. */
  check(): void {
    if (this.opts.signal?.aborted) throw new ImportStopped("aborted");
    const limit = this.cpuLimitMicros * this.checkShare;
    if (this.usedMicros() > limit)
      throw new ImportRefusal(
        `The upload is refused: reading it took more than the ${Math.round((limit / 1e6) * 10) / 10} CPU-seconds ` +
          `an upload of its size may cost (${IMPORT_BUDGET.cpuSecondsPerMiB} per MB sent, ${IMPORT_BUDGET.maxCpuSeconds} at most). Nothing was stored.`,
        { tooLarge: true },
      );
  }

  /** Between two pieces of work: checks, lets others run once a slice is used up, renews the lease. */
  async tick(): Promise<void> {
    this.check();
    const now = this.now();
    if (now - this.sliceStart < IMPORT_BUDGET.sliceMs) return;
    // what runs while the import yields is other work of the process (requests, the scheduler's
    // syncs, its housekeeping over every person): it is not the import's, and is not counted
    const before = this.cpuMicros();
    const backgroundBefore = this.backgroundMicros();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.othersMicros += this.cpuMicros() - before;
    this.backgroundInYields += this.backgroundMicros() - backgroundBefore;
    this.sliceStart = this.now();
    if (this.opts.renew && now - this.renewedAt >= IMPORT_BUDGET.renewEveryMs) {
      this.renewedAt = now;
      if (!(await this.opts.renew())) throw new ImportStopped("lease_lost");
    }
    this.check();
  }

  /** Whether this archive is listed for the first time (its entries are counted once, however many passes read it). */
  firstListing(file: string): boolean {
    if (this.listed.has(file)) return false;
    this.listed.add(file);
    return true;
  }

  /** Counts an archive's entry (all archives of the upload together). */
  addEntry(name: string): void {
    if (++this.entries > this.limits.maxEntries)
      throw new ImportRefusal(`The upload is refused: its archives hold more than ${this.limits.maxEntries} entries in all (at ${name}).`, { tooLarge: true });
  }

  /** Counts what an entry declares it inflates to (all archives together). */
  declare(name: string, bytes: number): void {
    this.declaredBytes += bytes;
    if (this.declaredBytes > this.limits.maxInflatedBytes)
      throw new ImportRefusal(
        `The upload is refused: its archives declare more than ${mib(this.limits.maxInflatedBytes)} unpacked in all (at ${name}; a ZIP bomb?).`,
        { tooLarge: true },
      );
  }

  /** Counts bytes really inflated (all archives, every pass). */
  inflate(name: string, bytes: number): void {
    this.inflatedBytes += bytes;
    if (this.inflatedBytes > this.limits.maxInflatedBytes * 2)
      throw new ImportRefusal(`The upload is refused: ${name} unpacks to more than its archives may hold in all (a ZIP bomb?).`, { tooLarge: true });
  }
}

const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
