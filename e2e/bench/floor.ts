// The fetch floor of `npm run bench` (issue 53): every page of every collection a new person's
// backfill fetches, asked for exactly as the sync engine asks (the same routes, date windows,
// time-series windows and next_token chains, from its own planning code: lib/sync/plan.ts and
// the resource registry), with as many requests in flight as the engine has (SYNC_CONCURRENCY
// collections at once, each one's pages in turn but a time series' history, SERIES_WINDOWS_AT_ONCE
// windows at once), and nothing stored. Its wall time is what the
// network and the emulator cost; the backfill's time over it is Ringside's own.
//
// run.ts starts it in a process of its own once the app is idle (alone:
// node --import tsx --conditions=react-server e2e/bench/floor.ts '<FloorJob as JSON>'), which
// prints one line: FLOOR_BENCH {…FloorFigures}. The engine's modules are server-only, so they
// are loaded when the floor runs (that process, or Vitest), and this file can be imported
// anywhere for its types, schemas and the published block.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { z } from "zod";
import { normalizeScopes } from "@/lib/auth/scopes";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { getResource, isSeriesCollection, SYNC_COLLECTIONS, type RingCollection, type SeriesCollection, type SyncCollection } from "@/lib/resources";
import { countCpu } from "./cpu";
import { median, ratio, round } from "./stats";

/** The published block (results/latest.json `floor`, names from ARCHITECTURE.md); `peer_*` null where the peer does not run. */
export type FloorResult = {
  /** consent (Allow) → every collection Today shows has its newest day stored (the whole backfill's end at the latest) */
  time_to_today_s: number;
  /** consent → every collection's backfill done, documents and time series */
  backfill_wall_s: number;
  /** every page of the same collections, nothing stored (median of the runs) */
  floor_s: number;
  floor_ratio: number;
  /** the heart-rate backfill (consent → done) against heart rate's own floor, fetched alone */
  heart_rate_floor_ratio: number;
  /** the same for the ring's battery (null where it is not shared) */
  battery_floor_ratio: number | null;
  peer_s: number | null;
  peer_ratio: number | null;
  /**
   * Where the CPU went, seconds: the backfill's (the app's process group and the emulator's, consent
   * → done) and one whole floor's (its client and the emulator). `bound_ratio`: the lowest
   * backfill / floor this machine allows at that CPU, were it spread perfectly over every core,
   * ((app + emulator) / cores) / floor_s. Absent where /proc is not there to read.
   */
  cpu?: { cores: number; backfill_app_s: number; backfill_emulator_s: number; floor_client_s: number; floor_emulator_s: number | null; bound_ratio: number };
  /**
   * The same figures with the emulator `wire_ms` away, as a ring service across the internet is
   * (run.ts --wire-pass, after the main pass: a backfill of its own and its own floor, both at
   * that delay). Absent where the wire pass did not run.
   */
  wire?: WireFloor;
};

/** The floor block's figures measured with every data request `wire_ms` late (FloorResult.wire). */
export type WireFloor = { wire_ms: number } & Pick<
  FloorResult,
  "time_to_today_s" | "backfill_wall_s" | "floor_s" | "floor_ratio" | "heart_rate_floor_ratio" | "battery_floor_ratio"
>;

/** A floor block's figures as the wire pass publishes them. */
export function wireBlock(floor: FloorResult, wireMs: number): WireFloor {
  const { time_to_today_s, backfill_wall_s, floor_s, floor_ratio, heart_rate_floor_ratio, battery_floor_ratio } = floor;
  return { wire_ms: wireMs, time_to_today_s, backfill_wall_s, floor_s, floor_ratio, heart_rate_floor_ratio, battery_floor_ratio };
}

/**
 * The bench's results (results/latest.json, as the main pass wrote them) with the wire pass's
 * figures in their floor block; the rest as it was. Throws when the results have no floor block.
 */
export function withWireBlock(latest: unknown, wire: WireFloor): Record<string, unknown> {
  const parsed = z
    .object({ floor: z.object({}).loose() })
    .loose()
    .parse(latest);
  return { ...parsed, floor: { ...parsed.floor, wire } };
}

