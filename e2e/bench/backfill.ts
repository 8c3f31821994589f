// The backfill benchmark's parts: the real OAuth round trip over HTTP (Auth.js sign-in →
// the emulator's consent form → the app's callback), waiting for the backfill by reading the
// app's SQLite, the HTTP requests the app made (the emulator's request log) against the
// minimum the page size allows, the app's own ingest time (its "backfill finished" log
// lines), and a raw better-sqlite3 upsert of the same documents for comparison.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { getResource, isRingCollection, RING_COLLECTIONS, tableOf, type RingCollection, type SeriesCollection, type SyncCollection } from "@/lib/resources";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { TODAY_COLLECTIONS } from "@/lib/metrics/today-layout";

/** The collections a backfill fetches (list endpoints), and their tables: the app's resource registry. */
export const BENCH_COLLECTIONS = Object.fromEntries(RING_COLLECTIONS.map((c) => [c, tableOf(c)])) as Record<RingCollection, string>;
export type BenchCollection = RingCollection;
/**
 * The collections a new person's backfill fetches: all but the cycle's phases, which are fetched
 * only once the person turns cycle tracking on (docs/privacy.md), which a new person has not.
 */
export const BENCH_COLLECTION_NAMES: readonly BenchCollection[] = RING_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE);

// ---------------------------------------------------------------------------------------
// HTTP with cookies (one jar: every server here is on localhost)
// ---------------------------------------------------------------------------------------

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      if (eq <= 0) continue;
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line);
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The cookies as Playwright wants them for `url`. */
  forPlaywright(url: string): Array<{ name: string; value: string; url: string }> {
    return [...this.cookies].map(([name, value]) => ({ name, value, url }));
  }
}

async function request(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie) headers.set("cookie", cookie);
  const res = await fetch(url, { ...init, headers, redirect: "manual" });
  jar.store(res);
  return res;
}

function locationOf(res: Response, base: string): string {
  const loc = res.headers.get("location");
  if (!loc) throw new Error(`expected a redirect from ${new URL(base).pathname}, got ${res.status}`);
  return new URL(loc, base).toString();
}

export type Connected = {
  jar: CookieJar;
  /** performance.now() when the consent form was answered (the person pressed Allow) */
  allowedAt: number;
  /** performance.now() when the app's callback answered (signed in, backfill queued) */
  signedInAt: number;
};

/**
 * "Connect your ring" over plain HTTP: Auth.js CSRF + POST /api/auth/signin/ring, the
 * emulator's consent page and its form (user, decision=allow, every requested scope), then
 * the app's callback with the cookies. Returns the session cookies.
 */
