// The paths issue 42's bench figures stand on, through Prisma Client (lib/db/prisma.ts) against
// the driver (the ingest store, lib/db/ingest), on SQLite, in one process on the same data, interleaved:
//   - a page of 100 documents upserted (lib/db/ingest/documents.ts ingestDocuments) against
//     the same work in one `$transaction` with the page as one `$executeRaw` of many VALUES;
//   - a day of heart-rate samples merged (lib/db/ingest/series.ts mergeSampleDays) against `$queryRaw` +
//     `$executeRaw` in one `$transaction`;
//   - a trends read, a year of one daily column (ring-data.ts getDailyColumns, itself `$queryRaw`
//     since issue 52) against a bare `$queryRaw`, beside a raw better-sqlite3 read of the same rows (the bench's "raw");
//   - one setting read and written (app-settings.ts) against the model API.
// Medians (and p95) over repeated runs after a warm-up. Not part of `npm run bench`; the figures
// go to docs/decisions/0031-prisma-client-at-run-time.md. Run from the repository's root:
//   npx tsx --conditions=react-server e2e/bench/prisma-paths.ts [runs]
// (the condition lets the app's `server-only` modules load outside Next.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { applyPendingMigrations } from "../../lib/db/migrate.mjs";
import { percentile, round } from "./stats";

const RUNS = Number(process.argv[2] ?? 200);
const WARMUP = Math.max(5, Math.round(RUNS / 10));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-prisma-bench-"));
const file = path.join(dir, "ringside.db");
applyPendingMigrations(file, path.resolve("prisma/migrations"));
process.env.DATABASE_URL = `file:${file}`;
process.env.DATA_DIR = dir;
process.env.LOG_LEVEL = "warn";

const rssBefore = process.memoryUsage().rss;
// the app's modules read DATABASE_URL when loaded: after it is set
const { ingestDocuments } = await import("../../lib/db/ingest/documents");
const { mergeSampleDays } = await import("../../lib/db/ingest/series");
const { getDailyColumns } = await import("../../lib/db/queries/ring-data");
const { getAppSetting, setAppSetting } = await import("../../lib/db/queries/app-settings");
const { rawDb } = await import("../../lib/db/client");
const { getResource, sampleSpecOf, tableOf } = await import("../../lib/resources");
const { decodeDay, encodeDay, mergeSamples } = await import("../../lib/db/sample-codec");
const { dbTime: toDbTime } = await import("../../lib/db/ingest/driver");
rawDb().prepare("SELECT 1").get();
const rssSqlLayer = process.memoryUsage().rss;
const { prisma, sqliteGate } = await import("../../lib/db/prisma");
const { Prisma } = await import("../../lib/generated/prisma/client");
const db = prisma();
await db.appSetting.findUnique({ where: { key: "none" } });
const rssPrisma = process.memoryUsage().rss;

type Db = import("../../lib/db/prisma").Db;
type Sample = import("../../lib/db/sample-codec").Sample;

// ---------------------------------------------------------------------------------------------
// The data: two people (one per layer, the same amounts), a year of daily readiness each

const people = { sql: "bench-sql", prisma: "bench-prisma", statement: "bench-statement" } as const;
for (const id of Object.values(people)) await db.user.create({ data: { id, name: id, role: "member" } });