/** The wire pass's lines: each ratio against its target, met or not. */
export function wireLines(wire: WireFloor): string[] {
  const line = (what: string, value: number | null, target: number, unit: string) =>
    value === null ? `${what}: not measured` : `${what}: ${value}${unit} (target ≤ ${target}${unit}) ${value <= target ? "met" : "not met"}`;
  return [
    line(`${wire.wire_ms} ms away, Today whole after consent`, wire.time_to_today_s, FLOOR_TARGETS.time_to_today_s, " s"),
    line(
      `${wire.wire_ms} ms away, the whole backfill against the floor (${wire.backfill_wall_s} s vs ${wire.floor_s} s)`,
      wire.floor_ratio,
      FLOOR_TARGETS.floor_ratio,
      "x",
    ),
    line(`${wire.wire_ms} ms away, heart rate against its own floor`, wire.heart_rate_floor_ratio, FLOOR_TARGETS.heart_rate_floor_ratio, "x"),
    line(`${wire.wire_ms} ms away, the battery against its own floor`, wire.battery_floor_ratio, FLOOR_TARGETS.battery_floor_ratio, "x"),
  ];
}

/** The floor's targets (issue 53): the backfill within 1.25× the floor, heart rate and battery within 1.25× their own, Today whole within a second of consent. */
export const FLOOR_TARGETS = { floor_ratio: 1.25, heart_rate_floor_ratio: 1.25, battery_floor_ratio: 1.25, time_to_today_s: 1 } as const;

const floorJobSchema = z.object({
  emulatorUrl: z.url(),
  /** the app's OAuth client at the emulator: the floor's token is issued to it */
  clientId: z.string().min(1),
  ringUserId: z.string().min(1),
  /** the backfill's days, as the engine recorded them (readBackfillRange) */
  range: z.object({ from: z.iso.date(), to: z.iso.date() }),
  runs: z.int().min(1).max(9),
  /** the emulator's process group: its CPU over each whole floor is counted (e2e/bench/cpu.ts) */
  emulatorPgid: z.int().positive().optional(),
});
export type FloorJob = z.infer<typeof floorJobSchema>;

const floorFiguresSchema = z.object({
  /** collections fetched, requests in flight at most */
  collections: z.int(),
  in_flight: z.int(),
  /** every collection's floor, seconds: the median of the runs, and each run */
  floor_s: z.number(),
  floor_runs_s: z.array(z.number()),
  /** heart rate's pages alone (one chain: one request in flight) */
  heart_rate_floor_s: z.number(),
  heart_rate_floor_runs_s: z.array(z.number()),
  /** the battery's pages alone, as heart rate's (null and no runs where it is not shared) */
  battery_floor_s: z.number().nullable(),
  battery_floor_runs_s: z.array(z.number()),
  /** requests of one floor, by collection (the same in every run) */
  requests: z.record(z.string(), z.int()),
  /** CPU seconds of one whole floor (the median run's): this client's process, and the emulator's when its group was given */
  cpu_s: z.object({ client: z.number(), emulator: z.number().nullable() }),
});
export type FloorFigures = z.infer<typeof floorFiguresSchema>;

/** Requests of one floor by kind: the documents' (the bench's "minimum requests") and the time series'. */
export function floorRequests(f: FloorFigures): { total: number; documents: number; series: number } {
  let documents = 0;
  let series = 0;
  for (const [c, n] of Object.entries(f.requests)) {
    if (isSeriesCollection(c)) series += n;
    else documents += n;
  }
  return { total: documents + series, documents, series };
}

/**
 * The collections a new person's backfill fetches with `grantedScope`: every one the engine syncs
 * whose scope was granted (engine/index.ts skipReason), but the cycle's phases, which are fetched
 * only once the person turns cycle tracking on (a new person has not).
 */
export function floorCollections(grantedScope: string): SyncCollection[] {
  const scopes = normalizeScopes(grantedScope);
  return SYNC_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE && (scopes.length === 0 || scopes.includes(getResource(c).scope)));
}

/**
 * The days a person's backfill covers, as the engine recorded them in sync_state (the app's
 * SQLite, read-only): from the history's start to the recent days' end (newest first: a
 * document collection's recentThrough is that day; a backfill begun before: its backfillTo).
 */
export function readBackfillRange(dbFile: string, userId: string): { from: string; to: string } {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const range = db
      .prepare(
        `SELECT min(backfillFrom) AS "from", max(CASE WHEN length(recentThrough) = 10 THEN recentThrough ELSE backfillTo END) AS "to" FROM sync_state WHERE userId = ?`,
      )
      .get(userId);
    return z.object({ from: z.iso.date(), to: z.iso.date() }).parse(range);
  } finally {
    db.close();
  }
}

