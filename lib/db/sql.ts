import "server-only";
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type pg from "pg";
import { env } from "@/lib/env.mjs";
import { rawDb } from "@/lib/db/client";
import { createPostgresPool, inTransaction } from "@/lib/db/postgres";
import { toPostgresSql } from "@/lib/db/dialect";

// Raw SQL written once for both databases. A query module writes its work as a generator of
// statements (`yield* all(…)`, `yield* get(…)`, `yield* run(…)`), and one of two drivers runs it:
// - SQLite (`file:`): synchronously, on the hot paths' connection (lib/db/client.ts rawDb), a
//   transaction being one IMMEDIATE transaction that never spans an event-loop turn (so nothing
//   else of the process can slip into it, and no lock is held across an await);
// - PostgreSQL (`postgresql://`): asynchronously on the process's pool, a transaction on one
//   pooled connection, the SQL translated once per text (lib/db/dialect.ts toPostgresSql).
// The statements are SQLite's words with `?` parameters; what differs beyond what the
// translation covers is chosen with `dialect()` next to the query.

export type SqlValue = string | number | bigint | boolean | Buffer | Uint8Array | null | ReadonlyArray<string | number | boolean | null>;

type Op = { kind: "all" | "get" | "run"; sql: string; params: SqlValue[] };

/** A unit of database work: yields statements, returns its result. */
export type Work<T> = Generator<Op, T, unknown>;

/** Every row of a statement. */
export function* all<T>(sql: string, ...params: SqlValue[]): Work<T[]> {
  return (yield { kind: "all", sql, params }) as T[];
}

/** The first row of a statement, if any. */
export function* get<T>(sql: string, ...params: SqlValue[]): Work<T | undefined> {
  return (yield { kind: "get", sql, params }) as T | undefined;
}

/** Runs a statement; returns the number of rows it changed. */
export function* run(sql: string, ...params: SqlValue[]): Work<number> {
  return (yield { kind: "run", sql, params }) as number;
}

export type Dialect = "sqlite" | "postgres";

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/** The database the process runs on (DATABASE_URL). */
export function dialect(): Dialect {
  return dialectOf(env.DATABASE_URL);
}

/** A statement in the words of the database the process runs on (for Prisma's raw queries). */
export function inDialect(sql: string): string {
  return dialect() === "postgres" ? toPostgresSql(sql) : sql;
}

// ---------------------------------------------------------------------------------------------
// SQLite

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepared(db: Database.Database, sql: string): Database.Statement {
  let m = statements.get(db);
  if (!m) statements.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

const sqliteParam = (v: SqlValue) => (typeof v === "boolean" ? (v ? 1 : 0) : v);

function runSqlite<T>(db: Database.Database, work: Work<T>): T {
  let step = work.next();
  while (!step.done) {
    const { kind, sql, params } = step.value;
    let result: unknown;
    try {
      const st = prepared(db, sql);
      const args = params.map(sqliteParam);
      result = kind === "all" ? st.all(...args) : kind === "get" ? st.get(...args) : st.run(...args).changes;
    } catch (err) {
      step = work.throw(err);
      continue;
    }
    step = work.next(result);
  }
  return step.value;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

const globalForPg = globalThis as unknown as { ringsidePgPool?: pg.Pool };

/** The process's PostgreSQL pool (opened on first use). */
export function postgresPool(): pg.Pool {
  return (globalForPg.ringsidePgPool ??= createPostgresPool(env.DATABASE_URL, { max: env.DATABASE_POOL_SIZE }));
}

const translated = new Map<string, { text: string; name: string }>();

/** The statement's PostgreSQL text, and a name under which each connection prepares it once. */
function pgStatement(sql: string): { text: string; name: string } {
  let st = translated.get(sql);
  if (st === undefined) {
    const text = toPostgresSql(sql);
    st = { text, name: `rs_${createHash("sha1").update(text).digest("hex").slice(0, 24)}` };
    translated.set(sql, st);
  }
  return st;
}

// PostgreSQL's text cannot hold NUL (SQLite's can): a NUL that reached a raw statement (an id in
// a URL, a field of a ring document) becomes U+FFFD there, so a lookup finds nothing and a write
// keeps the rest of the text, where it would otherwise fail. The raw JSON keeps the original.
const noNul = (s: string) => (s.includes("\u0000") ? s.replaceAll("\u0000", "\uFFFD") : s);
const pgParam = (v: SqlValue): unknown =>
  typeof v === "string" ? noNul(v) : Array.isArray(v) ? v.map((x) => (typeof x === "string" ? noNul(x) : x)) : v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v;

async function runPostgres<T>(client: pg.Pool | pg.PoolClient, work: Work<T>): Promise<T> {
  let step = work.next();
  while (!step.done) {
    const { kind, sql, params } = step.value;
    let result: unknown;
    try {
      const { text, name } = pgStatement(sql);
      const res = await client.query({ name, text, values: params.map(pgParam) });
      result = kind === "all" ? res.rows : kind === "get" ? res.rows[0] : (res.rowCount ?? 0);
    } catch (err) {
      step = work.throw(err);
      continue;
    }
    step = work.next(result);
  }
  return step.value;
}

// ---------------------------------------------------------------------------------------------
// The two entry points

/** One trivial statement on the process's own connections: whether the database answers (the outage probe). */
export async function pingDatabase(): Promise<void> {
  await query(get("SELECT 1"));
}

/** Runs work statement by statement (no transaction: each statement on its own). */
export function query<T>(work: Work<T>): Promise<T> {
  if (dialect() === "postgres") return runPostgres(postgresPool(), work);
  try {
    return Promise.resolve(runSqlite(rawDb(), work));
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

/** Runs work in one write transaction: committed whole, or rolled back on a throw. */
export function transaction<T>(work: () => Work<T>): Promise<T> {
  if (dialect() === "postgres") return inTransaction(postgresPool(), (c) => runPostgres(c, work()));
  try {
    const db = rawDb();
    return Promise.resolve(db.transaction(() => runSqlite(db, work())).immediate());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

/**
 * Runs `fn` holding a lock that every process on the database shares: a PostgreSQL advisory lock
 * (session-level, on a pooled connection held meanwhile); on SQLite, one process per file serves
 * sign-ins, so `fn` runs as it is (callers serialise within the process).
 */
export async function withDatabaseLock<T>(key: number, fn: () => Promise<T>): Promise<T> {
  if (dialect() !== "postgres") return fn();
  const c = await postgresPool().connect();
  try {
    await c.query("SELECT pg_advisory_lock($1)", [key]);
    try {
      return await fn();
    } finally {
      await c.query("SELECT pg_advisory_unlock($1)", [key]);
    }
  } finally {
    c.release();
  }
}