const activity = getResource("daily_activity");
const activityColumns = activity.columns;
const documentColumns = ["userId", "documentId", "day", ...activityColumns.map((c) => c.name), "raw", "syncedAt"];
const dayOf = (n: number) => new Date(Date.UTC(2015, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** A page of 100 daily-activity documents (new ones: a backfill's page), the same for both layers but for the person. */
function page(userId: string, n: number) {
  return Array.from({ length: 100 }, (_, i) => {
    const k = n * 100 + i;
    const row: Record<string, string | number | null> = { userId, documentId: `act-${k}`, day: dayOf(k) };
    for (const c of activityColumns) row[c.name] = c.type === "text" ? `t${k}` : c.type === "float" ? k / 3 : k % 1000;
    row.raw = JSON.stringify(row);
    row.syncedAt = toDbTime(new Date());
    return row as Record<string, string | number | null> & { userId: string; documentId: string; day: string; raw: string; syncedAt: string };
  });
}

const HR = sampleSpecOf("heartrate");
/** A UTC day of heart-rate samples, one every 5 minutes. */
function hrDay(n: number): Map<string, Sample[]> {
  const day = dayOf(n);
  const start = Date.parse(`${day}T00:00:00Z`);
  return new Map([[day, Array.from({ length: 288 }, (_, i) => ({ t: start + i * 300_000, v: [50 + (i % 40), i % 3 ? "awake" : "rest"] }))]]);
}

const READINESS = tableOf("daily_readiness");
const insertReadiness = rawDb().prepare(`INSERT INTO ${READINESS} (userId, documentId, day, score, raw, syncedAt) VALUES (?, ?, ?, ?, '{}', ?)`);
rawDb().transaction(() => {
  for (const userId of Object.values(people))
    for (let i = 0; i < 365; i++) insertReadiness.run(userId, `r-${i}`, dayOf(i), 60 + (i % 30), toDbTime(new Date()));
})();

// ---------------------------------------------------------------------------------------------
// The Prisma versions of the same work

/** The page as one statement of many VALUES (SQLite's IS NOT is PostgreSQL's IS DISTINCT FROM: written beside the query when converted). */
function pageUpsert(tx: Db, rows: ReturnType<typeof page>): Promise<number> {
  const values = Prisma.join(rows.map((r) => Prisma.sql`(${Prisma.join(documentColumns.map((c) => r[c] ?? null))})`));
  const table = Prisma.raw(`"${activity.table}"`);
  const names = Prisma.raw(documentColumns.map((c) => `"${c}"`).join(", "));
  const set = Prisma.raw(
    documentColumns
      .filter((c) => c !== "userId" && c !== "documentId")
      .map((c) => `"${c}" = excluded."${c}"`)
      .join(", "),
  );
  return tx.$executeRaw`INSERT INTO ${table} (${names}) VALUES ${values}
    ON CONFLICT ("userId", "documentId") DO UPDATE SET ${set} WHERE ${table}.raw IS NOT excluded.raw OR ${table}.day IS NOT excluded.day`;
}

/** ingestDocuments through Prisma: the rejected probe, the page as one statement, the Trends probe, the data version. */
async function ingestPrisma(rows: ReturnType<typeof page>): Promise<number> {
  const userId = rows[0]!.userId;
  return db.$transaction(async (tx) => {
    const rejected = await tx.rejectedDocument.count({ where: { userId, collection: "daily_activity" } });
    const changed = await pageUpsert(tx, rows);
    if (rejected > 0)
      await tx.rejectedDocument.deleteMany({ where: { userId, collection: "daily_activity", documentId: { in: rows.map((r) => r.documentId) } } });
    const trends = await tx.$queryRaw<unknown[]>`SELECT 1 AS x FROM daily_activity WHERE "userId" = ${userId} AND "documentId" LIKE 'trends:%' LIMIT 1`;
    if (trends.length > 0) throw new Error("the bench plants no Trends rows");
    if (changed > 0) await bump(tx, userId);
    return changed;
  });
}

const bump = (tx: Db, userId: string) => tx.user.update({ where: { id: userId }, data: { dataVersion: { increment: 1 } }, select: { id: true } });

/** mergeSampleDays through Prisma: read the day's blob, merge, write it back, in one transaction. */
async function mergePrisma(userId: string, days: Map<string, Sample[]>): Promise<number> {
  return db.$transaction(async (tx) => {
    let stored = 0;
    for (const [day, samples] of days) {
      const [before] = await tx.$queryRaw<Array<{ samples: Uint8Array }>>`SELECT samples FROM heart_rate WHERE "userId" = ${userId} AND day = ${day}`;
      const merged = mergeSamples(HR, before ? decodeDay(HR, day, before.samples) : [], samples);
      stored += merged.length;
      const packed = encodeDay(HR, day, merged);
      await tx.$executeRaw`INSERT INTO heart_rate ("userId", day, count, samples, "syncedAt") VALUES (${userId}, ${day}, ${merged.length}, ${packed}, ${new Date()})
        ON CONFLICT ("userId", day) DO UPDATE SET count = excluded.count, samples = excluded.samples, "syncedAt" = excluded."syncedAt"`;
    }
    await bump(tx, userId);
    return stored;
  });
}

const YEAR = { from: dayOf(0), to: dayOf(364) };
const trendsPrisma = (userId: string) =>
  db.$queryRaw<Array<{ day: string; score: number | null }>>`
    SELECT day, score FROM daily_readiness WHERE "userId" = ${userId} AND day >= ${YEAR.from} AND day <= ${YEAR.to} ORDER BY day, id`;
const rawRead = rawDb().prepare(`SELECT day, score FROM daily_readiness WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`);

// ---------------------------------------------------------------------------------------------
// Measuring

type Figures = { median_ms: number; p95_ms: number };
const figures = (xs: number[]): Figures => ({ median_ms: round(percentile(xs, 50), 3), p95_ms: round(percentile(xs, 95), 3) });

/** Runs each variant once per round, interleaved, `WARMUP` rounds unmeasured. */
async function compare(name: string, variants: Record<string, (round: number) => Promise<unknown> | unknown>): Promise<void> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < WARMUP + RUNS; r++) {
    for (const [k, run] of Object.entries(variants)) {
      const t = performance.now();
      await run(r);
      if (r >= WARMUP) times[k]!.push(performance.now() - t);
    }
  }
  const out = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, figures(xs)]));
  const [base, ...others] = Object.keys(out);
  const ratios = others.map((k) => `${k}/${base} ${round(out[k]!.median_ms / out[base!]!.median_ms, 2)}×`).join(", ");
  console.log(
    `${name}: ${Object.entries(out)
      .map(([k, f]) => `${k} median ${f.median_ms} ms (p95 ${f.p95_ms})`)
      .join("; ")}; ${ratios}`,
  );
}

