// The data version's moves, announced: on PostgreSQL by the trigger's notification at commit (from
// any connection: another process), heard by a LISTEN that comes back after its connection is cut;
// on SQLite in the process, after the writing transaction. The second part runs on both databases.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPendingPostgresMigrations } from "@/lib/db/migrate-postgres.mjs";
import { listenPostgres, type PostgresListener } from "@/lib/db/postgres";
import { postgresTestDatabase } from "@/lib/test/postgres";
import { POSTGRES_MIGRATIONS_DIR } from "@/prisma/generate-models";
import { onPostgres, sqlRun } from "@/lib/test/sql";

/** Resolves with the next value pushed, or rejects naming `what` after the deadline (a hang, not a timing). */
function nextOf<T>(queue: T[], wake: Set<() => void>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (queue.length === 0) return;
      wake.delete(look);
      clearTimeout(timer);
      resolve(queue.shift()!);
    };
    const timer = setTimeout(() => {
      wake.delete(look);
      reject(new Error(`never came: ${what}`));
    }, 30_000);
    wake.add(look);
    look();
  });
}

describe("on PostgreSQL: the trigger's notification and the listener", () => {
  let url = "";
  let other: pg.Pool;
  let listener: PostgresListener;
  const heard: string[] = [];
  const listening: number[] = [];
  const wake = new Set<() => void>();
  const ping = () => [...wake].forEach((w) => w());

  beforeAll(async () => {
    url = (await postgresTestDatabase("changes")).url;
    await applyPendingPostgresMigrations(url, POSTGRES_MIGRATIONS_DIR);
    other = new pg.Pool({ connectionString: url, max: 2 });
    for (const id of ["a", "b"]) {
      await other.query(
        `INSERT INTO "User" (id, email, role, units, theme, "dataVersion", "createdAt", "updatedAt") VALUES ($1, $2, 'member', 'metric', 'system', 0, now(), now())`,
        [id, `${id}@example.test`],
      );
    }
    listener = listenPostgres(url, "ringside_data_version", {
      onNotification: (id) => {
        heard.push(id);
        ping();
      },
      onListening: () => {
        listening.push(Date.now());
        ping();
      },
    });
  });

  afterAll(async () => {
    await listener?.stop();
    await other?.end();
  });

  it("a committed move of a person's data version, made on another connection, is heard once per transaction; a rolled-back one never", async () => {
    await nextOf(listening, wake, "the first LISTEN");
    const c = await other.connect();
    try {
      await c.query("BEGIN");
      await c.query(`UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = 'a'`);
      await c.query(`UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = 'a'`);
      await c.query("ROLLBACK");
      // other columns move no version: nothing to hear
      await c.query(`UPDATE "User" SET name = 'x' WHERE id = 'a'`);
      await c.query("BEGIN");
      await c.query(`UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = 'b'`);
      await c.query(`UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = 'b'`);
      await c.query("COMMIT");
      await c.query(`UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = 'a'`);
    } finally {
      c.release();
    }
    // in order: b's transaction (once), then a's; nothing of the rolled-back one or the name
    expect(await nextOf(heard, wake, "b's move")).toBe("b");
    expect(await nextOf(heard, wake, "a's move")).toBe("a");
  });

  it("a cut connection is listened on again (the caller told, since notifications were missed) and hears the next move", async () => {
    const before = listening.length;
    await other.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ringside-listen' AND datname = current_database()`);
    await nextOf(listening, wake, "listening again");
    expect(listening.length).toBeGreaterThanOrEqual(before);
    await other.query(`UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = 'b'`);
    expect(await nextOf(heard, wake, "b's next move")).toBe("b");
  });
});

const NOW = new Date(0).toISOString();

describe("the process's database (SQLite: in the process; PostgreSQL: the trigger and LISTEN)", () => {
  it("a bump is heard with the person's id after its transaction, everyone's too; a change without a version move when notified", async () => {
    const { watchDataChanges, notifyDataChange } = await import("@/lib/db/data-changes");
    const { bumpDataVersion } = await import("@/lib/db/ingest/fence");
    const { bumpEveryDataVersion } = await import("@/lib/db/queries/data-version");
    const { ingestTransaction } = await import("@/lib/db/ingest/driver");
    const { prisma } = await import("@/lib/db/prisma");
    const postgres = await onPostgres();
    await sqlRun(
      `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES ('s1', 's1@example.test', 'member', 'metric', 'system', ?, ?)`,
      NOW,
      NOW,
    );
    const heard: Array<string | null> = [];
    const resyncs: number[] = [];
    const wake = new Set<() => void>();
    const watch = await watchDataChanges({
      onChange: (c) => {
        heard.push(c);
        [...wake].forEach((w) => w());
      },
      onResync: () => {
        resyncs.push(1);
        [...wake].forEach((w) => w());
      },
    });
    try {
      // on PostgreSQL the listener says when it listens (what came before it is missed)
      if (postgres) await nextOf(resyncs, wake, "listening");
      let inside: Array<string | null> | null = null;
      // the ingest store's bump (a page's): heard after its transaction
      await ingestTransaction(function* () {
        yield* bumpDataVersion("s1");
        inside = [...heard];
      });
      expect(inside).toEqual([]); // not during the transaction
      expect(await nextOf(heard, wake, "s1's move")).toBe("s1");
      await prisma().$transaction((tx) => bumpEveryDataVersion(tx));
      // everyone: one announcement in the process; the trigger's notification per person
      expect(await nextOf(heard, wake, "everyone's move")).toBe(postgres ? "s1" : null);
      await notifyDataChange("s1");
      expect(await nextOf(heard, wake, "s1's last sync")).toBe("s1");
    } finally {
      await watch.stop();
    }
  });

  it("a bump in a Prisma Client transaction: heard, and what a listener reads then is what committed", async () => {
    const { watchDataChanges } = await import("@/lib/db/data-changes");
    const { bumpDataVersion, readDataVersion } = await import("@/lib/db/queries/data-version");
    const { dbProvider, prisma } = await import("@/lib/db/prisma");
    const db = prisma();
    await db.user.create({ data: { id: "s2", email: "s2@example.test", role: "member", createdAt: new Date(0), updatedAt: new Date(0) } });
    const before = (await readDataVersion("s2"))!;
    const heard: Array<string | null> = [];
    const reads: Array<Promise<number | null>> = [];
    const resyncs: number[] = [];
    const wake = new Set<() => void>();
    const watch = await watchDataChanges({
      onChange: (c) => {
        heard.push(c);
        // a listener reads the person at once (the publisher does): on SQLite while the transaction may still be open
        if (c === "s2") reads.push(readDataVersion("s2"));
        [...wake].forEach((w) => w());
      },
      onResync: () => {
        resyncs.push(1);
        [...wake].forEach((w) => w());
      },
    });
    try {
      if (dbProvider(db) === "postgresql") await nextOf(resyncs, wake, "listening");
      await db.$transaction(async (tx) => {
        await bumpDataVersion(tx, "s2");
        // turns pass inside the transaction: the in-process announcement is heard before the commit
        for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
        await tx.user.findUnique({ where: { id: "s2" }, select: { id: true } });
      });
      expect(await nextOf(heard, wake, "s2's move")).toBe("s2");
      expect(await reads[0]).toBe(before + 1);
    } finally {
      await watch.stop();
    }
  });
});