/**
 * The engine's planning (lib/sync/plan.ts), its reading of a time series' windows several at once
 * (lib/sync/window-chains.ts) and its page wrapper (lib/ring/schemas.ts): server-only, loaded when the floor runs.
 */
async function engineParts() {
  const [plan, chains, schemas] = await Promise.all([import("@/lib/sync/plan"), import("@/lib/sync/window-chains"), import("@/lib/ring/schemas")]);
  return { plan, windowChains: chains.windowChains, pageSchema: schemas.ringListPageSchema };
}
type EngineParts = Awaited<ReturnType<typeof engineParts>>;

/** An answer other than 200 (the probe of a time series may be refused with 400, as the engine expects). */
class FloorAnswerError extends Error {
  constructor(
    readonly status: number,
    collection: SyncCollection,
  ) {
    super(`the floor's request for ${collection} was answered ${status}`);
  }
}

export type FloorOptions = {
  emulatorUrl: string;
  accessToken: string;
  /** the collections fetched (floorCollections) */
  collections: readonly SyncCollection[];
  range: { from: string; to: string };
  /** collections fetched at once (the engine's SYNC_CONCURRENCY; 1 for a collection alone) */
  concurrency: number;
};

/** The request the engine's RingClient makes for a page: the same URL, headers and time limit; the body read and its wrapper parsed, nothing kept. */
function pageFetcher(opts: FloorOptions, parts: EngineParts, counts: Map<SyncCollection, number>) {
  const base = opts.emulatorUrl.replace(/\/+$/, "");
  return async (collection: SyncCollection, query: Record<string, string | null | undefined>) => {
    const url = new URL(`${base}/v2/usercollection/${collection}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
    const res = await fetch(url, {
      headers: { accept: "application/json", authorization: `Bearer ${opts.accessToken}` },
      signal: AbortSignal.timeout(30_000),
      cache: "no-store",
    });
    counts.set(collection, (counts.get(collection) ?? 0) + 1);
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new FloorAnswerError(res.status, collection);
    }
    const page = parts.pageSchema.parse(JSON.parse(await res.text()));
    return { data: page.data, nextToken: page.next_token ?? null };
  };
}

/** A document's day (the registry's day field), null when it has none: what the engine resumes from. */
function dayOf(doc: unknown, field: string | null): string | null {
  if (!field || !doc || typeof doc !== "object") return null;
  const day: unknown = Reflect.get(doc, field);
  return typeof day === "string" ? day : null;
}

/** A time-series row's instant (NaN when it has none). */
function instantOf(row: unknown): number {
  if (!row || typeof row !== "object") return Number.NaN;
  const t: unknown = Reflect.get(row, "timestamp");
  return typeof t === "string" ? Date.parse(t) : Number.NaN;
}

/**
 * One floor: `opts.collections` fetched page by page as the engine's backfill fetches them
 * (engine/documents.ts and engine/series.ts, from a fresh start: the recent days, then the history),
 * `opts.concurrency` collections at once. The time series go first: a collection's pages form a
 * chain (each asks with the one before's next_token) and theirs are the longest, so started first
 * they give the shortest wall time that many requests in flight allow. Returns the wall time and
 * the requests per collection.
 */
export async function fetchFloor(opts: FloorOptions): Promise<{ wallMs: number; requests: Map<SyncCollection, number> }> {
  const parts = await engineParts();
  const { plan } = parts;
  const counts = new Map<SyncCollection, number>();
  const page = pageFetcher(opts, parts, counts);
  const { range } = opts;

  // newest first (engine/documents.ts recentDocuments): the recent days' pages, each asked with
  // the one before's token, then the history behind them in its windows
  const documents = async (collection: RingCollection) => {
    const { window: rule, dayField } = getResource(collection);
    const { recent, history } = rule.param === "none" ? { recent: range, history: null } : plan.newestFirstRanges(range.from, range.to);
    let recentToken: string | null = null;
    do {
      recentToken = (await page(collection, { ...plan.queryWindow(rule, "usercollection", recent), next_token: recentToken })).nextToken;
    } while (recentToken);
    if (!history) return;
    for (const w of plan.planBackfillWindows(history.from, history.to)) {
      let from = w.from;
      let token: string | null = null;
      do {
        const listed = await page(collection, { ...plan.queryWindow(rule, "usercollection", { from, to: w.to }), next_token: token });
        token = listed.nextToken;
        // the engine asks for the rest of the window from the newest day seen, with the token
        if (token)
          from =
            plan.resumeDayAfterPage(
              listed.data.map((d) => dayOf(d, dayField)),
              from,
            ) ?? from;
      } while (token);
    }
  };

  // newest first (engine/series.ts recentSeries): the recent days' windows, then the history
  // behind them, to where the recent days begin
  const series = async (collection: SeriesCollection) => {
    const { maxDays } = getResource(collection).window;
    const { recent, history } = plan.newestFirstRanges(range.from, range.to);
    const recentStart = Date.parse(`${recent.from}T00:00:00Z`);
    const recentEnd = Date.parse(`${recent.to}T00:00:00Z`);
    for (const w of plan.recentSeriesWindows(collection, recentStart, recentEnd, maxDays)) {
      let recentToken: string | null = null;
      do recentToken = (await page(collection, { ...plan.seriesQuery(w), next_token: recentToken })).nextToken;
      while (recentToken);
    }
    if (!history) return;
    const startMs = Date.parse(`${history.from}T00:00:00Z`);
    const endMs = recentStart;
    // the probe: the whole range at once, one page kept (where the history starts)
    let cursor = startMs;
    try {
      const probe = await page(collection, plan.seriesQuery({ start: startMs, end: endMs }));
      if (!probe.nextToken) return;
      cursor = plan.windowsStartAfterProbe(probe.data.map(instantOf)) ?? startMs;
    } catch (err) {
      if (!(err instanceof FloorAnswerError && err.status === 400)) throw err;
    }
    // then window by window from there, page by page, SERIES_WINDOWS_AT_ONCE windows at once (engine/series.ts)
    const chains = parts.windowChains({
      first: plan.nextSeriesWindow(cursor, endMs, maxDays),
      firstToken: null,
      following: (w) => (w.end < endMs ? plan.nextSeriesWindow(w.end, endMs, maxDays) : null),
      fetch: (w, token) => page(collection, { ...plan.seriesQuery(w), next_token: token }),
      nextToken: (p) => p.nextToken,
      windowsAtOnce: plan.SERIES_WINDOWS_AT_ONCE,
      pagesAhead: plan.SERIES_PAGES_AHEAD,
    });
    try {
      while (await chains.take());
    } finally {
      chains.close();
    }
  };

  const queue = [...opts.collections].sort((a, b) => Number(isSeriesCollection(b)) - Number(isSeriesCollection(a)));
  const started = performance.now();
  const worker = async () => {
    for (let c = queue.shift(); c !== undefined; c = queue.shift()) await (isSeriesCollection(c) ? series(c) : documents(c));
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, opts.concurrency), queue.length) }, worker));
  return { wallMs: performance.now() - started, requests: counts };
}

const tokenAnswerSchema = z.object({ access_token: z.string().min(1), scope: z.string() });

/**
 * The floor's figures for a person: a token for the app's client (the emulator's control API,
 * every scope, as the bench's consent grants), then `runs` times every collection's floor with
 * the engine's concurrency and heart rate's and the battery's alone, in turn; the emulator's request log emptied
 * after, so that no later count holds the floor's requests.
 */
export async function measureFloor(job: FloorJob): Promise<FloorFigures> {
  const base = job.emulatorUrl.replace(/\/+$/, "");
  const res = await fetch(`${base}/_emulator/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: job.clientId, user_id: job.ringUserId }),
  });
  if (!res.ok) throw new Error(`the floor's token: ${res.status} ${(await res.text()).slice(0, 200)}`);
  const token = tokenAnswerSchema.parse(await res.json());
  const collections = floorCollections(token.scope);
  if (!collections.includes("heartrate")) throw new Error("the floor needs heart rate shared (its own floor is a figure)");
  const { SYNC_CONCURRENCY, mostRequestsInFlight } = (await engineParts()).plan;
  const common = { emulatorUrl: base, accessToken: token.access_token, range: job.range };
  const all: number[] = [];
  const heart: number[] = [];
  const battery: number[] = [];
  const withBattery = collections.includes("ring_battery_level");
  const cpu: Array<{ client: number; emulator: number | null }> = [];
  // requests by collection, in the collections' order (the same in every run, or the floor is not one)
  const byCollection = (counts: ReadonlyMap<SyncCollection, number>) => Object.fromEntries(collections.map((c) => [c, counts.get(c) ?? 0]));
  let requests: Record<string, number> | null = null;
  try {
    for (let i = 0; i < job.runs; i++) {
      const emulatorCpu = job.emulatorPgid ? countCpu({ emulator: job.emulatorPgid }) : null;
      const clientCpu = process.cpuUsage();
      const run = await fetchFloor({ ...common, collections, concurrency: SYNC_CONCURRENCY });
      const used = process.cpuUsage(clientCpu);
      cpu.push({ client: round((used.user + used.system) / 1e6, 2), emulator: emulatorCpu?.()?.seconds.emulator ?? null });
      all.push(run.wallMs / 1000);
      const alone = await fetchFloor({ ...common, collections: ["heartrate"], concurrency: 1 });
      heart.push(alone.wallMs / 1000);
      const counted = byCollection(run.requests);
      if (alone.requests.get("heartrate") !== run.requests.get("heartrate")) throw new Error("heart rate alone made other requests than among the rest");
      if (withBattery) {
        const own = await fetchFloor({ ...common, collections: ["ring_battery_level"], concurrency: 1 });
        battery.push(own.wallMs / 1000);
        if (own.requests.get("ring_battery_level") !== run.requests.get("ring_battery_level"))
          throw new Error("the battery alone made other requests than among the rest");
      }
      if (requests && JSON.stringify(requests) !== JSON.stringify(counted)) throw new Error("two floors made different requests");
      requests = counted;
    }
  } finally {
    await fetch(`${base}/_emulator/requests`, { method: "DELETE" });
  }
  return {
    collections: collections.length,
    in_flight: mostRequestsInFlight(collections),
    floor_s: median(all),
    floor_runs_s: all.map((s) => round(s, 3)),
    heart_rate_floor_s: median(heart),
    heart_rate_floor_runs_s: heart.map((s) => round(s, 3)),
    battery_floor_s: battery.length > 0 ? median(battery) : null,
    battery_floor_runs_s: battery.map((s) => round(s, 3)),
    requests: requests ?? {},
    // the median run's (by wall time)
    cpu_s: cpu[all.indexOf([...all].sort((a, b) => a - b)[Math.floor((all.length - 1) / 2)]!)]!,
  };
}

