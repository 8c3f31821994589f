import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { restoreDatabase } from "@/lib/db/backup.mjs";
import { backupMargin, ensureRoomForBackup, restoreLine, StartRefusal, upgradePostgres, upgradeSqlite } from "@/lib/db/upgrade.mjs";
import { postgresTestDatabase } from "@/lib/test/postgres";

// What npm start does to the database before serving (lib/db/upgrade.mjs): the backup before
// migrating and its retention, the disk check, the line that restores after a failed migration,
// foreign keys, and edited migrations refused on both databases.

const MB = 1024 * 1024;

/** A migrations folder with two migrations, a database at the first, and its backup folder. */
function project(opts: { secondSql?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "upg-"));
  const migrationsDir = path.join(dir, "migrations");
  const write = (name: string, sql: string) => {
    fs.mkdirSync(path.join(migrationsDir, name), { recursive: true });
    fs.writeFileSync(path.join(migrationsDir, name, "migration.sql"), sql);
  };
  write(
    "0001_tags",
    'CREATE TABLE "tag" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL);\nCREATE TABLE "day_tag" ("day" TEXT, "tagId" INTEGER REFERENCES "tag" ("id"));\n',
  );
  const file = path.join(dir, "data", "ringside.db");
  const backupDir = path.join(dir, "data", "backups");
  const second = () => write("0002_colour", opts.secondSql ?? 'ALTER TABLE "tag" ADD COLUMN "colour" TEXT;\n');
  return { dir, migrationsDir, file, backupDir, second };
}

const plenty = async () => 10_000 * MB;

