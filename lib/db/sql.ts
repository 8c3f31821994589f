import "server-only";
import { createHash } from "node:crypto";
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { env } from "@/lib/env.mjs";
import { postgresPool, rawDb } from "@/lib/db/client";
import { toPostgresSql } from "@/lib/db/dialect";
import { sqliteGate } from "@/lib/db/prisma";
import { processSingleton } from "@/lib/process-singleton";

// Raw SQL written once for both databases. A query module writes its work as a generator of
// statements (`yield* all(…)`, `yield* get(…)`, `yield* run(…)`), and one of two drivers runs it:
// - SQLite (`file:`): synchronously, on the hot paths' connection (lib/db/client.ts rawDb), a
//   transaction being one IMMEDIATE transaction that never spans an event-loop turn (so nothing
//   else of the process can slip into it, and no lock is held across an await);
// - PostgreSQL (`postgresql://`): asynchronously on the process's pool, a transaction on one
//   pooled connection, the SQL translated once per text (lib/db/dialect.ts toPostgresSql).
// The statements are SQLite's words with `?` parameters; what differs beyond what the
// translation covers is chosen next to the query by the database the work runs on
// (`yield* sqlDialect()` inside work, `database.dialect` outside it): the one dialect switch.
// Every table is read and written this way; Prisma keeps the schema and the migrations.

export type SqlValue = string | number | bigint | boolean | Buffer | Uint8Array | null | ReadonlyArray<string | number | boolean | null>;

type Statement = { kind: "all" | "get" | "run"; sql: string; params: SqlValue[] };
type Op = Statement | { kind: "dialect" };

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

/** The database the work runs on, for the few statements the two write differently (the one dialect switch). */
export function* sqlDialect(): Work<Dialect> {
  return (yield { kind: "dialect" }) as Dialect;
}

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/** The database the process runs on (DATABASE_URL). */
export function dialect(): Dialect {
  return dialectOf(env.DATABASE_URL);
}

/** A database to run work on: the two drivers below, the process's own (processDatabase) or another (tests). */
export type Database = {
  readonly dialect: Dialect;
  /** Runs work statement by statement (no transaction: each statement on its own). */
  query<T>(work: Work<T>): Promise<T>;
  /** Runs work in one write transaction: committed whole, or rolled back on a throw. */
  transaction<T>(work: () => Work<T>): Promise<T>;
};

// ---------------------------------------------------------------------------------------------
// The one loop of both drivers

/**
 * Runs work: answers its dialect questions with `d`, runs each statement with `exec` and hands
 * the work the result, or throws the statement's error into the work (which may catch it).
 * With a synchronous `exec` (SQLite) the work runs to its end in this turn and its result is
 * returned; with an asynchronous one (PostgreSQL) it goes on as each statement answers.
 */
function drive<T>(work: Work<T>, d: Dialect, exec: (op: Statement) => Promise<unknown>, step?: IteratorResult<Op, T>): Promise<T>;
function drive<T>(work: Work<T>, d: Dialect, exec: (op: Statement) => unknown, step?: IteratorResult<Op, T>): T;
function drive<T>(work: Work<T>, d: Dialect, exec: (op: Statement) => unknown, step: IteratorResult<Op, T> = work.next()): T | Promise<T> {
  while (!step.done) {
    const op = step.value;
    if (op.kind === "dialect") {
      step = work.next(d);
      continue;
    }
    let result: unknown;
    try {
      result = exec(op);
    } catch (err) {
      step = work.throw(err);
      continue;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => drive(work, d, exec, work.next(value)),
        (err: unknown) => drive(work, d, exec, work.throw(err)),
      );
    }
    step = work.next(result);
  }
  return step.value;
}

// ---------------------------------------------------------------------------------------------
// SQLite

const statements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function prepared(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let m = statements.get(db);
  if (!m) statements.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

const sqliteParam = (v: SqlValue) => (typeof v === "boolean" ? (v ? 1 : 0) : v);

function runSqlite<T>(db: BetterSqlite3.Database, work: Work<T>): T {
  return drive(work, "sqlite", (op) => {
    const st = prepared(db, op.sql);
    const args = op.params.map(sqliteParam);
    return op.kind === "all" ? st.all(...args) : op.kind === "get" ? st.get(...args) : st.run(...args).changes;
  });
}

/**
 * SQLite: work runs synchronously on one connection (`open()`, by default the process's), a
 * transaction being one IMMEDIATE transaction that never spans an event-loop turn.
 */
export function sqliteDatabase(open: () => BetterSqlite3.Database = rawDb): Database {
  const now = <T>(fn: () => T): Promise<T> => {
    // Prisma Client writes the same file on its own connection: while one of its transactions
    // is open (or waits), this work waits its turn at the process's gate, asynchronously, never
    // in SQLite's busy wait on a lock the process itself holds (docs/decisions/0031).
    const gate = sqliteGate();
    if (gate.busy) return gate.run(async () => fn());
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };
  return {
    dialect: "sqlite",
    query: (work) => now(() => runSqlite(open(), work)),
    transaction: (work) =>
      now(() => {
        const db = open();
        return db.transaction(() => runSqlite(db, work())).immediate();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

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
  typeof v === "string"
    ? noNul(v)
    : Array.isArray(v)
      ? v.map((x) => (typeof x === "string" ? noNul(x) : x))
      : v instanceof Uint8Array && !Buffer.isBuffer(v)
        ? Buffer.from(v)
        : v;

async function runPostgres<T>(client: pg.Pool | pg.PoolClient, work: Work<T>): Promise<T> {
  return drive(work, "postgres", async (op) => {
    const { text, name } = pgStatement(op.sql);
    const res = await client.query({ name, text, values: op.params.map(pgParam) });
    return op.kind === "all" ? res.rows : op.kind === "get" ? res.rows[0] : (res.rowCount ?? 0);
  });
}

/** Runs `work` in one transaction on one pooled connection: committed, or rolled back on a throw. */
async function inTransaction<T>(pool: pg.Pool, work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    const result = await work(c);
    await c.query("COMMIT");
    return result;
  } catch (err) {
    await c.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

/**
 * PostgreSQL: work runs on a pool (or one still being opened: the driver loads only on a
 * PostgreSQL server), each statement translated once per text (lib/db/dialect.ts toPostgresSql)
 * and prepared once per connection; a transaction holds one pooled connection.
 */
export function postgresDatabase(pool: pg.Pool | Promise<pg.Pool>): Database {
  const ready = Promise.resolve(pool);
  return {
    dialect: "postgres",
    query: async (work) => runPostgres(await ready, work),
    transaction: async (work) => inTransaction(await ready, (c) => runPostgres(c, work())),
  };
}

// ---------------------------------------------------------------------------------------------
// The process's database

/** The database the process runs on (DATABASE_URL): SQLite's file or PostgreSQL's pool. */
export function processDatabase(): Database {
  return processSingleton("database", () => (dialect() === "postgres" ? postgresDatabase(postgresPool()) : sqliteDatabase()));
}

/** Runs work on the process's database, statement by statement. */
export function query<T>(work: Work<T>): Promise<T> {
  return processDatabase().query(work);
}

/** Runs work on the process's database in one write transaction. */
export function transaction<T>(work: () => Work<T>): Promise<T> {
  return processDatabase().transaction(work);
}