console.log(`node ${process.version}, ${os.cpus().length} cores, ${RUNS} runs each (after ${WARMUP}), SQLite ${file}`);
console.log(
  `memory: rss ${round(rssBefore / 2 ** 20, 1)} MB before the layers, +${round((rssSqlLayer - rssBefore) / 2 ** 20, 1)} MB with the driver,` +
    ` +${round((rssPrisma - rssSqlLayer) / 2 ** 20, 1)} MB more with Prisma Client and its first query`,
);

// the trends read's rows are the same through both
const a = await getDailyColumns({ userId: people.sql, collection: "daily_readiness", columns: ["score"], ...YEAR });
const b = await trendsPrisma(people.sql);
if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error("the two trends reads differ");

let pages = { sql: 0, prisma: 0, statement: 0 };
await compare("page of 100 documents (new)", {
  sql: () => ingestDocuments({ collection: "daily_activity", userId: people.sql, rows: page(people.sql, pages.sql++) }),
  prisma: () => ingestPrisma(page(people.prisma, pages.prisma++)),
  "prisma, the upsert statement alone": () => db.$transaction((tx) => pageUpsert(tx, page(people.statement, pages.statement++))),
});
pages = { sql: 0, prisma: 0, statement: 0 };
await compare("page of 100 documents (again, unchanged)", {
  sql: () => ingestDocuments({ collection: "daily_activity", userId: people.sql, rows: page(people.sql, pages.sql++) }),
  prisma: () => ingestPrisma(page(people.prisma, pages.prisma++)),
  "prisma, the upsert statement alone": () => db.$transaction((tx) => pageUpsert(tx, page(people.statement, pages.statement++))),
});
const days = { sql: 0, prisma: 0 };
await compare("a day of heart rate (288 samples, new day)", {
  sql: () => mergeSampleDays({ collection: "heartrate", userId: people.sql, days: hrDay(days.sql++) }),
  prisma: () => mergePrisma(people.prisma, hrDay(days.prisma++)),
});
await compare("trends read (a year of one daily column, 365 rows)", {
  sql: () => getDailyColumns({ userId: people.sql, collection: "daily_readiness", columns: ["score"], ...YEAR }),
  prisma: () => trendsPrisma(people.sql),
  raw: () => rawRead.all(people.sql, YEAR.from, YEAR.to),
});
const value = z.object({ n: z.number() });
await compare("one setting read", {
  sql: () => getAppSetting("bench", value),
  prisma: async () => {
    const row = await db.appSetting.findUnique({ where: { key: "bench" }, select: { value: true } });
    return row ? value.safeParse(JSON.parse(row.value)) : undefined;
  },
});
await compare("one setting written", {
  sql: (r) => setAppSetting("bench", { n: r }),
  prisma: (r) =>
    db.appSetting.upsert({ where: { key: "bench" }, create: { key: "bench", value: JSON.stringify({ n: r }) }, update: { value: JSON.stringify({ n: r }) } }),
});
// a write from another connection of the process waiting at the gate costs nothing while no transaction is open
await compare("gate, free", { direct: () => undefined, gate: () => sqliteGate().run(async () => undefined) });

await db.$disconnect();
rawDb().close();
fs.rmSync(dir, { recursive: true, force: true });
// keep the layers' own objects from holding the process open
process.exit(0);
