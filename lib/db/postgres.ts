import "server-only";
import pg from "pg";
import { clock } from "@/lib/clock";
import { backoffDelay } from "@/lib/limits/backoff";

// PostgreSQL connections, opened one way (the counterpart of lib/db/sqlite.mjs): a pool whose
// sessions run in UTC. Prisma Client's pg adapter runs on it with its own type parsers; the
// ingest store (lib/db/ingest) reads through the pool's, whose timestamps (Prisma's
// `TIMESTAMP(3)`, UTC without a zone) come back in the same text form as SQLite's (Prisma's
// "…+00:00"), never through the server's local time zone. Parameters are ISO strings, whose
// zone PostgreSQL ignores for such columns, so what goes in comes back unchanged.

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

const timestampAsDbTime = (text: string) => new Date(`${text.replace(" ", "T")}Z`).toISOString().replace("Z", "+00:00");

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

export type PostgresListener = { stop(): Promise<void> };

/**
 * Listens on a channel (LISTEN) on a connection of its own, outside the pool: a pooled connection
 * goes back to the pool between queries and would stop listening. When the connection is lost (a
 * restart of the server, an outage) it is opened again with backoff (0.5 s doubling to 10 s).
 * `onListening` is called each time the LISTEN holds (again): what was notified before is missed.
 */
export function listenPostgres(
  url: string,
  channel: string,
  handlers: { onNotification: (payload: string) => void; onListening: () => void },
): PostgresListener {
  const stopped = new AbortController();
  let client: pg.Client | null = null;
  const run = async () => {
    for (let attempt = 0; !stopped.signal.aborted;) {
      const c = new pg.Client({ connectionString: url, application_name: "ringside-listen" });
      const lost = new Promise<void>((resolve) => {
        c.on("error", () => resolve());
        c.on("end", () => resolve());
      });
      try {
        await c.connect();
        c.on("notification", (n) => {
          if (n.channel === channel) handlers.onNotification(n.payload ?? "");
        });
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = c;
        attempt = 0;
        handlers.onListening();
        await Promise.race([lost, new Promise((resolve) => stopped.signal.addEventListener("abort", resolve, { once: true }))]);
      } catch {
        // not reachable now: try again after the backoff
      }
      client = null;
      await c.end().catch(() => undefined);
      if (stopped.signal.aborted) return;
      await clock.sleep(backoffDelay(attempt++, { baseMs: 500, maxMs: 10_000 }), stopped.signal).catch(() => undefined);
    }
  };
  const done = run();
  return {
    stop: async () => {
      stopped.abort();
      await client?.end().catch(() => undefined);
      await done;
    },
  };
}
