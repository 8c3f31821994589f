// What Prisma Client sends to the database, counted at its driver adapter: the process's client
// made anew on a wrapped adapter (SQLite: the same file behind the process's gate; PostgreSQL: the
// process's pool), for tests that hold a path to "no write when nothing changed" on both
// databases (lib/sync/housekeeping.test.ts). Install it before anything of the app has used
// `prisma()`: it becomes the process's client.
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlResultSet, Transaction } from "@prisma/driver-adapter-utils";

export type StatementLog = {
  /** transactions begun (Prisma's interactive and batch transactions: BEGIN, or BEGIN IMMEDIATE on SQLite) */
  transactions: number;
  /** every statement's text, in the order sent (inside transactions and outside) */
  statements: string[];
};

/** The statements of a log that change rows (INSERT, UPDATE, DELETE, REPLACE). */
export const writeStatements = (log: StatementLog): string[] => log.statements.filter((sql) => /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql));

class CountedTransaction implements Transaction {
  readonly options: Transaction["options"];
  readonly provider: Transaction["provider"];
  readonly adapterName: string;

  constructor(
    private readonly inner: Transaction,
    private readonly log: StatementLog,
  ) {
    this.options = inner.options;
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    this.log.statements.push(query.sql);
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    this.log.statements.push(query.sql);
    return this.inner.executeRaw(query);
  }

  commit(): Promise<void> {
    return this.inner.commit();
  }

  rollback(): Promise<void> {
    return this.inner.rollback();
  }

  async createSavepoint(name: string): Promise<void> {
    await this.inner.createSavepoint?.(name);
  }

  async rollbackToSavepoint(name: string): Promise<void> {
    await this.inner.rollbackToSavepoint?.(name);
  }

  async releaseSavepoint(name: string): Promise<void> {
    await this.inner.releaseSavepoint?.(name);
  }
}

class CountedAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter["provider"];
  readonly adapterName: string;

  constructor(
    private readonly inner: SqlDriverAdapter,
    private readonly log: StatementLog,
  ) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    if (inner.getConnectionInfo) this.getConnectionInfo = () => inner.getConnectionInfo!();
  }

  getConnectionInfo?: SqlDriverAdapter["getConnectionInfo"];

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    this.log.statements.push(query.sql);
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    this.log.statements.push(query.sql);
    return this.inner.executeRaw(query);
  }

  executeScript(script: string): Promise<void> {
    this.log.statements.push(script);
    return this.inner.executeScript(script);
  }

  async startTransaction(...args: Parameters<SqlDriverAdapter["startTransaction"]>): Promise<Transaction> {
    this.log.transactions++;
    return new CountedTransaction(await this.inner.startTransaction(...args), this.log);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** `factory`'s connections, their statements and transactions counted into `log`. */
export function countedAdapter(factory: SqlDriverAdapterFactory, log: StatementLog): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => new CountedAdapter(await factory.connect(), log),
  };
}

/** The log, `reset()` that empties it, and `since(fn)` that runs `fn` and returns what it sent. */
export type StatementCounter = { log: StatementLog; reset: () => void; since: (fn: () => Promise<unknown>) => Promise<StatementLog> };

/**
 * Makes the process's Prisma client (lib/db/prisma.ts `prisma()`) one whose statements are
 * counted, on the test file's database; fails when the process already has its client.
 */
export async function countProcessStatements(): Promise<StatementCounter> {
  const { env } = await import("@/lib/env.mjs");
  const { clientOn, postgresAdapter, sqliteGate } = await import("@/lib/db/prisma");
  const { gatedSqliteAdapter } = await import("@/lib/db/prisma-sqlite");
  const { postgresPool } = await import("@/lib/db/client");
  const { sqliteFile } = await import("@/lib/db/sqlite.mjs");
  const { processSingleton } = await import("@/lib/process-singleton");
  const log: StatementLog = { transactions: 0, statements: [] };
  const base = /^postgres(ql)?:\/\//.test(env.DATABASE_URL) ? postgresAdapter(postgresPool) : gatedSqliteAdapter(sqliteFile(env.DATABASE_URL), sqliteGate());
  const client = clientOn(countedAdapter(base, log));
  if (processSingleton("prisma", () => client) !== client) throw new Error("The process's Prisma client was made before the statement counter.");
  const reset = () => {
    log.transactions = 0;
    log.statements.length = 0;
  };
  return {
    log,
    reset,
    since: async (fn) => {
      reset();
      await fn();
      return { transactions: log.transactions, statements: [...log.statements] };
    },
  };
}
