// The heart-rate part of the benchmark: the emulator's samples of the measured person, the
// requests the app made for them against the fewest its page size allows, the app's own ingest
// time (its "backfill finished" log line) against a raw better-sqlite3 insert of the same
// samples (one row each, one transaction), one day's curve read against the raw query of that
// day's rows, and — the measurement behind the storage layout — the same samples stored one row
// per sample against packed one row per person and UTC day.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { decodeColumns, decodeDay, encodeDay, groupByUtcDay, mergeSamples, type Sample } from "../../lib/db/sample-codec";
import { localDayCurve, type SeriesDay } from "../../lib/metrics/heart-rate";
import { sampleSpecOf } from "../../lib/resources";
import { percentile, round } from "./stats";

export type HeartRow = { bpm: number; source: string; timestamp: string; timestamp_unix?: number };

const HR = sampleSpecOf("heartrate");

/** Every heart-rate sample the emulator serves for a person (its control API, time order). */
export async function emulatorHeartRate(emulatorUrl: string, ringUserId: string): Promise<HeartRow[]> {
  const res = await fetch(`${emulatorUrl}/_emulator/users/${encodeURIComponent(ringUserId)}/documents/heartrate`);
  if (!res.ok) throw new Error(`emulator heart rate: ${res.status}`);
  return ((await res.json()) as { data: HeartRow[] }).data;
}

/** The heart-rate requests the emulator served for a person (each a page). */
export async function countSeriesRequests(emulatorUrl: string, ringUserId: string, series = "heartrate"): Promise<number> {
  const res = await fetch(`${emulatorUrl}/_emulator/requests?kind=data&path_prefix=${encodeURIComponent(`/v2/usercollection/${series}`)}`);
  if (!res.ok) throw new Error(`emulator request log: ${res.status}`);
  const { requests } = (await res.json()) as { requests: Array<{ path: string; user_id: string | null }> };
  return requests.filter((r) => (!r.user_id || r.user_id === ringUserId) && r.path.split("?")[0] === `/v2/usercollection/${series}`).length;
}

/** The app's ingest of one collection's backfill (its "backfill finished" line for that person). */
export function seriesIngestFromLog(
  lines: readonly string[],
  userId: string,
  collection: string,
): { ingestMs: number; mapMs: number; samples: number; pages: number } | null {
  for (const line of lines) {
    if (!line.includes("backfill finished") || !line.includes(collection)) continue;
    try {
      const e = JSON.parse(line) as Record<string, unknown>;
      if (e.msg === "backfill finished" && e.userId === userId && e.collection === collection) {
        return { ingestMs: Number(e.ingestMs ?? 0), mapMs: Number(e.mapMs ?? 0), samples: Number(e.samples ?? 0), pages: Number(e.pages ?? 0) };
      }
    } catch {
      /* not a log line */
    }
  }
  return null;
}

function openFresh(file: string): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return db;
}

const sizeMb = (file: string) => ["", "-wal"].reduce((a, s) => a + (fs.existsSync(file + s) ? fs.statSync(file + s).size : 0), 0) / 1_048_576;

/**
 * The baseline: the same samples inserted one row each — (userId, instant, bpm, source), indexed
 * by person and instant — with one prepared statement in ONE transaction into a fresh file,
 * rows prepared before the clock starts. Returns the transaction's milliseconds.
 */
export function rawSampleInsert(file: string, userId: string, rows: readonly HeartRow[]): { ms: number } {
  const db = openFresh(file);
  try {
    db.exec(`CREATE TABLE samples (userId TEXT NOT NULL, t INTEGER NOT NULL, bpm INTEGER, source TEXT); CREATE INDEX samples_user_t ON samples (userId, t)`);
    const ins = db.prepare(`INSERT INTO samples (userId, t, bpm, source) VALUES (?, ?, ?, ?)`);
    const prepared = rows.map((r) => [userId, Date.parse(r.timestamp), r.bpm, r.source] as const);
    const started = performance.now();
    db.transaction(() => {
      for (const r of prepared) ins.run(...r);
    })();
    return { ms: performance.now() - started };
  } finally {
    db.close();
  }
}

/**
 * One local day's curve as the Day page reads it — the day's UTC rows of the app's heart_rate
 * table (the statement of lib/db/queries/time-series.ts readSampleDays), decoded by
 * lib/db/sample-codec.ts and put on the local clock by lib/metrics/heart-rate.ts — against the
 * raw query of the same day's rows in the baseline's one-row-per-sample table. Interleaved,
 * over random days, after a warm-up.
 */
