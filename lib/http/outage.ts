import "server-only";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";

// When the database is not there: PostgreSQL stopped or unreachable, SQLite's file unreadable,
// or the disk full. Such an error is not the request's fault and not a bug: the request gets a
// 503 that says so, with Retry-After (lib/http/errors.ts), and the process remembers the outage
// so that pages and API routes answer 503 at once (proxy.ts) instead of each failing its own
// way, until a probe every second or so finds the database again. A full disk is not an outage
// of reads: only the write that failed answers 503, and the next write simply tries again.

export type OutageKind = "unreachable" | "full";

/** Seconds a client is asked to wait (Retry-After) before trying again. */
export const RETRY_AFTER_S: Record<OutageKind, number> = { unreachable: 5, full: 60 };

/** What a person reads: short, the same on every page and in every API answer. */
export const OUTAGE_MESSAGE: Record<OutageKind, string> = {
  unreachable: "The database is not reachable; Ringside retries.",
  full: "The disk is full: Ringside cannot store anything until space is freed.",
};

const UNREACHABLE_CODES = new Set([
  // sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  // PostgreSQL: admin/crash shutdown, cannot connect now, connection exceptions, too many connections
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "53300",
  // Prisma: cannot reach, timed out, connection closed, pool timeout
  "P1001",
  "P1002",
  "P1017",
  "P2024",
  // SQLite: the file cannot be opened or read
  "SQLITE_CANTOPEN",
  "SQLITE_IOERR",
  "SQLITE_NOTADB",
]);

/** What the drivers say when the database cannot be reached (pg, Prisma, the server shutting down or starting). */
const UNREACHABLE_MESSAGES = [
  "Connection terminated",
  "connection (?:is )?closed",
  "Can't reach database server",
  "timeout exceeded when trying to connect",
  "terminating connection due to administrator command",
  "the database system is (?:shutting down|starting up)",
  "Client has encountered a connection error",
  "ECONNREFUSED",
];
const UNREACHABLE_TEXT = new RegExp(UNREACHABLE_MESSAGES.join("|"), "i");
const FULL_TEXT = /database or disk is full|SQLITE_FULL|ENOSPC|no space left on device|could not extend file/i;

/** Whether an error is the database being away (or the disk full), looking through causes. */
export function classifyDatabaseError(err: unknown, depth = 0): OutageKind | null {
  if (!err || typeof err !== "object" || depth > 5) return null;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; kind?: unknown; originalCode?: unknown };
  const codes = [e.code, e.originalCode].filter((c): c is string => typeof c === "string");
  if (codes.some((c) => c === "SQLITE_FULL" || c === "ENOSPC" || c === "53100")) return "full";
  if (codes.some((c) => UNREACHABLE_CODES.has(c) || c.startsWith("SQLITE_IOERR"))) return "unreachable";
  const message = typeof e.message === "string" ? e.message : "";
  if (FULL_TEXT.test(message)) return "full";
  if (UNREACHABLE_TEXT.test(message)) return "unreachable";
  // AggregateError (several addresses refused), and errors wrapped by Prisma or the driver
  if (Array.isArray(e.errors)) for (const x of e.errors) if (classifyDatabaseError(x, depth + 1)) return classifyDatabaseError(x, depth + 1);
  return classifyDatabaseError(e.cause, depth + 1);
}

export type DatabaseHealth = {
  /** the outage now known (null: the database answered last time) */
  down(): OutageKind | null;
  /** the state at most `maxAgeMs` old: probes (once, for all callers) when it is older */
  fresh(maxAgeMs: number): Promise<OutageKind | null>;
};

type State = {
  down: { kind: "unreachable"; since: number } | null;
  checkedAt: number;
  probing: Promise<OutageKind | null> | null;
  recovery: NodeJS.Timeout | null;
  probe: (() => Promise<void>) | null;
  fullLoggedAt: number;
  onRecovered: Array<() => void>;
};

function store(): { state: State; health: DatabaseHealth } {
  // proxy.ts reads it under the same key, without importing this module
  return processSingleton("databaseHealth", () => {
    const state: State = { down: null, checkedAt: 0, probing: null, recovery: null, probe: null, fullLoggedAt: -Infinity, onRecovered: [] };
    const health: DatabaseHealth = {
      down: () => state.down?.kind ?? null,
      fresh: (maxAgeMs) => (performance.now() - state.checkedAt <= maxAgeMs ? Promise.resolve(state.down?.kind ?? null) : probeOnce(state)),
    };
    return { state, health };
  });
}

/** The probe's limit: a server that does not answer at all is away too. */
const PROBE_TIMEOUT_MS = 2_000;

function probeOnce(state: State): Promise<OutageKind | null> {
  if (!state.probe) return Promise.resolve(state.down?.kind ?? null);
  state.probing ??= (async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        state.probe!(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(Object.assign(new Error("database probe timed out"), { code: "ETIMEDOUT" })), PROBE_TIMEOUT_MS);
          timer.unref();
        }),
      ]);
      recovered(state);
    } catch (err) {
      markDown(state, classifyDatabaseError(err) ?? "unreachable");
    } finally {
      clearTimeout(timer);
      state.checkedAt = performance.now();
      state.probing = null;
    }
    return state.down?.kind ?? null;
  })();
  return state.probing;
}

function markDown(state: State, kind: OutageKind): void {
  if (kind === "full") {
    // a failed write; reads go on. One line a minute at most.
    if (performance.now() - state.fullLoggedAt >= 60_000) {
      state.fullLoggedAt = performance.now();
      logger.error({ outage: "full" }, "the disk is full: writes fail (503) until space is freed");
    }
    return;
  }
  if (state.down) return;
  state.down = { kind, since: performance.now() };
  logger.error({ outage: kind }, "the database is not reachable: pages and API answer 503 until it is back");
  // look again every second or so (jittered, so several processes do not knock together)
  const again = () => {
    state.recovery = setTimeout(
      () => {
        void probeOnce(state).then(() => {
          if (state.down) again();
        });
      },
      1_000 + Math.floor(Math.random() * 250),
    );
    state.recovery.unref();
  };
  again();
}

function recovered(state: State): void {
  if (!state.down) return;
  const downMs = Math.round(performance.now() - state.down.since);
  state.down = null;
  if (state.recovery) clearTimeout(state.recovery);
  state.recovery = null;
  logger.info({ downMs }, "the database is reachable again");
  for (const f of state.onRecovered) f();
}

/**
 * Looks at an error from a request or from background work: an outage is remembered (and
 * logged once), anything else is left alone. Returns the outage kind, if it is one.
 */
export function noteDatabaseError(err: unknown): OutageKind | null {
  const kind = classifyDatabaseError(err);
  if (kind) markDown(store().state, kind);
  return kind;
}

/** The process's view of the database (proxy.ts reads the same object through lib/process-singleton.ts: no database import there). */
export function databaseHealth(): DatabaseHealth {
  return store().health;
}

/** Installs the probe (checkDatabase) and what to wake when the database is back (the background work). */
export function installDatabaseProbe(probe: () => Promise<void>, onRecovered?: () => void): void {
  const { state } = store();
  state.probe = probe;
  if (onRecovered) state.onRecovered.push(onRecovered);
}
