// Two merges into one day of a time series, from two connections (two processes after a lease
// lapsed): both pages' samples survive. On PostgreSQL the first merge is held inside its
// transaction — after its read of the day, or after inserting a day that was new — while the
// second runs: the day's row lock (or the insert that waits for the first one's commit) makes the
// second merge into what the first wrote. On SQLite a transaction never spans an event-loop turn
// (IMMEDIATE, synchronous), so the two merges run one after the other.
import BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { rawDb } from "@/lib/db";
import { sampleDaysMerge } from "@/lib/db/ingest/series";
import { decodeDay, type Sample } from "@/lib/db/sample-codec";
import { get, postgresIngest, sqliteIngest, statement, type IngestDb } from "@/lib/db/ingest/driver";
import { sampleSpecOf } from "@/lib/resources";
import { useMigratedPostgres } from "@/lib/test/postgres";
import { waitFor } from "@/lib/test/wait";

const pgDb = useMigratedPostgres("series");
const second = { db: undefined as BetterSqlite3.Database | undefined };
afterAll(() => second.db?.close());

const DAY = "2026-02-10";
const at = (hh: number, mm: number) => Date.parse(`${DAY}T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:00Z`);
const page = (hh: number, bpm: number): Sample[] => Array.from({ length: 6 }, (_, i) => ({ t: at(hh, i * 10), v: [bpm + i, "awake"] }));

function merge(db: IngestDb, userId: string, samples: Sample[]) {
  return db.transaction(() => sampleDaysMerge({ collection: "heartrate", userId, days: new Map([[DAY, samples]]) }));
}

const STORED = statement("test_stored_day", {
  sqlite: `SELECT samples FROM "heart_rate" WHERE "userId" = ? AND day = ?`,
  postgres: `SELECT samples FROM "heart_rate" WHERE "userId" = $1 AND day = $2`,
});

async function storedDay(db: IngestDb, userId: string): Promise<Sample[]> {
  const row = await db.transaction(() => get<{ samples: Buffer }>(STORED, userId, DAY));
  return row ? decodeDay(sampleSpecOf("heartrate"), DAY, row.samples) : [];
}

const byTime = (...pages: Sample[][]) => pages.flat().sort((a, b) => a.t - b.t);

/**
 * A pool standing for a process whose merge stops inside its transaction, just after the first
 * statement that matches `at` answered, until `release()`; `held` resolves when it stops there.
 */
function holdingPool(pool: pg.Pool, stopAfter: RegExp) {
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const held = new Promise<void>((r) => (reached = r));
  let stopped = false;
  const wrap = (client: pg.PoolClient): pg.PoolClient =>
    new Proxy(client, {
      get(target, prop) {
        if (prop === "query")
          return async (config: unknown, ...rest: unknown[]) => {
            const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(config, ...rest);
            const text = typeof config === "object" && config !== null ? String((config as { text?: unknown }).text) : String(config);
            if (!stopped && stopAfter.test(text)) {
              stopped = true;
              reached();
              await released;
            }
            return result;
          };
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  const holding = { connect: async () => wrap(await pool.connect()) } as unknown as pg.Pool;
  return { pool: holding, held, release };
}

/** Backends waiting on a lock in the test's PostgreSQL database. */
async function lockWaiters(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return Number(rows[0]!.n);
}

describe("two merges into one day on PostgreSQL, the first held inside its transaction", () => {
  const cases = [
    { name: "a day already stored: the second waits for the first's row lock", existing: true, stopAfter: /^SELECT samples FROM/, secondWaits: true },
    {
      name: "a new day, the first held after its read: the second inserts it, the first merges into it",
      existing: false,
      stopAfter: /^SELECT samples FROM/,
      secondWaits: false,
    },
    {
      name: "a new day, the first held after its insert: the second's insert waits, then it merges into the first's",
      existing: false,
      stopAfter: /^INSERT INTO/,
      secondWaits: true,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const userId = `pg-${cases.indexOf(c)}`;
      const a = holdingPool(pgDb.pool(), c.stopAfter);
      const first = postgresIngest(a.pool);
      const other = postgresIngest(pgDb.otherProcess());
      if (c.existing) await merge(other, userId, page(1, 50));

      const one = merge(first, userId, page(2, 70));
      let twoDone = false;
      try {
        await a.held;
        const two = merge(other, userId, page(3, 90)).finally(() => (twoDone = true));
        // the second merge either finished (nothing held it) or waits on a lock the first holds
        const waited = await waitFor("the second merge finished or waiting on a lock", async () =>
          twoDone ? "finished" : (await lockWaiters(pgDb.pool())) > 0 ? "waits" : null,
        );
        expect(waited).toBe(c.secondWaits ? "waits" : "finished");
        a.release();
        await Promise.all([one, two]);
      } finally {
        a.release();
      }

      const want = byTime(...(c.existing ? [page(1, 50)] : []), page(2, 70), page(3, 90));
      expect(await storedDay(other, userId)).toEqual(want);
      const { rows } = await pgDb.pool().query<{ count: number }>(`SELECT count FROM heart_rate WHERE "userId" = $1 AND day = $2`, [userId, DAY]);
      expect(rows).toEqual([{ count: want.length }]);
    });
  }
});

describe("two merges into one day on SQLite, from two connections", () => {
  it("each page's samples survive, on a day already stored and on a new day", async () => {
    const one = sqliteIngest();
    second.db = new BetterSqlite3(rawDb().name, { timeout: 5_000 });
    const two = sqliteIngest(() => second.db!);
    await merge(two, "lite-1", page(1, 50));
    await Promise.all([merge(one, "lite-1", page(2, 70)), merge(two, "lite-1", page(3, 90))]);
    await Promise.all([merge(one, "lite-2", page(2, 70)), merge(two, "lite-2", page(3, 90))]);
    expect(await storedDay(one, "lite-1")).toEqual(byTime(page(1, 50), page(2, 70), page(3, 90)));
    expect(await storedDay(two, "lite-2")).toEqual(byTime(page(2, 70), page(3, 90)));
  });
});
