import "server-only";
import pg from "pg";
import { toDbTime } from "@/lib/db/dialect";

// PostgreSQL connections, opened one way (the counterpart of lib/db/sqlite.mjs): a pool whose
// sessions run in UTC and whose timestamps (Prisma's `TIMESTAMP(3)`, UTC without a zone) come
// back in the same text form as SQLite's (lib/db/dialect.ts toDbTime), never through the
// server's local time zone. Parameters are ISO strings, whose zone PostgreSQL ignores for
// such columns, so what goes in comes back unchanged.

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const BOOL_OID = 16;

// Values as SQLite gives them back, so a row reads the same on both databases: counts and sums
// (int8, numeric) are numbers, not strings; booleans are 1 and 0.
const parsers: Record<number, (text: string) => unknown> = {
  [TIMESTAMP_OID]: (text) => timestampAsDbTime(text),
  [INT8_OID]: Number,
  [NUMERIC_OID]: Number,
  [BOOL_OID]: (text) => (text === "t" ? 1 : 0),
};

const timestampAsDbTime = (text: string) => toDbTime(new Date(`${text.replace(" ", "T")}Z`));

/**
 * A pool; an idle connection the server drops (a restart, an outage) is removed from it quietly:
 * the next query finds out for itself (and an error event without a listener would end the process).
 */
export function createPostgresPool(url: string, opts: { max?: number; applicationName?: string } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? "ringside",
    options: "-c TimeZone=UTC",
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        format !== "binary" && parsers[oid] ? parsers[oid] : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on("error", () => undefined);
  // a connection checked out (a transaction, an advisory lock) that the server ends reports it on
  // its own client: the query on it fails and says so; without a listener the event would end the process
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}
