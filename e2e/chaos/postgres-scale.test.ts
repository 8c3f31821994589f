// 12. PostgreSQL and two processes: two production processes (ROLE=all) started at once on one
// PostgreSQL database (one of them migrates), fifty people connecting and backfilling at the same
// time, the processes killed at random (SIGKILL to the whole process group) and started again.
// Afterwards every person's stored documents and samples equal the emulator's (nothing lost, no
// duplicate), no job is left behind, and each token expiry was answered by one refresh: a
// refresh token is single-use, so two processes refreshing the same expiry would show as a
// refused grant at the emulator and a connection needing a reconnect. The one refusal that is
// not such a failure: a process killed after the service answered its refresh but before it
// stored the new token. The service has spent the old token and the new one died with the
// process (as for a power cut at that moment); that person reconnects, as a person would, and
// the refusal must have a kill between the refresh that spent the token and itself.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, SYNCED, TABLE_OF, diffDocuments, summarize, waitFor } from "./support/app-db";
import { connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, APP_PORT, pick } from "./support/env";
import { recordFigures, rng, sleep } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { decodeDay, sampleRow } from "@/lib/db/sample-codec";
import { SERIES_COLLECTIONS, sampleSpecOf, tableOf, type SeriesCollection } from "@/lib/resources";
import { createPostgresDatabase, startPostgresServer } from "@/lib/test/postgres-server.mjs";

const PEOPLE = 50;
const HISTORY_DAYS = pick(30, 120);
const KILLS = pick(4, 12);
/** The service's tokens live 66 s: with the app's 60 s margin each is due for a refresh ~6 s after it was issued. */
const TOKEN_TTL_S = 66;

let server: Awaited<ReturnType<typeof startPostgresServer>> | undefined;
let pool: pg.Pool | undefined;
let emu: Emulator;
const apps: ProdApp[] = [];
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  server = await startPostgresServer();
  const { url } = await createPostgresDatabase(server.url, "chaos");
  pool = new pg.Pool({ connectionString: url, max: 4 });
  // an idle connection the server ends when the suite stops it (57P01) is not a failure of the case
  pool.on("error", () => undefined);
  emu = await startChaosEmulator({ pageSize: 10, historyDays: HISTORY_DAYS, tokenTtlS: TOKEN_TTL_S });
  // a dead process's jobs are taken by the other after 10 s (JOB_LEASE_SECONDS)
  const env = { DATABASE_URL: url, JOB_LEASE_SECONDS: "10", DATABASE_POOL_SIZE: "8" };
  const started = performance.now();
  apps.push(...(await Promise.all([startProdApp({ name: "pg-a", env }), startProdApp({ name: "pg-b", port: APP_PORT + 1, env })])));
  figures.startBothMs = performance.now() - started;
});

afterAll(async () => {
  for (const app of apps) await app.stop();
  await pool?.end();
  await emu?.close();
  await server?.stop();
});

async function count(sql: string, ...params: unknown[]): Promise<number> {
  const { rows } = await pool!.query(sql, params);
  return Number(Object.values(rows[0] as Record<string, unknown>)[0]);
}

/**
 * A time series stored against the emulator's samples, in time order. The emulator's ring keeps
 * recording meanwhile, so the stored samples are a prefix of the emulator's: nothing missing,
 * nothing extra, no duplicate, and reaching at least where the backfill's cursor says it read.
 * The cursor is a lower bound: it is the instant the last page was asked for, and the service
 * answers a moment later with what it had by then, so a sample recorded in between may be stored
 * past it (the re-check starts at the cursor; a sample met twice is stored once).
 */
async function seriesDiff(userId: string, ringUserId: string, collection: SeriesCollection) {
  const { rows: state } = await pool!.query<{ cursorStart: string }>(`SELECT "cursorStart" FROM sync_state WHERE "userId" = $1 AND collection = $2`, [
    userId,
    collection,
  ]);
  const readUntil = Date.parse(state[0]!.cursorStart);
  const recorded = await emu.documents(ringUserId, collection);
  const reached = recorded.filter((d) => Number(d.timestamp_unix) <= readUntil).length;
  const spec = sampleSpecOf(collection);
  const { rows } = await pool!.query<{ day: string; samples: Buffer }>(`SELECT day, samples FROM "${tableOf(collection)}" WHERE "userId" = $1 ORDER BY day`, [
    userId,
  ]);
  const have = rows.flatMap((r) => decodeDay(spec, r.day, r.samples).map((x) => sampleRow(spec, x)));
  const prefix = have.length >= reached && JSON.stringify(recorded.slice(0, have.length)) === JSON.stringify(have);
  return { collection, expected: reached, stored: have.length, equal: prefix };
}

