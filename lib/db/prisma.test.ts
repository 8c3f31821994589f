// Prisma Client at run time (lib/db/prisma.ts, lib/db/prisma-sqlite.ts), before the app uses it:
// on SQLite, interactive transactions that span awaits on the process's one connection stay
// apart from every other query of the process; on PostgreSQL, the row locks and advisory locks
// the job table and the sign-in lock stand on, through Prisma's raw API. Both clients give the
// same rows (types and values). docs/decisions/0031-prisma-client-at-run-time.md.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { PrismaClient, Prisma } from "@/lib/generated/prisma/client";
import type { Prisma as PostgresPrisma } from "@/lib/generated/prisma-postgresql/client";
import { dbProvider, postgresClient, sqliteClient, sqliteGate, type Db, type ProcessDb } from "@/lib/db/prisma";
import { SqliteGate } from "@/lib/db/prisma-sqlite";
import { sqliteFile } from "@/lib/db/sqlite.mjs";
import { useMigratedPostgres } from "@/lib/test/postgres";

/** A promise with its resolve at hand (to hold a transaction open until the test lets it go). */
function later<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets the event loop go round `n` times (timers, I/O and other requests' work get their turn). */
async function turns(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

const keys = async (db: Db) => (await db.appSetting.findMany({ orderBy: { key: "asc" } })).map((s) => s.key);
const setting = (db: Db, key: string, value = "1") => db.appSetting.create({ data: { key, value } });

const file = () => sqliteFile(process.env.DATABASE_URL!);
const clients: ProcessDb[] = [];
function client(make: () => ProcessDb): ProcessDb {
  const c = make();
  clients.push(c);
  return c;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.$disconnect()));
});

