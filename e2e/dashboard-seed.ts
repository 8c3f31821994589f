// Fills an app database with generated ring data for one person, through the sync engine's
// own mapping and ingest (lib/sync/map.ts, lib/db/queries/ring-documents.ts), and signs that
// person in with a database session. For developing the dashboard and for the bench,
// which needs years of data faster than a backfill through the emulator would give them.
//
//   DATABASE_URL=file:/tmp/rs/ringside.db node --conditions=react-server --import tsx \
//     e2e/dashboard-seed.ts --days 1826 [--email dev@example.test] [--today 2026-11-21] [--user-key k]
//
// Prints {"userId","sessionToken","email","firstDay","lastDay","documents"} on stdout. The
// session cookie is `authjs.session-token` (http).
import { clock } from "@/lib/clock";
import { addDays, utcDay } from "@/lib/days";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sqliteFile } from "@/lib/db/sqlite.mjs";
import { COLLECTIONS as FIXTURE_COLLECTIONS, generatePersonalInfo, generateRange, deriveUserId } from "@/lib/emulator/generator";

type Args = { days: number; email: string; today: string; userKey: string; seed: string };

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const today = get("today") ?? utcDay(clock.now());
  return {
    days: Number(get("days") ?? 365),
    email: get("email") ?? "dev@example.test",
    today,
    userKey: get("user-key") ?? get("email") ?? "dev@example.test",
    seed: get("seed") ?? (process.env.RING_EMULATOR_SEED || "ringside-emulator-seed-1"),
  };
}

export async function seedDashboard(args: Args) {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith("file:")) throw new Error("set DATABASE_URL=file:...");
  const file = sqliteFile(url);
  if (!fs.existsSync(file)) {
    // the production path's migrator (keeps _prisma_migrations, so `npm start` accepts the file)
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { applyPendingMigrations } = await import("@/lib/db/migrate.mjs");
    applyPendingMigrations(file, path.resolve("prisma/migrations"));
  }
  // imported after DATABASE_URL is known: these read env at import
  const { rawDb } = await import("@/lib/db");
  const { mapDocument } = await import("@/lib/sync/map");
  const { ingestDocuments, upsertPersonalInfo } = await import("@/lib/db/ingest/documents");
  const { dbTime } = await import("@/lib/db/ingest/driver");
  const db = rawDb();
  const now = dbTime(clock.date());
  const ringUserId = deriveUserId(args.userKey);
  let user = db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ringUserId) as { id: string } | undefined;
  if (!user) {
    const id = `seed${crypto.randomBytes(10).toString("hex")}`;
    db.prepare(
      `INSERT INTO "User" (id, name, email, role, ringUserId, units, theme, createdAt, updatedAt) VALUES (?, ?, ?, 'owner', ?, 'metric', 'system', ?, ?)`,
    ).run(id, args.email, args.email, ringUserId, now, now);
    user = { id };
  }
  const sessionToken = crypto.randomBytes(24).toString("hex");
  db.prepare(`INSERT INTO "Session" (id, sessionToken, userId, expires) VALUES (?, ?, ?, ?)`).run(
    `s${crypto.randomBytes(10).toString("hex")}`,
    sessionToken,
    user.id,
    // Auth.js checks a session against the machine's clock, not Ringside's (pinned in a test run)
    dbTime(new Date("9999-12-31T00:00:00Z")),
  );
  const firstDay = addDays(args.today, -(args.days - 1));
  const opts = { seed: args.seed, userKey: args.userKey };
  const docs = generateRange(opts, firstDay, args.today);
  let documents = 0;
  for (const c of FIXTURE_COLLECTIONS) {
    const rows = [];
    for (const d of docs[c]) {
      const r = mapDocument(c, d, user.id, now);
      if (r.ok) rows.push(r.row);
    }
    for (let i = 0; i < rows.length; i += 500) await ingestDocuments({ collection: c, userId: user.id, rows: rows.slice(i, i + 500) });
    documents += rows.length;
    db.prepare(
      `INSERT INTO sync_state (userId, collection, status, lastSuccessAt, lastAttemptAt, newestDay, documentsTotal, updatedAt)
       VALUES (?, ?, 'idle', ?, ?, ?, ?, ?)
       ON CONFLICT(userId, collection) DO UPDATE SET status = 'idle', lastSuccessAt = excluded.lastSuccessAt,
         newestDay = excluded.newestDay, documentsTotal = excluded.documentsTotal, updatedAt = excluded.updatedAt`,
    ).run(user.id, c, now, now, args.today, rows.length, now);
  }
  const info = generatePersonalInfo({ ...opts, userId: ringUserId, email: args.email });
  await upsertPersonalInfo({
    userId: user.id,
    ringUserId,
    age: info.age,
    weight: info.weight,
    height: info.height,
    biological_sex: info.biological_sex,
    email: info.email,
    raw: JSON.stringify(info),
  });
  return { userId: user.id, sessionToken, email: args.email, firstDay, lastDay: args.today, documents };
}

if (process.argv[1] && /dashboard-seed\.ts$/.test(process.argv[1])) {
  seedDashboard(parseArgs(process.argv.slice(2)))
    .then((r) => {
      process.stdout.write(JSON.stringify(r) + "\n");
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(String(e?.stack ?? e) + "\n");
      process.exit(1);
    });
}