export function measureDayReads(opts: { appDb: string; rawDb: string; userId: string; days: readonly string[]; iterations: number; warmup: number }): {
  p95_ms: number;
  raw_p95_ms: number;
  points: number;
} {
  const app = new Database(opts.appDb, { readonly: true, fileMustExist: true });
  const raw = new Database(opts.rawDb, { readonly: true, fileMustExist: true });
  try {
    const appStmt = app.prepare(`SELECT day, samples FROM "heart_rate" WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`);
    const rawStmt = raw.prepare(`SELECT t, bpm, source FROM samples WHERE userId = ? AND t >= ? AND t < ? ORDER BY t`);
    const shift = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const a: number[] = [];
    const r: number[] = [];
    let points = 0;
    for (let i = 0; i < opts.warmup + opts.iterations; i++) {
      const day = opts.days[(i * 7919) % opts.days.length]!;
      let t = performance.now();
      const rows = appStmt.all(opts.userId, shift(day, -1), shift(day, 1)) as Array<{ day: string; samples: Buffer }>;
      const curve = localDayCurve(
        rows.map((x): SeriesDay => ({ day: x.day, columns: decodeColumns(HR, x.day, x.samples) })),
        day,
        0,
      );
      const at = performance.now() - t;
      const start = Date.parse(`${day}T00:00:00Z`);
      t = performance.now();
      const rawRows = rawStmt.all(opts.userId, start, start + 86_400_000);
      const rt = performance.now() - t;
      if (i >= opts.warmup) {
        a.push(at);
        r.push(rt);
        points = Math.max(points, curve.length, rawRows.length);
      }
    }
    return { p95_ms: round(percentile(a, 95), 3), raw_p95_ms: round(percentile(r, 95), 3), points };
  } finally {
    app.close();
    raw.close();
  }
}

export type LayoutFigures = { ingest_s: number; mb: number; day_read_p95_ms: number };

/**
 * The measurement behind the storage layout, on the same samples, pages of 1,000 each written
 * in its own transaction as a backfill writes them: one row per sample (a WITHOUT ROWID table
 * keyed by person, instant and source; an upsert each) against one row per person and UTC day
 * (the day read, merged with the page's samples, packed and written back: lib/db/sample-codec.ts).
 */
export function compareLayouts(dir: string, userId: string, rows: readonly HeartRow[]): { rows: LayoutFigures; packed: LayoutFigures } {
  const src: Record<string, number> = { awake: 0, rest: 1, sleep: 2, workout: 3, session: 4, live: 5 };
  const samples: Sample[] = rows.map((r) => ({ t: Date.parse(r.timestamp), v: [r.bpm, r.source] }));
  const pages: Sample[][] = [];
  for (let i = 0; i < samples.length; i += 1000) pages.push(samples.slice(i, i + 1000));
  const days = [...new Set(samples.map((s) => new Date(s.t).toISOString().slice(0, 10)))];
  const reads = (read: (day: string) => unknown) => {
    const xs: number[] = [];
    for (let i = 0; i < 500; i++) {
      const day = days[(i * 7919) % days.length]!;
      const t = performance.now();
      read(day);
      if (i >= 100) xs.push(performance.now() - t);
    }
    return round(percentile(xs, 95), 3);
  };

  const rowsFile = path.join(dir, "layout-rows.db");
  const a = openFresh(rowsFile);
  let rowsFig: LayoutFigures;
  try {
    a.exec(
      `CREATE TABLE s (userId TEXT NOT NULL, t INTEGER NOT NULL, source INTEGER NOT NULL, bpm INTEGER NOT NULL, PRIMARY KEY (userId, t, source)) WITHOUT ROWID`,
    );
    const ins = a.prepare(`INSERT INTO s VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET bpm = excluded.bpm`);
    const started = performance.now();
    for (const p of pages)
      a.transaction(() => {
        for (const s of p) ins.run(userId, s.t, src[String(s.v[1])] ?? 9, s.v[0]);
      }).immediate();
    const ms = performance.now() - started;
    a.pragma("wal_checkpoint(TRUNCATE)");
    const q = a.prepare(`SELECT t, bpm, source FROM s WHERE userId = ? AND t >= ? AND t < ?`);
    rowsFig = {
      ingest_s: round(ms / 1000, 3),
      mb: round(sizeMb(rowsFile), 1),
      day_read_p95_ms: reads((d) => q.all(userId, Date.parse(`${d}T00:00:00Z`), Date.parse(`${d}T00:00:00Z`) + 86_400_000)),
    };
  } finally {
    a.close();
  }

  const packedFile = path.join(dir, "layout-packed.db");
  const b = openFresh(packedFile);
  let packedFig: LayoutFigures;
  try {
    b.exec(`CREATE TABLE d (userId TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, samples BLOB NOT NULL, PRIMARY KEY (userId, day))`);
    const get = b.prepare(`SELECT samples FROM d WHERE userId = ? AND day = ?`);
    const put = b.prepare(`INSERT INTO d VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = excluded.count, samples = excluded.samples`);
    const started = performance.now();
    for (const p of pages) {
      b.transaction(() => {
        for (const [day, list] of groupByUtcDay(p)) {
          const old = get.get(userId, day) as { samples: Buffer } | undefined;
          const merged = mergeSamples(HR, old ? decodeDay(HR, day, old.samples) : [], list);
          put.run(userId, day, merged.length, encodeDay(HR, day, merged));
        }
      }).immediate();
    }
    const ms = performance.now() - started;
    b.pragma("wal_checkpoint(TRUNCATE)");
    packedFig = {
      ingest_s: round(ms / 1000, 3),
      mb: round(sizeMb(packedFile), 1),
      day_read_p95_ms: reads((d) => decodeColumns(HR, d, (get.get(userId, d) as { samples: Buffer }).samples)),
    };
  } finally {
    b.close();
  }
  return { rows: rowsFig, packed: packedFig };
}