/** The published block: the backfill's figures of the same run against the floor's. */
export function floorBlock(
  f: FloorFigures,
  backfill: {
    timeToTodayS: number;
    wallS: number;
    heartRateWallS: number;
    /** consent → the battery's backfill done (null where it is not shared) */
    batteryWallS?: number | null;
    cpu?: { cores: number; app: number; emulator: number } | null;
  },
): FloorResult {
  const c = backfill.cpu;
  return {
    time_to_today_s: round(backfill.timeToTodayS, 2),
    backfill_wall_s: round(backfill.wallS, 2),
    floor_s: round(f.floor_s, 2),
    floor_ratio: ratio(backfill.wallS, f.floor_s, 2),
    heart_rate_floor_ratio: ratio(backfill.heartRateWallS, f.heart_rate_floor_s, 2),
    battery_floor_ratio: backfill.batteryWallS != null && f.battery_floor_s ? ratio(backfill.batteryWallS, f.battery_floor_s, 2) : null,
    // no peer runs here (issue 53's side-by-side: e2e/bench/peer.ts where it can)
    peer_s: null,
    peer_ratio: null,
    ...(c
      ? {
          cpu: {
            cores: c.cores,
            backfill_app_s: c.app,
            backfill_emulator_s: c.emulator,
            floor_client_s: f.cpu_s.client,
            floor_emulator_s: f.cpu_s.emulator,
            bound_ratio: ratio((c.app + c.emulator) / c.cores, f.floor_s, 2),
          },
        }
      : {}),
  };
}

/** run.ts's side: the floor in a process of its own (the engine's modules need the react-server condition outside Next). */
export async function runFloorProcess(job: FloorJob): Promise<FloorFigures> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", fileURLToPath(import.meta.url), JSON.stringify(job)], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  const line = out.split("\n").find((l) => l.startsWith("FLOOR_BENCH "));
  if (code !== 0 || !line) throw new Error(`the floor's process exited (${code})`);
  return floorFiguresSchema.parse(JSON.parse(line.slice("FLOOR_BENCH ".length)));
}

// Run as a script (runFloorProcess): one job from the command line, one line of figures.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  measureFloor(floorJobSchema.parse(JSON.parse(process.argv[2] ?? "null"))).then(
    (figures) => {
      process.stdout.write(`FLOOR_BENCH ${JSON.stringify(figures)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`floor bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