describe("[CHAOS 12] PostgreSQL, two processes, fifty people", () => {
  it("both processes started at once on a new database: the migrations ran once", async () => {
    expect(await count(`SELECT COUNT(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`)).toBeGreaterThan(0);
    expect(await count(`SELECT COUNT(*) - COUNT(DISTINCT migration_name) FROM "_prisma_migrations"`)).toBe(0);
    const migrated = apps.filter((a) => a.logs().includes('"migrations applied"'));
    expect(migrated).toHaveLength(1);
  });

  it(
    `${PEOPLE} people backfill at once while the processes are killed at random: nothing lost, no duplicate, one refresh per expiry`,
    { timeout: pick(420_000, 1_200_000) },
    async () => {
      const random = rng();
      const people: Array<{ email: string; userId: string; ringUserId: string }> = [];
      const started = performance.now();
      // Connect in groups of five through the first process (its AUTH_URL); both take the jobs.
      const emails = Array.from({ length: PEOPLE }, (_, i) => `pg-${i}-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`);
      for (let i = 0; i < emails.length; i += 5) await Promise.all(emails.slice(i, i + 5).map((e) => connect(e)));
      figures.connectMs = performance.now() - started;
      for (const email of emails) {
        const { rows } = await pool!.query<{ userId: string; ringUserId: string }>(`SELECT id AS "userId", "ringUserId" FROM "User" WHERE email = $1`, [email]);
        expect(rows).toHaveLength(1);
        people.push({ email, ...rows[0]! });
      }
      const total = PEOPLE * SYNCED.length;
      const done = () => count(`SELECT COUNT(*) FROM sync_state WHERE "backfillDoneAt" IS NOT NULL`);
      figures.doneWhenKillsBegan = `${await done()}/${total}`;

      // Kills while the backfills run: a random process, SIGKILL, down for a moment, started again.
      // Each kill's mark: the start of the last token request the emulator had answered by then.
      const kills: string[] = [];
      const killMarks: number[] = [];
      const lastTokenRequest = async () => Math.max(0, ...(await emu.requests({ kind: "token" })).map((r) => Date.parse(r.time)));
      for (let i = 0; i < KILLS; i++) {
        await sleep(1_500 + random() * 2_500);
        // each process at least once, then either
        const victim = apps[i < 2 ? i : random() < 0.5 ? 0 : 1]!;
        await victim.kill();
        killMarks.push(await lastTokenRequest());
        kills.push(`${victim === apps[0] ? "a" : "b"}@${await done()}`);
        await sleep(300 + random() * 1_200);
        await victim.start();
      }
      figures.kills = kills;

      // A connection whose refresh token was lost to a kill needs a reconnect: its person reconnects.
      const reconnected = new Map<string, string>();
      const reconnectWhereNeeded = async () => {
        const { rows } = await pool!.query<{ email: string; userId: string }>(
          `SELECT u.email, u.id AS "userId" FROM "Account" a JOIN "User" u ON u.id = a."userId" WHERE a.provider = 'ring' AND a.status = 'needs_reconnect'`,
        );
        for (const r of rows) {
          if (reconnected.has(r.email)) continue;
          reconnected.set(r.email, r.userId);
          await connect(r.email);
        }
      };
      await waitFor(
        "every backfill",
        async () => {
          await reconnectWhereNeeded();
          // and no job left that could still need a token
          return (await done()) === total && (await count(`SELECT COUNT(*) FROM job WHERE status IN ('queued', 'running')`)) === 0;
        },
        { timeoutMs: pick(300_000, 900_000), intervalMs: 500 },
      );
      const seconds = (performance.now() - started) / 1000;

      // Every person's documents and samples are the emulator's.
      const problems: unknown[] = [];
      let documents = 0;
      for (const p of people) {
        for (const c of COLLECTIONS) {
          const { rows } = await pool!.query<{ documentId: string | null; day: string | null; raw: string }>(
            `SELECT "documentId", day, raw FROM "${TABLE_OF[c]}" WHERE "userId" = $1 ORDER BY day, "documentId"`,
            [p.userId],
          );
          const d = summarize(diffDocuments(c, await emu.documents(p.ringUserId, c), rows));
          documents += d.stored;
          if (d.missing || d.extra || d.changed || d.duplicates) problems.push({ person: p.email, ...d });
        }
        for (const c of SERIES_COLLECTIONS) {
          const d = await seriesDiff(p.userId, p.ringUserId, c);
          documents += d.stored;
          if (!d.equal) problems.push({ person: p.email, ...d });
        }
      }
      expect(problems).toEqual([]);

      // No job left behind, none failed but the one a lost token stopped; every connection is usable.
      expect(
        await count(`SELECT COUNT(*) FROM job WHERE kind = 'backfill' AND status <> 'done' AND NOT (status = 'failed' AND "userId" = ANY($1))`, [
          ...reconnected.values(),
        ]),
      ).toBe(0);
      expect(await count(`SELECT COUNT(*) FROM "Account" WHERE provider = 'ring' AND status <> 'active'`)).toBe(0);

      // One refresh per expiry: every refresh grant accepted (a refresh token used twice is refused),
      // and never two for one person within the ~6 s a token is usable.
      const refreshes = (await emu.requests({ kind: "token" })).filter((r) => r.grant_type === "refresh_token");
      const refused = refreshes.filter((r) => r.status !== 200);
      const unexplained = refused.filter((r) => {
        const spent = refreshes.filter((g) => g.user_id === r.user_id && g.status === 200 && g.time <= r.time).at(-1);
        return !spent || !killMarks.some((m) => Date.parse(spent.time) <= m && m < Date.parse(r.time));
      });
      expect(unexplained).toEqual([]);
      expect(refused.length).toBe(reconnected.size);
      const byPerson = new Map<string, number[]>();
      for (const r of refreshes) byPerson.set(r.user_id ?? "?", [...(byPerson.get(r.user_id ?? "?") ?? []), Date.parse(r.time)]);
      const gaps = [...byPerson.values()].flatMap((times) => times.slice(1).map((t, i) => t - times[i]!));
      expect(gaps.filter((g) => g < 3_000)).toEqual([]);

      Object.assign(figures, {
        people: PEOPLE,
        historyDays: HISTORY_DAYS,
        seconds: Math.round(seconds),
        documents,
        refreshes: refreshes.length,
        lostToKills: refused.length,
        minRefreshGapMs: gaps.length ? Math.min(...gaps) : null,
        restarts: apps.map((a) => a.starts - 1),
      });
      recordFigures("postgres-scale", figures);
    },
  );
});