describe("Prisma Client on SQLite: one connection, its transactions apart", () => {
  let db: ProcessDb;
  let gate: SqliteGate;
  beforeAll(() => {
    gate = new SqliteGate();
    db = client(() => sqliteClient(file(), gate));
  });
  afterEach(async () => {
    await db.appSetting.deleteMany();
  });

  it("why the gate: Prisma's own adapter runs another request's write inside an open transaction, and rolls it back with it", async () => {
    const plain = client(() => new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file()}` }) }));
    const opened = later();
    const finish = later();
    const tx = plain.$transaction(async (t) => {
      await setting(t, "tx");
      opened.resolve();
      await finish.promise;
      throw new Error("undo");
    });
    await opened.promise;
    await setting(plain, "outside"); // answered at once: it ran inside the open transaction
    finish.resolve();
    await expect(tx).rejects.toThrow("undo");
    expect(await keys(db)).toEqual([]); // the outside write went with the rollback
  });

  it("a write from outside waits for the open transaction, does not join it, and survives its rollback", async () => {
    await setting(db, "before");
    const opened = later();
    const finish = later();
    const tx = db.$transaction(async (t) => {
      await setting(t, "tx");
      await t.appSetting.update({ where: { key: "before" }, data: { value: "changed" } });
      opened.resolve();
      await finish.promise;
      throw new Error("undo");
    });
    await opened.promise;
    let outsideDone = false;
    const outside = setting(db, "outside").then(() => (outsideDone = true));
    await turns();
    expect(outsideDone).toBe(false);
    finish.resolve();
    await expect(tx).rejects.toThrow("undo");
    await outside;
    expect(await keys(db)).toEqual(["before", "outside"]);
    expect((await db.appSetting.findUniqueOrThrow({ where: { key: "before" } })).value).toBe("1");
  });

  it("a read from outside does not see the open transaction's writes; a committed transaction's writes are there after", async () => {
    const opened = later();
    const finish = later();
    const tx = db.$transaction(async (t) => {
      await setting(t, "tx");
      opened.resolve();
      await finish.promise;
    });
    await opened.promise;
    const read = keys(db);
    await turns();
    finish.resolve();
    await tx;
    expect(await read).toEqual(["tx"]); // it waited for the commit instead of reading inside the transaction
  });

  it("transactions one at a time: twenty read-then-write increments that await in between lose none", async () => {
    await setting(db, "counter", "0");
    const increment = () =>
      db.$transaction(async (t) => {
        const { value } = await t.appSetting.findUniqueOrThrow({ where: { key: "counter" } });
        await turns(2);
        await t.appSetting.update({ where: { key: "counter" }, data: { value: String(Number(value) + 1) } });
      });
    await Promise.all(Array.from({ length: 20 }, increment));
    expect((await db.appSetting.findUniqueOrThrow({ where: { key: "counter" } })).value).toBe("20");
  });

  it("the second transaction begins only when the first has ended, and sees its writes", async () => {
    const opened = later();
    const finish = later();
    const first = db.$transaction(async (t) => {
      await setting(t, "first");
      opened.resolve();
      await finish.promise;
    });
    await opened.promise;
    let secondBegan = false;
    const second = db.$transaction(async (t) => {
      secondBegan = true;
      return keys(t);
    });
    await turns();
    expect(secondBegan).toBe(false);
    finish.resolve();
    await first;
    expect(await second).toEqual(["first"]);
  });

  it("another connection of the process waits at the gate, not in SQLite's busy wait (which would block the event loop on a lock the process holds)", async () => {
    const other = new Database(file(), { timeout: 0 });
    try {
      const opened = later();
      const finish = later();
      const tx = db.$transaction(async () => {
        opened.resolve(); // nothing written yet: BEGIN IMMEDIATE took the write lock already
        await finish.promise;
      });
      await opened.promise;
      // a write on another connection now would wait (busy timeout, blocking the event loop) for a lock this process holds
      expect(() => other.prepare(`INSERT INTO "AppSetting" (key, value, updatedAt) VALUES ('other', '1', '')`).run()).toThrow(/locked|busy/i);
      // at the gate it waits its turn, asynchronously
      const waited = gate.run(async () => other.prepare(`INSERT INTO "AppSetting" (key, value, updatedAt) VALUES ('other', '1', '')`).run());
      finish.resolve();
      await tx;
      await waited;
      expect(await keys(db)).toEqual(["other"]);
    } finally {
      other.close();
    }
  });

  it("the ingest store's work on the process's own connection waits at the process's gate while a transaction is open (the two paths side by side)", async () => {
    const { ingestTransaction, run, statement } = await import("@/lib/db/ingest/driver");
    const INSERT = statement("test_gate_insert", {
      sqlite: `INSERT INTO "AppSetting" (key, value, "updatedAt") VALUES ('sql', '1', '')`,
      postgres: `INSERT INTO "AppSetting" (key, value, "updatedAt") VALUES ('sql', '1', '')`,
    });
    const processDb = client(() => sqliteClient(file(), sqliteGate()));
    const opened = later();
    const finish = later();
    const tx = processDb.$transaction(async (t) => {
      await setting(t, "tx");
      opened.resolve();
      await finish.promise;
    });
    await opened.promise;
    let written = false;
    const write = ingestTransaction(() => run(INSERT)).then(() => (written = true));
    await turns();
    expect(written).toBe(false); // waiting its turn, asynchronously: not in SQLite's busy wait, not failed
    finish.resolve();
    await tx;
    await write;
    expect(await keys(processDb)).toEqual(["sql", "tx"]);
  });

  it("the process's client used inside a transaction waits for it: the transaction's timeout ends the wait (rolled back), and the gate is free again", async () => {
    const stuck = db.$transaction(
      async (t) => {
        await setting(t, "tx");
        await setting(db, "outside-inside"); // the mistake: `db` instead of `t`
      },
      { timeout: 200 },
    );
    await expect(stuck).rejects.toThrow(/transaction/i);
    await setting(db, "after");
    expect(await keys(db)).toEqual(["after", "outside-inside"]);
  });

  it("a transaction that waited longer than its maxWait at the gate fails; when its turn comes it is rolled back unrun, and the gate goes on", async () => {
    const opened = later();
    const finish = later();
    const first = db.$transaction(async (t) => {
      await setting(t, "first");
      opened.resolve();
      await finish.promise;
    });
    await opened.promise;
    let ran = false;
    const late = db.$transaction(
      async (t) => {
        ran = true;
        await setting(t, "late");
      },
      { maxWait: 50 },
    );
    await expect(late).rejects.toThrow(/transaction/i);
    finish.resolve();
    await first;
    await setting(db, "after");
    expect(ran).toBe(false);
    expect(await keys(db)).toEqual(["after", "first"]);
  });

  it("statements kept prepared: the same query reads each write, a rolled-back write is gone, and more texts than the cache holds still answer right", async () => {
    const small = client(() => sqliteClient(file(), new SqliteGate(), { statementCacheSize: 4 }));
    for (let i = 0; i < 5; i++) {
      await setting(small, `k${i}`, String(i));
      expect(await small.appSetting.count()).toBe(i + 1);
      expect((await small.appSetting.findUnique({ where: { key: `k${i}` } }))?.value).toBe(String(i));
    }
    await expect(
      small.$transaction(async (t) => {
        await setting(t, "gone");
        expect(await t.appSetting.count()).toBe(6);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await keys(small)).toEqual(["k0", "k1", "k2", "k3", "k4"]);
    // more distinct texts than the four kept: each still prepared and run with its own arguments
    for (let n = 1; n <= 8; n++) {
      const rows = await small.$queryRawUnsafe<Array<{ v: bigint | number }>>(`SELECT COUNT(*) + ${n} AS v FROM AppSetting WHERE key <> ?`, "k0");
      expect(Number(rows[0]!.v)).toBe(4 + n);
    }
  });

  it("a failed statement inside a transaction rolls the whole transaction back and frees the gate", async () => {
    await setting(db, "taken");
    await expect(
      db.$transaction(async (t) => {
        await setting(t, "tx");
        await setting(t, "taken");
      }),
    ).rejects.toThrow(/Unique constraint/);
    await setting(db, "after");
    expect(await keys(db)).toEqual(["after", "taken"]);
  });
});

/** Upserts a page of settings in one statement (the shape of a page of documents): the SQLite/PostgreSQL difference written beside it. */
function upsertSettings(db: Db, rows: ReadonlyArray<{ key: string; value: string }>, now: Date): Promise<number> {
  const values = Prisma.join(rows.map((r) => Prisma.sql`(${r.key}, ${r.value}, ${now})`));
  // an unchanged value is not written again: SQLite's IS NOT is PostgreSQL's IS DISTINCT FROM
  const changed =
    dbProvider(db) === "postgresql" ? Prisma.sql`"AppSetting".value IS DISTINCT FROM excluded.value` : Prisma.sql`"AppSetting".value IS NOT excluded.value`;
  return db.$executeRaw`INSERT INTO "AppSetting" (key, value, "updatedAt") VALUES ${values}
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, "updatedAt" = excluded."updatedAt" WHERE ${changed}`;
}

const pgDb = useMigratedPostgres("prisma_client");

describe.each([
  { name: "sqlite", make: () => sqliteClient(file()) },
  { name: "postgresql", make: () => postgresClient(async () => pgDb.otherProcess()) },
])("Prisma Client on $name: the same rows, raw SQL beside the model API", ({ name, make }) => {
  let db: ProcessDb;
  beforeAll(() => {
    db = client(make);
  });
  afterEach(async () => {
    await db.appSetting.deleteMany();
  });

  it("names its database, in a transaction too", async () => {
    const provider = name === "sqlite" ? "sqlite" : "postgresql";
    expect(dbProvider(db)).toBe(provider);
    expect(await db.$transaction(async (tx) => dbProvider(tx))).toBe(provider);
  });

  it("a page upserted in one statement: new rows and changed ones counted, unchanged ones left alone; times come back as dates", async () => {
    const t1 = new Date("2026-03-01T10:00:00.123Z");
    const t2 = new Date("2026-03-02T10:00:00.456Z");
    expect(
      await upsertSettings(
        db,
        [
          { key: "a", value: "1" },
          { key: "b", value: "2" },
        ],
        t1,
      ),
    ).toBe(2);
    expect(
      await upsertSettings(
        db,
        [
          { key: "a", value: "1" },
          { key: "b", value: "3" },
          { key: "c\u00e9", value: "4" },
        ],
        t2,
      ),
    ).toBe(2);
    const rows = await db.appSetting.findMany({ orderBy: { key: "asc" } });
    expect(rows).toEqual([
      { key: "a", value: "1", updatedAt: t1 },
      { key: "b", value: "3", updatedAt: t2 },
      { key: "c\u00e9", value: "4", updatedAt: t2 },
    ]);
    // raw reads: row types derived from the model's. A number SQL computes is a bigint on SQLite
    // (the adapter reads with safe integers, and a computed column has no declared type), a
    // number for PostgreSQL's INTEGER (a bigint for its COUNT): Number() at the query.
    const raw = await db.$queryRaw<Array<Pick<Prisma.AppSettingModel, "key" | "updatedAt"> & { n: number | bigint }>>`
      SELECT key, "updatedAt", CAST(COUNT(*) OVER () AS INTEGER) AS n FROM "AppSetting" WHERE key >= ${"b"} ORDER BY key`;
    expect(raw.map((r) => ({ ...r, n: Number(r.n) }))).toEqual([
      { key: "b", updatedAt: t2, n: 2 },
      { key: "c\u00e9", updatedAt: t2, n: 2 },
    ]);
  });

  it("an outside write during an open transaction does not join it; the rollback undoes only the transaction's writes", async () => {
    const opened = later();
    const finish = later();
    const tx = db.$transaction(async (t) => {
      await setting(t, "tx");
      opened.resolve();
      await finish.promise;
      throw new Error("undo");
    });
    await opened.promise;
    const outside = setting(db, "outside");
    finish.resolve();
    await expect(tx).rejects.toThrow("undo");
    await outside;
    expect(await keys(db)).toEqual(["outside"]);
  });
});

describe("Prisma Client on PostgreSQL: row locks and advisory locks through the raw API", () => {
  let a: ProcessDb;
  let b: ProcessDb;
  beforeAll(() => {
    a = client(() => postgresClient(async () => pgDb.otherProcess()));
    b = client(() => postgresClient(async () => pgDb.otherProcess()));
  });

  it("FOR UPDATE SKIP LOCKED: two processes claiming at once take different jobs", async () => {
    await a.job.deleteMany();
    await a.job.createMany({ data: [{ kind: "backfill" }, { kind: "backfill" }] });
    const claim = (tx: Db) =>
      tx.$queryRaw<Array<Pick<Prisma.JobModel, "id">>>`
        SELECT id FROM job WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`;
    const held = later();
    const finish = later();
    const first = a.$transaction(async (tx) => {
      const rows = await claim(tx);
      held.resolve();
      await finish.promise;
      return rows;
    });
    await held.promise;
    const second = await b.$transaction((tx) => claim(tx));
    finish.resolve();
    const [one, two] = [await first, second];
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(1);
    expect(one[0]!.id).not.toBe(two[0]!.id);
  });

  it("a transaction-scoped advisory lock: held by one process until its transaction ends, then free", async () => {
    const key = 424_242;
    const tryLock = (tx: Db) => tx.$queryRaw<Array<{ got: boolean }>>`SELECT pg_try_advisory_xact_lock(${key}) AS got`;
    const held = later();
    const finish = later();
    const first = a.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${key})`;
      held.resolve();
      await finish.promise;
    });
    await held.promise;
    expect(await b.$transaction((tx) => tryLock(tx))).toEqual([{ got: false }]);
    finish.resolve();
    await first;
    expect(await b.$transaction((tx) => tryLock(tx))).toEqual([{ got: true }]);
  });

  it("row locks order read-then-write increments from two processes: none lost", async () => {
    await a.appSetting.deleteMany();
    await setting(a, "counter", "0");
    const increment = (db: ProcessDb) =>
      db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<Array<Pick<Prisma.AppSettingModel, "value">>>`SELECT value FROM "AppSetting" WHERE key = 'counter' FOR UPDATE`;
        await tx.appSetting.update({ where: { key: "counter" }, data: { value: String(Number(row!.value) + 1) } });
      });
    await Promise.all(Array.from({ length: 10 }, (_, i) => increment(i % 2 ? a : b)));
    expect((await a.appSetting.findUniqueOrThrow({ where: { key: "counter" } })).value).toBe("10");
  });
});

it("the two generated clients give every model the same row type", () => {
  type Rows<M extends { model: Record<string, { payload: { scalars: unknown } }> }> = { [K in keyof M["model"]]: M["model"][K]["payload"]["scalars"] };
  expectTypeOf<Rows<Prisma.TypeMap>>().toEqualTypeOf<Rows<PostgresPrisma.TypeMap>>();
});