export async function connectThroughOAuth(appUrl: string, email: string): Promise<Connected> {
  const jar = new CookieJar();
  const csrfRes = await request(jar, `${appUrl}/api/auth/csrf`);
  if (!csrfRes.ok) throw new Error(`csrf: ${csrfRes.status}`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const signIn = await request(jar, `${appUrl}/api/auth/signin/ring`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${appUrl}/` }).toString(),
  });
  const authorizeUrl = locationOf(signIn, appUrl);
  if (new URL(authorizeUrl).origin === new URL(appUrl).origin) throw new Error(`sign-in did not go to the ring service: ${new URL(authorizeUrl).pathname}`);
  const page = await request(jar, authorizeUrl);
  if (page.status !== 200)
    throw new Error(
      `consent page: ${page.status} ${(await page.text())
        .replace(/<style[\s\S]*?<\/style>/g, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .slice(0, 300)}`,
    );
  await page.text();
  const allowedAt = performance.now();
  const consent = await request(jar, authorizeUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ user: email, decision: "allow" }).toString(),
  });
  const callbackUrl = locationOf(consent, authorizeUrl);
  const callback = await request(jar, callbackUrl);
  const landing = locationOf(callback, callbackUrl);
  if (new URL(landing).pathname !== "/") throw new Error(`the callback did not sign in (went to ${new URL(landing).pathname})`);
  const signedInAt = performance.now();
  if (![...jar.header().matchAll(/session-token=/g)].length) throw new Error("no session cookie after the callback");
  return { jar, allowedAt, signedInAt };
}

// ---------------------------------------------------------------------------------------
// Waiting for the backfill (the app's SQLite, read-only)
// ---------------------------------------------------------------------------------------

export type BackfillState = { userId: string | null; done: number; failed: number; documents: number };

/** How far a person's backfill is: collections done (or given up), and documents stored. */
export function readBackfillState(db: Database.Database, email: string): BackfillState {
  const user = db.prepare(`SELECT id FROM "User" WHERE lower(email) = lower(?)`).get(email) as { id: string } | undefined;
  if (!user) return { userId: null, done: 0, failed: 0, documents: 0 };
  const rows = db.prepare(`SELECT collection, status, backfillDoneAt, documentsTotal FROM sync_state WHERE userId = ?`).all(user.id) as Array<{
    collection: string;
    status: string;
    backfillDoneAt: string | null;
    documentsTotal: number;
  }>;
  let done = 0;
  let failed = 0;
  let documents = 0;
  for (const r of rows) {
    if (!(r.collection in BENCH_COLLECTIONS)) continue;
    if (r.backfillDoneAt) done++;
    else if (r.status === "error" || r.status === "not_shared" || r.status === "expired" || r.status === "paused") failed++;
    documents += r.documentsTotal;
  }
  return { userId: user.id, done, failed, documents };
}

/** Polls the app's database every `pollMs` until every collection's backfill is done. */
export async function waitForBackfill(
  dbFile: string,
  email: string,
  opts: { timeoutMs: number; pollMs?: number; collections?: number },
): Promise<{ doneAt: number; state: BackfillState }> {
  const want = opts.collections ?? BENCH_COLLECTION_NAMES.length;
  const deadline = performance.now() + opts.timeoutMs;
  let db: Database.Database | null = null;
  try {
    for (;;) {
      if (!db && fs.existsSync(dbFile)) {
        db = new Database(dbFile, { readonly: true, fileMustExist: true });
        db.pragma("busy_timeout = 5000");
      }
      if (db) {
        const state = readBackfillState(db, email);
        if (state.done >= want) return { doneAt: performance.now(), state };
        if (state.failed > 0 && state.done + state.failed >= want) throw new Error(`backfill stopped: ${state.done} done, ${state.failed} failed`);
      }
      if (performance.now() > deadline) throw new Error(`backfill not done within ${opts.timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 20));
    }
  } finally {
    db?.close();
  }
}

// ---------------------------------------------------------------------------------------
// Time to Today: each collection Today shows with its newest day stored (the app's SQLite)
// ---------------------------------------------------------------------------------------

/** A collection Today shows, the table it is stored in, and the newest day the emulator holds for it. */
export type TodayTarget = { collection: SyncCollection; table: string; day: string };

/**
 * What Today needs stored for a person: each of TODAY_COLLECTIONS with the newest day the
 * emulator holds for it (its documents' day field; a time series' newest sample's UTC day, as it
 * is stored). A collection the person has nothing of has nothing to wait for.
 */
export function todayTargets(
  docs: ReadonlyMap<RingCollection, readonly Doc[]>,
  series: Partial<Record<SeriesCollection, readonly { timestamp: string }[]>>,
): TodayTarget[] {
  const out: TodayTarget[] = [];
  for (const collection of TODAY_COLLECTIONS) {
    let newest = "";
    if (isRingCollection(collection)) {
      const field = getResource(collection).dayField;
      for (const d of docs.get(collection) ?? []) {
        const day = field ? d[field] : null;
        if (typeof day === "string" && day > newest) newest = day;
      }
    } else {
      const rows = series[collection];
      if (!rows) throw new Error(`Today shows ${collection}, whose samples the bench did not fetch`);
      for (const r of rows) {
        const day = new Date(Date.parse(r.timestamp)).toISOString().slice(0, 10);
        if (day > newest) newest = day;
      }
    }
    if (newest) out.push({ collection, table: tableOf(collection), day: newest });
  }
  return out;
}