function rows(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

async function seeded(opts: { secondSql?: string } = {}) {
  const p = project(opts);
  const first = await upgradeSqlite({ ...p, keepBackups: 3, freeBytes: plenty });
  // a new file: nothing to back up
  expect(first).toEqual({ applied: ["0001_tags"], backup: null, pruned: [] });
  const db = new Database(p.file);
  db.exec(`INSERT INTO tag (id, name) VALUES (1, 'late dinner'); INSERT INTO day_tag (day, tagId) VALUES ('2026-03-01', 1)`);
  db.close();
  p.second();
  return p;
}

describe("upgradeSqlite (npm start on SQLite)", () => {
  it("backs up before migrating, migrates, and keeps the newest BACKUP_KEEP_PRE_MIGRATE backups of that kind", async () => {
    const p = await seeded();
    fs.mkdirSync(p.backupDir, { recursive: true });
    const older = ["20250101T000000Z", "20250201T000000Z", "20250301T000000Z", "20250401T000000Z"].map((s) =>
      path.join(p.backupDir, `ringside-pre-migrate-${s}.db`),
    );
    const daily = path.join(p.backupDir, "ringside-daily-20250101T000000Z.db");
    for (const f of [...older, daily]) fs.writeFileSync(f, "");
    const r = await upgradeSqlite({ ...p, keepBackups: 3, freeBytes: plenty });
    expect(r.applied).toEqual(["0002_colour"]);
    expect(path.basename(r.backup!)).toMatch(/^ringside-pre-migrate-\d{8}T\d{6}Z\.db$/);
    // the backup holds the database as it was: the tag, and no colour column yet
    expect(rows(r.backup!, "SELECT * FROM tag")).toEqual([{ id: 1, name: "late dinner" }]);
    expect(rows(p.file, "SELECT * FROM tag")).toEqual([{ id: 1, name: "late dinner", colour: null }]);
    expect(r.pruned.sort()).toEqual(older.slice(0, 2));
    expect(fs.readdirSync(p.backupDir).sort()).toEqual([daily, older[2]!, older[3]!, r.backup!].map((f) => path.basename(f)).sort());
    // nothing pending: no backup, nothing pruned
    expect(await upgradeSqlite({ ...p, keepBackups: 1, freeBytes: plenty })).toEqual({ applied: [], backup: null, pruned: [] });
  });

  it("refuses without room for the backup and its margin, naming the folder and the sizes; nothing changed", async () => {
    const p = await seeded();
    const size = fs.statSync(p.file).size + (fs.existsSync(`${p.file}-wal`) ? fs.statSync(`${p.file}-wal`).size : 0);
    const justShort = async () => size + backupMargin(size) - 1;
    const refusal = await upgradeSqlite({ ...p, keepBackups: 3, freeBytes: justShort }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StartRefusal);
    expect((refusal as Error).message).toMatch(
      new RegExp(`^Not enough free disk for the backup npm start takes before migrating: ${p.backupDir} has \\d+ MB free`),
    );
    expect((refusal as Error).message).toContain("64 MB are kept free beside it. Nothing was changed");
    expect(fs.readdirSync(p.backupDir)).toEqual([]);
    expect(rows(p.file, "SELECT * FROM tag")).toEqual([{ id: 1, name: "late dinner" }]);
    // exactly enough: it goes ahead
    await expect(ensureRoomForBackup(p.file, p.backupDir, async () => size + backupMargin(size))).resolves.toBeUndefined();
    expect(backupMargin(10_000 * MB)).toBe(1_000 * MB);
  });

  it("a failed migration: refused with one line that restores the backup just taken, which does; no backup pruned", async () => {
    const p = await seeded({ secondSql: 'ALTER TABLE "tag" ADD COLUMN "colour" TEXT;\nCREATE TABLE "tag" ("id" INTEGER);\n' });
    fs.mkdirSync(p.backupDir, { recursive: true });
    const old = ["20250101T000000Z", "20250201T000000Z", "20250301T000000Z"].map((s) => path.join(p.backupDir, `ringside-pre-migrate-${s}.db`));
    for (const f of old) fs.writeFileSync(f, "");
    const refusal = (await upgradeSqlite({ ...p, keepBackups: 1, freeBytes: plenty }).catch((e: unknown) => e)) as Error;
    expect(refusal).toBeInstanceOf(StartRefusal);
    const [first, restore, ...rest] = refusal.message.split("\n");
    expect(first).toMatch(/^The database could not be migrated: migration 0002_colour failed: table "tag" already exists/);
    expect(rest).toEqual([]);
    const backup = /npm run restore -- (\S+)$/.exec(restore!)?.[1];
    expect(restore).toBe(restoreLine(backup!));
    expect(path.dirname(backup!)).toBe(p.backupDir);
    expect(fs.readdirSync(p.backupDir).sort()).toEqual([...old.map((f) => path.basename(f)), path.basename(backup!)].sort());
    // the migration was rolled back; the line's backup is the database as it was
    restoreDatabase(backup!, p.file);
    expect(rows(p.file, "SELECT * FROM tag")).toEqual([{ id: 1, name: "late dinner" }]);
    expect(rows(p.file, "SELECT migration_name FROM _prisma_migrations")).toEqual([{ migration_name: "0001_tags" }]);
  });

  it("a migration that leaves a foreign key dangling: refused, naming table, row and key, with the restore line", async () => {
    // drops the tags without their day tags (foreign keys are off while migrating, as SQLite's table recipe needs)
    const p = await seeded({ secondSql: 'DELETE FROM "tag";\n' });
    const refusal = (await upgradeSqlite({ ...p, keepBackups: 3, freeBytes: plenty }).catch((e: unknown) => e)) as Error;
    expect(refusal).toBeInstanceOf(StartRefusal);
    const [first, restore] = refusal.message.split("\n");
    expect(first).toBe(
      'Dangling foreign key in the database after migrating: table "day_tag" row 1 (tagId = 1) points to no row of "tag". A migration left these references without the rows they point to.',
    );
    expect(restore).toMatch(
      /^To put the database back as it was before this start: stop Ringside, then run {2}npm run restore -- \S+ringside-pre-migrate-\d{8}T\d{6}Z\.db$/,
    );
  });

  it("an edited applied migration: refused before any backup, naming the file", async () => {
    const p = await seeded();
    fs.appendFileSync(path.join(p.migrationsDir, "0001_tags", "migration.sql"), "CREATE INDEX tag_name ON tag (name);\n");
    await expect(upgradeSqlite({ ...p, keepBackups: 3, freeBytes: plenty })).rejects.toThrow(/0001_tags.migration\.sql was edited after it was applied/);
    expect(fs.existsSync(p.backupDir) ? fs.readdirSync(p.backupDir) : []).toEqual([]);
  });
});

describe("upgradePostgres (npm start on PostgreSQL)", () => {
  it("an edited applied migration: refused, naming the file and the database (never its password); nothing applied", async () => {
    const { url } = await postgresTestDatabase("upgrade-edited");
    const p = project();
    fs.rmSync(p.migrationsDir, { recursive: true });
    const write = (name: string, sql: string) => {
      fs.mkdirSync(path.join(p.migrationsDir, name), { recursive: true });
      fs.writeFileSync(path.join(p.migrationsDir, name, "migration.sql"), sql);
    };
    write("0001_tags", 'CREATE TABLE "tag" ("id" SERIAL PRIMARY KEY);\n');
    expect(await upgradePostgres({ url, migrationsDir: p.migrationsDir })).toEqual(["0001_tags"]);
    write("0001_tags", 'CREATE TABLE "tag" ("id" SERIAL PRIMARY KEY, "name" TEXT);\n');
    write("0002_more", 'CREATE TABLE "more" ("id" INTEGER);\n');
    const refusal = (await upgradePostgres({ url, migrationsDir: p.migrationsDir }).catch((e: unknown) => e)) as Error;
    expect(refusal).toBeInstanceOf(StartRefusal);
    const u = new URL(url);
    expect(refusal.message).toMatch(
      new RegExp(`^PostgreSQL database ${u.hostname}:${u.port}${u.pathname}: \\S*0001_tags.migration\\.sql was edited after it was applied`),
    );
    if (u.password) expect(refusal.message).not.toContain(u.password);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = (await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)).rows;
    await client.end();
    expect(tables).toEqual([{ table_name: "_prisma_migrations" }, { table_name: "tag" }]);
    // a failing migration says how to go back
    write("0001_tags", 'CREATE TABLE "tag" ("id" SERIAL PRIMARY KEY);\n');
    write("0002_more", 'CREATE TABLE "tag" ("id" INTEGER);\n');
    const failed = (await upgradePostgres({ url, migrationsDir: p.migrationsDir }).catch((e: unknown) => e)) as Error;
    expect(failed.message.split("\n")).toEqual([
      expect.stringMatching(/^Cannot migrate the PostgreSQL database .*: migration 0002_more failed: relation "tag" already exists \(rolled back/),
      expect.stringMatching(/^To go back: stop every Ringside process, restore the pg_dump you took before updating/),
    ]);
  });
});
