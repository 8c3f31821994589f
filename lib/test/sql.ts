// Raw reads and writes for tests, on whichever database the test file runs: the process's raw
// SQLite connection (waiting at the process's gate like the ingest store) or its PostgreSQL pool.
// Tests write one statement text in SQLite's words with `?` parameters; for PostgreSQL it is
// translated here (`?` to `$n`, mixed-case names quoted, INSERT OR IGNORE). Test code only: the
// app writes both forms of its statements side by side (lib/db/ingest) or uses Prisma Client.
// Values come back as the raw drivers give them (SQLite: text times, 1/0; the pool: the same,
// lib/db/postgres.ts). The app's modules are imported on first use, so a test file that sets its
// environment before importing them may import this at the top.

export type SqlValue = string | number | bigint | boolean | Buffer | Uint8Array | null;

/** A statement in SQLite's words, in PostgreSQL's (quoted names and strings are kept as they are). */
export function toPostgresSql(sql: string): string {
  let n = 0;
  const ignore = /^\s*INSERT OR IGNORE INTO\b/i.test(sql);
  const out = sql
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
    .map((part, i) => {
      if (i % 2 === 1) return part; // a string or a quoted identifier
      return part
        .replace(/\bINSERT OR IGNORE INTO\b/gi, "INSERT INTO")
        .replace(/\?/g, () => `$${++n}`)
        .replace(/(?<![\w$"])([a-z_][a-z0-9_]*[A-Z]\w*)/g, '"$1"');
    })
    .join("");
  return ignore ? `${out.trimEnd()} ON CONFLICT DO NOTHING` : out;
}

type Kind = "all" | "get" | "run";

async function exec(kind: Kind, text: string, params: SqlValue[]): Promise<unknown> {
  const { env } = await import("@/lib/env.mjs");
  if (/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    const { postgresPool } = await import("@/lib/db/client");
    const values = params.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v));
    const res = await (await postgresPool()).query(toPostgresSql(text), values);
    return kind === "all" ? res.rows : kind === "get" ? res.rows[0] : (res.rowCount ?? 0);
  }
  const { rawDb } = await import("@/lib/db/client");
  const { sqliteGate } = await import("@/lib/db/prisma");
  const go = () => {
    const st = rawDb().prepare(text);
    const args = params.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));
    return kind === "all" ? st.all(...args) : kind === "get" ? st.get(...args) : st.run(...args).changes;
  };
  const gate = sqliteGate();
  return gate.busy ? gate.run(async () => go()) : go();
}

export async function sqlAll<T = Record<string, unknown>>(text: string, ...params: SqlValue[]): Promise<T[]> {
  return (await exec("all", text, params)) as T[];
}

export async function sqlRun(text: string, ...params: SqlValue[]): Promise<number> {
  return (await exec("run", text, params)) as number;
}

/** The first column of the first row (a count, a status), or undefined. */
export async function sqlValue<T = unknown>(text: string, ...params: SqlValue[]): Promise<T | undefined> {
  const row = (await exec("get", text, params)) as Record<string, unknown> | undefined;
  return row ? (Object.values(row)[0] as T) : undefined;
}

/** Whether the test file runs on PostgreSQL. */
export async function onPostgres(): Promise<boolean> {
  const { env } = await import("@/lib/env.mjs");
  return /^postgres(ql)?:\/\//.test(env.DATABASE_URL);
}