/**
 * Polls the app's database every `pollMs` until every target has a row of the person (by
 * e-mail) for its day; the moment it was seen (and each target's, in `landed`). Null when `signal` aborts first (the backfill
 * ended without it: the caller counts the end).
 */
export async function waitForToday(
  dbFile: string,
  email: string,
  targets: readonly TodayTarget[],
  opts: { pollMs?: number; signal: AbortSignal; landed?: Map<SyncCollection, number> },
): Promise<number | null> {
  const pending = new Set(targets);
  let db: Database.Database | null = null;
  let userId: string | null = null;
  try {
    for (;;) {
      const last = opts.signal.aborted;
      if (!db && fs.existsSync(dbFile)) {
        db = new Database(dbFile, { readonly: true, fileMustExist: true });
        db.pragma("busy_timeout = 5000");
      }
      if (db && !userId) {
        const user: unknown = db.prepare(`SELECT id FROM "User" WHERE lower(email) = lower(?)`).get(email);
        userId = user && typeof user === "object" && "id" in user && typeof user.id === "string" ? user.id : null;
      }
      if (db && userId) {
        for (const t of pending) {
          if (!db.prepare(`SELECT 1 FROM "${t.table}" WHERE userId = ? AND day = ? LIMIT 1`).get(userId, t.day)) continue;
          pending.delete(t);
          opts.landed?.set(t.collection, performance.now());
        }
        if (pending.size === 0) return performance.now();
      }
      if (last) return null;
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 20));
    }
  } finally {
    db?.close();
  }
}

// ---------------------------------------------------------------------------------------
// Requests against the minimum (the emulator's log and its documents)
// ---------------------------------------------------------------------------------------

type LoggedRequest = { method: string; path: string; status: number; kind: string; user_id: string | null };

/** The list requests the emulator served for the eight collections (optionally one user's). */
export async function countListRequests(emulatorUrl: string, ringUserId?: string): Promise<{ total: number; byCollection: Record<string, number> }> {
  const res = await fetch(`${emulatorUrl}/_emulator/requests?kind=data`);
  if (!res.ok) throw new Error(`emulator request log: ${res.status}`);
  const { requests } = (await res.json()) as { requests: LoggedRequest[] };
  const byCollection: Record<string, number> = {};
  let total = 0;
  for (const r of requests) {
    if (ringUserId && r.user_id && r.user_id !== ringUserId) continue;
    const m = /^\/v2\/usercollection\/([A-Za-z0-9_]+)$/.exec(r.path.split("?")[0]!);
    if (!m || !(m[1]! in BENCH_COLLECTIONS)) continue;
    byCollection[m[1]!] = (byCollection[m[1]!] ?? 0) + 1;
    total++;
  }
  return { total, byCollection };
}

export type Doc = Record<string, unknown>;

/** Every document the emulator holds for a person in one collection. */
export async function emulatorDocuments(emulatorUrl: string, ringUserId: string, collection: BenchCollection): Promise<Doc[]> {
  const res = await fetch(`${emulatorUrl}/_emulator/users/${encodeURIComponent(ringUserId)}/documents/${collection}`);
  if (!res.ok) throw new Error(`emulator documents ${collection}: ${res.status}`);
  return ((await res.json()) as { data: Doc[] }).data;
}

/** Fewest list requests that can carry `counts` documents: ceil(n / pageSize), at least 1 each. */
export function minimumRequests(counts: readonly number[], pageSize: number): number {
  return counts.reduce((sum, n) => sum + Math.max(1, Math.ceil(n / pageSize)), 0);
}

