import "server-only";
import { createHash } from "node:crypto";
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { env } from "@/lib/env.mjs";
import { postgresPool, rawDb } from "@/lib/db/client";
import { sqliteGate } from "@/lib/db/prisma";
import { processSingleton } from "@/lib/process-singleton";

// The ingest store's driver (docs/decisions/0031-prisma-client-at-run-time.md, its exception): the
// two hot write paths of the sync (a page's commit, a time series' day merge) run here on
// better-sqlite3 or pg directly, because Prisma Client costs 5-7 times as much on them. Everything
// else goes through Prisma Client (lib/db/prisma.ts).
//
// A write is a generator of statements (`yield* run(st, …)`), run in one transaction by one of two
// drivers:
// - SQLite: synchronously on the process's raw connection (lib/db/client.ts rawDb), one IMMEDIATE
//   transaction that never spans an event-loop turn; it waits at the process's gate
//   (lib/db/prisma-sqlite.ts) while a Prisma Client transaction is open, never in SQLite's busy
//   wait on a lock the process itself holds;
// - PostgreSQL: on the process's pool, the transaction on one pooled connection.
// Statements are fixed: each is written in both forms side by side (`statement(name, { sqlite,
// postgres })`), picked by the database; no text is rewritten at run time. SQLite prepares each
// once per connection; PostgreSQL prepares each once per connection under its name.

export type IngestValue = string | number | bigint | boolean | Buffer | Uint8Array | null | ReadonlyArray<string | number | boolean | null>;

export type IngestProvider = "sqlite" | "postgresql";

/** One statement in SQLite's words and PostgreSQL's, under a name unique in the store (PostgreSQL prepares it under that name). */
export type Statement = { readonly name: string; readonly sqlite: string; readonly postgres: string };

const names = new Map<string, string>();

/** Declares a statement (once, at module load or once per registry table): both forms, one name. */
export function statement(name: string, forms: { sqlite: string; postgres: string }): Statement {
  const key = `${forms.sqlite}\u0000${forms.postgres}`;
  const known = names.get(name);
  if (known !== undefined && known !== key) throw new Error(`two ingest statements are named ${name}`);
  names.set(name, key);
  // PostgreSQL names are at most 63 bytes: a longer one (a checkpoint of many fields) is shortened by a digest
  const full = `ingest_${name}`;
  const pgName = full.length <= 63 ? full : `${full.slice(0, 40)}_${createHash("sha1").update(full).digest("hex").slice(0, 16)}`;
  return { name: pgName, ...forms };
}

type Step = { kind: "all" | "get" | "run"; st: Statement; params: IngestValue[] };
type Op = Step | { kind: "provider" };

/** A unit of ingest work: yields statements, returns its result. */
export type Work<T> = Generator<Op, T, unknown>;

/** Every row of a statement (rows are typed by the statement's author: the store's own columns). */
export function* all<T>(st: Statement, ...params: IngestValue[]): Work<T[]> {
  return (yield { kind: "all", st, params }) as T[];
}

/** The first row of a statement, if any. */
export function* get<T>(st: Statement, ...params: IngestValue[]): Work<T | undefined> {
  return (yield { kind: "get", st, params }) as T | undefined;
}

/** Runs a statement; returns the number of rows it changed. */
export function* run(st: Statement, ...params: IngestValue[]): Work<number> {
  return (yield { kind: "run", st, params }) as number;
}

/** The database the work runs on, for the few writes whose steps differ (a page as one statement of arrays on PostgreSQL). */
export function* provider(): Work<IngestProvider> {
  return (yield { kind: "provider" }) as IngestProvider;
}

/** Where ingest work runs: the process's database (ingestDb) or another (tests). */
export type IngestDb = {
  readonly provider: IngestProvider;
  /** Runs work in one write transaction: committed whole, or rolled back on a throw. */
  transaction<T>(work: () => Work<T>): Promise<T>;
};

/**
 * Runs work: answers its provider question with `p`, runs each statement with `exec` and hands
 * the work the result, or throws the statement's error into the work. With a synchronous `exec`
 * (SQLite) the work runs to its end in this turn; with an asynchronous one (PostgreSQL) it goes
 * on as each statement answers.
 */
function drive<T>(work: Work<T>, p: IngestProvider, exec: (op: Step) => Promise<unknown>, step?: IteratorResult<Op, T>): Promise<T>;
function drive<T>(work: Work<T>, p: IngestProvider, exec: (op: Step) => unknown, step?: IteratorResult<Op, T>): T;
function drive<T>(work: Work<T>, p: IngestProvider, exec: (op: Step) => unknown, step: IteratorResult<Op, T> = work.next()): T | Promise<T> {
  while (!step.done) {
    const op = step.value;
    if (op.kind === "provider") {
      step = work.next(p);
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
        (value: unknown) => drive(work, p, exec, work.next(value)),
        (err: unknown) => drive(work, p, exec, work.throw(err)),
      );
    }
    step = work.next(result);
  }
  return step.value;
}

