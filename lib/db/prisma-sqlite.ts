import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type Database from "better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlResultSet, Transaction } from "@prisma/driver-adapter-utils";
import { BUSY_TIMEOUT_MS, ensureDatabaseDir, pragmaScript } from "@/lib/db/sqlite.mjs";

// Prisma Client on SQLite, made safe for a server that answers many requests on one connection
// (docs/decisions/0031-prisma-client-at-run-time.md).
//
// Prisma's better-sqlite3 adapter (7.10) opens one connection, starts an interactive transaction
// with a plain (deferred) BEGIN and guards it with a lock that only other transactions wait for:
// a query from another request, made while a transaction is open across awaits, runs on the same
// connection inside that transaction, and is rolled back with it. This adapter wraps it:
// - a transaction begins with BEGIN IMMEDIATE (the write lock at once, so it never fails half-way
//   on a lock another connection took after its first read);
// - every query outside a transaction, and every other transaction, waits at one gate until the
//   open transaction has committed or rolled back: first come, first served, asynchronously (the
//   event loop goes on meanwhile);
// - the gate is the process's (sqliteGate in lib/db/prisma.ts), so other code of the process that
//   writes the same file on another connection can wait at it too (the ingest store, lib/db/ingest),
//   instead of blocking the event loop in SQLite's busy wait on a lock that this process itself holds.

/** One holder at a time, first come, first served. */
export class SqliteGate {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** Whether someone holds the gate or waits for it. */
  get busy(): boolean {
    return this.#held || this.#waiting.length > 0;
  }

  /** Resolves once the gate is the caller's, with the function that gives it back (once; later calls do nothing). */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const take = () => {
        this.#held = true;
        let given = false;
        resolve(() => {
          if (given) return;
          given = true;
          this.#held = false;
          this.#waiting.shift()?.();
        });
      };
      if (this.busy) this.#waiting.push(take);
      else take();
    });
  }

  /** Runs `fn` holding the gate. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** A transaction on the one connection: its queries go straight through (it holds the gate); commit and rollback give the gate back. */
class GatedTransaction implements Transaction {
  readonly options = { usePhantomQuery: false };
  readonly provider: Transaction["provider"];
  readonly adapterName: string;
  #release: (() => void) | null;

  constructor(
    private readonly connection: SqlDriverAdapter,
    release: () => void,
  ) {
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
    this.#release = release;
  }

  #open(): SqlDriverAdapter {
    if (!this.#release) throw new Error("The SQLite transaction has ended.");
    return this.connection;
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.#open().queryRaw(query);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.#open().executeRaw(query);
  }

  // Prisma sends COMMIT (or ROLLBACK) itself before these (usePhantomQuery: false).
  async commit(): Promise<void> {
    this.#end();
  }

  async rollback(): Promise<void> {
    // Prisma calls this after its ROLLBACK, and also when its COMMIT failed: a transaction still
    // open then is rolled back here, so the next holder of the gate never runs inside it.
    // (Prisma's adapter throws its errors before it returns a promise: awaited inside the try.)
    try {
      await this.connection.executeScript("ROLLBACK");
    } catch {
      // none was open: the usual case
    } finally {
      this.#end();
    }
  }

  async createSavepoint(name: string): Promise<void> {
    await this.#open().executeRaw(statement(`SAVEPOINT ${name}`));
  }

  async rollbackToSavepoint(name: string): Promise<void> {
    await this.#open().executeRaw(statement(`ROLLBACK TO ${name}`));
  }

  async releaseSavepoint(name: string): Promise<void> {
    await this.#open().executeRaw(statement(`RELEASE SAVEPOINT ${name}`));
  }

  #end(): void {
    const release = this.#release;
    this.#release = null;
    release?.();
  }
}

/** Prisma's better-sqlite3 connection behind the gate. */
class GatedSqliteAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter["provider"];
  readonly adapterName: string;

  constructor(
    private readonly connection: SqlDriverAdapter,
    private readonly gate: SqliteGate,
  ) {
    this.provider = connection.provider;
    this.adapterName = connection.adapterName;
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.gate.run(() => this.connection.queryRaw(query));
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.gate.run(() => this.connection.executeRaw(query));
  }

  executeScript(script: string): Promise<void> {
    return this.gate.run(() => this.connection.executeScript(script));
  }

  // SQLite's transactions are serializable whatever is asked (the SQLite client's types offer no other level).
  async startTransaction(): Promise<Transaction> {
    const release = await this.gate.acquire();
    try {
      await this.connection.executeScript("BEGIN IMMEDIATE");
    } catch (err) {
      release();
      throw err;
    }
    return new GatedTransaction(this.connection, release);
  }

  dispose(): Promise<void> {
    return this.connection.dispose();
  }
}

/** How many statements a connection keeps prepared (least recently used out first). */
export const STATEMENT_CACHE_SIZE = 256;

/** A prepared statement as Prisma's adapter (7.10) uses it: `prepare(sql).bind(args)`, then `reader`, `run()`, `columns()`, `raw().all()`. */
type AdapterStatement = {
  bind(args: unknown[]): { reader: boolean; run(): Database.RunResult; columns(): Database.ColumnDefinition[]; raw(): { all(): unknown[] } };
};

/**
 * `db` with its statements kept prepared, keyed by their text. Prisma's adapter prepares every
 * query anew and binds it once (better-sqlite3 binds a statement only once): on the trends read
 * that was a twelfth of the server's busy time. The statement returned here binds per call
 * instead, so one prepared statement serves every call with that text. Statements run to the end
 * synchronously, so one is never in use twice at once.
 */
export function keepingStatements(db: Database.Database, size = STATEMENT_CACHE_SIZE): Database.Database {
  const cache = new Map<string, Database.Statement<unknown[]>>();
  const prepared = (sql: string): Database.Statement<unknown[]> => {
    let stmt = cache.get(sql);
    if (stmt) cache.delete(sql);
    else stmt = db.prepare<unknown[]>(sql);
    cache.set(sql, stmt);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return stmt;
  };
  const prepare = (sql: string): AdapterStatement => {
    const stmt = prepared(sql);
    return {
      bind: (args) => ({
        reader: stmt.reader,
        run: () => stmt.run(args),
        columns: () => stmt.columns(),
        raw: () => ({ all: () => stmt.raw(true).all(args) }),
      }),
    };
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return prepare;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Prisma's connection with its better-sqlite3 client keeping its statements (left as it is if a later adapter has no `client`). */
function withKeptStatements(connection: SqlDriverAdapter, size: number): SqlDriverAdapter {
  const holder = connection as SqlDriverAdapter & { client?: Database.Database };
  if (holder.client && typeof holder.client.prepare === "function") holder.client = keepingStatements(holder.client, size);
  return connection;
}

/**
 * The driver adapter for Prisma Client on a SQLite file: Prisma's better-sqlite3 connection with
 * Ringside's PRAGMAs and busy timeout (lib/db/sqlite.mjs) and its statements kept prepared, behind `gate`.
 */
export function gatedSqliteAdapter(file: string, gate: SqliteGate, options: { statementCacheSize?: number } = {}): SqlDriverAdapterFactory {
  const official = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS });
  return {
    provider: official.provider,
    adapterName: official.adapterName,
    async connect() {
      ensureDatabaseDir(file);
      const connection = withKeptStatements(await official.connect(), options.statementCacheSize ?? STATEMENT_CACHE_SIZE);
      await connection.executeScript(pragmaScript());
      return new GatedSqliteAdapter(connection, gate);
    },
  };
}