// ---------------------------------------------------------------------------------------
// The app's own ingest time (its log) and the raw better-sqlite3 baseline
// ---------------------------------------------------------------------------------------

export type IngestLog = { collections: number; ingestMs: number; mapMs: number; documents: number; pages: number };

/**
 * Sums the engine's "backfill finished" log lines (one per collection: time spent validating,
 * mapping and writing, measured inside the app) for one app user id.
 */
export function ingestFromLog(lines: readonly string[], userId: string): IngestLog {
  const out: IngestLog = { collections: 0, ingestMs: 0, mapMs: 0, documents: 0, pages: 0 };
  for (const line of lines) {
    if (!line.includes("backfill finished")) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    // the document collections' lines (the time series have their own: heart-rate.ts)
    if (entry.msg !== "backfill finished" || entry.userId !== userId || !(String(entry.collection) in BENCH_COLLECTIONS)) continue;
    out.collections++;
    out.ingestMs += Number(entry.ingestMs ?? 0);
    out.mapMs += Number(entry.mapMs ?? 0);
    out.documents += Number(entry.documents ?? 0);
    out.pages += Number(entry.pages ?? 0);
  }
  return out;
}

/** A fresh SQLite file with Ringside's schema (every migration), and the app's pragmas. */
export async function createSchemaDatabase(file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  const { applyPendingMigrations } = (await import("../../lib/db/migrate.mjs")) as {
    applyPendingMigrations: (dbFile: string, dir: string) => string[];
  };
  applyPendingMigrations(file, path.resolve("prisma/migrations"));
}

function cell(v: unknown): string | number | null {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string") return v;
  return null;
}

/**
 * The baseline: the same documents upserted with one prepared statement per table in ONE
 * transaction, into a fresh database with the same schema and pragmas. Rows (typed columns
 * read straight off the document, its JSON text) are prepared before the clock starts, so
 * only SQLite's work is timed. Returns the milliseconds of the transaction.
 */
export function rawUpsertBaseline(file: string, userId: string, docs: ReadonlyMap<BenchCollection, readonly Doc[]>): { ms: number; rows: number } {
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    const syncedAt = new Date().toISOString().replace("Z", "+00:00");
    const work: Array<{ stmt: Database.Statement; rows: unknown[][] }> = [];
    let count = 0;
    for (const [collection, list] of docs) {
      const table = BENCH_COLLECTIONS[collection];
      const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name).filter((c) => c !== "id");
      const typed = columns.filter((c) => !["userId", "documentId", "day", "raw", "syncedAt"].includes(c));
      const byDay = getResource(collection).key === "day";
      const key = byDay ? `"userId", "day"` : `"userId", "documentId"`;
      const updatable = columns.filter((c) => c !== "userId" && !(byDay ? c === "day" : c === "documentId"));
      const stmt = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ` +
          `ON CONFLICT(${key}) DO UPDATE SET ${updatable.map((c) => `"${c}" = excluded."${c}"`).join(", ")}`,
      );
      const dayField = getResource(collection).dayField;
      const rows = list.map((d) => {
        const contributors = (d.contributors ?? {}) as Record<string, unknown>;
        const values: Record<string, unknown> = {
          userId,
          documentId: d.id ?? null,
          // the document's day (tags and rest mode: start_day; the ring's configuration: none)
          day: dayField ? d[dayField] : null,
          raw: JSON.stringify(d),
          syncedAt,
        };
        for (const c of typed) {
          values[c] = c === "spo2_average" ? (d.spo2_percentage as { average?: unknown } | null | undefined)?.average : (d[c] ?? contributors[c]);
        }
        return columns.map((c) => cell(values[c]));
      });
      count += rows.length;
      work.push({ stmt, rows });
    }
    const started = performance.now();
    db.transaction(() => {
      for (const { stmt, rows } of work) for (const r of rows) stmt.run(...r);
    })();
    return { ms: performance.now() - started, rows: count };
  } finally {
    db.close();
  }
}