// ---------------------------------------------------------------------------------------------
// SQLite

const prepared = new WeakMap<BetterSqlite3.Database, Map<Statement, BetterSqlite3.Statement>>();

function preparedOn(db: BetterSqlite3.Database, st: Statement): BetterSqlite3.Statement {
  let m = prepared.get(db);
  if (!m) prepared.set(db, (m = new Map()));
  let s = m.get(st);
  if (!s) m.set(st, (s = db.prepare(st.sqlite)));
  return s;
}

const sqliteParam = (v: IngestValue) => (typeof v === "boolean" ? (v ? 1 : 0) : v);

function runSqlite<T>(db: BetterSqlite3.Database, work: Work<T>): T {
  return drive(work, "sqlite", (op) => {
    const s = preparedOn(db, op.st);
    const args = op.params.map(sqliteParam);
    return op.kind === "all" ? s.all(...args) : op.kind === "get" ? s.get(...args) : s.run(...args).changes;
  });
}

/** SQLite: work runs synchronously in one IMMEDIATE transaction on `open()` (by default the process's raw connection). */
export function sqliteIngest(open: () => BetterSqlite3.Database = rawDb): IngestDb {
  const now = <T>(fn: () => T): Promise<T> => {
    // Prisma Client writes the same file on its own connection: while one of its transactions is
    // open (or waits), this work waits its turn at the process's gate, asynchronously.
    const gate = sqliteGate();
    if (gate.busy) return gate.run(async () => fn());
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };
  return {
    provider: "sqlite",
    transaction: (work) =>
      now(() => {
        const db = open();
        return db.transaction(() => runSqlite(db, work())).immediate();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

// PostgreSQL's text cannot hold NUL (SQLite's can): a NUL in a field of a ring document becomes
// U+FFFD there, where the write would otherwise fail. The raw JSON keeps the original.
const noNul = (s: string) => (s.includes("\u0000") ? s.replaceAll("\u0000", "\uFFFD") : s);
const pgParam = (v: IngestValue): unknown =>
  typeof v === "string"
    ? noNul(v)
    : Array.isArray(v)
      ? v.map((x) => (typeof x === "string" ? noNul(x) : x))
      : v instanceof Uint8Array && !Buffer.isBuffer(v)
        ? Buffer.from(v)
        : v;

async function runPostgres<T>(client: pg.PoolClient, work: Work<T>): Promise<T> {
  return drive(work, "postgresql", async (op) => {
    const res = await client.query({ name: op.st.name, text: op.st.postgres, values: op.params.map(pgParam) });
    return op.kind === "all" ? res.rows : op.kind === "get" ? res.rows[0] : (res.rowCount ?? 0);
  });
}

/** PostgreSQL: work runs in one transaction on one connection of `pool` (or of one still being opened: the driver loads only on a PostgreSQL server). */
export function postgresIngest(pool: pg.Pool | Promise<pg.Pool>): IngestDb {
  const ready = Promise.resolve(pool);
  return {
    provider: "postgresql",
    transaction: async (work) => {
      const c = await (await ready).connect();
      try {
        await c.query("BEGIN");
        const result = await runPostgres(c, work());
        await c.query("COMMIT");
        return result;
      } catch (err) {
        await c.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------

/** The ingest store on the process's database (DATABASE_URL). */
export function ingestDb(): IngestDb {
  return processSingleton("ingestDb", () => (/^postgres(ql)?:\/\//.test(env.DATABASE_URL) ? postgresIngest(postgresPool()) : sqliteIngest()));
}

/** Runs work on the process's database in one write transaction. */
export function ingestTransaction<T>(work: () => Work<T>): Promise<T> {
  return ingestDb().transaction(work);
}

/** A quoted identifier (a table or column name from the registry, never from a request). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `?, ?, …` (SQLite) and `$from, $from+1, …` (PostgreSQL): the placeholders of `n` parameters. */
export function placeholders(n: number, from = 1): { sqlite: string; postgres: string } {
  const idx = Array.from({ length: n }, (_, i) => i);
  return { sqlite: idx.map(() => "?").join(", "), postgres: idx.map((i) => `$${from + i}`).join(", ") };
}

/** A DateTime value as Prisma stores it on SQLite ("…T…+00:00"); PostgreSQL's timestamp(3) takes the same text (its zone ignored, the session's is UTC). */
export function dbTime(value: Date): string {
  return value.toISOString().replace("Z", "+00:00");
}
