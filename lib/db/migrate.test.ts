import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { applyPendingMigrations, pendingMigrations, readMigrations } from "@/lib/db/migrate.mjs";

const migrationsDir = path.resolve("prisma/migrations");

describe("lib/db/migrate.mjs (migrations applied by npm start)", () => {
  it("applies every migration to a new file once, recording them as Prisma does", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ringside-mig-")), "ringside.db");
    const all = readMigrations(migrationsDir);
    expect(all.length).toBeGreaterThan(0);
    expect(pendingMigrations(file, migrationsDir)).toHaveLength(all.length);
    expect(applyPendingMigrations(file, migrationsDir)).toEqual(all.map((m) => m.name));
    expect(pendingMigrations(file, migrationsDir)).toHaveLength(0);
    expect(applyPendingMigrations(file, migrationsDir)).toEqual([]);
    const db = new Database(file, { readonly: true });
    const rows = db.prepare("SELECT migration_name, checksum, finished_at FROM _prisma_migrations").all() as {
      checksum: string;
      finished_at: string | null;
    }[];
    expect(rows).toHaveLength(all.length);
    expect(rows[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.finished_at).not.toBeNull();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'daily_sleep'").get()).toBeTruthy();
    db.close();
  });

  it("rolls back a failing migration and leaves it pending", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-mig-"));
    const migs = path.join(dir, "migrations");
    fs.mkdirSync(path.join(migs, "0001_ok"), { recursive: true });
    fs.mkdirSync(path.join(migs, "0002_bad"), { recursive: true });
    fs.writeFileSync(path.join(migs, "0001_ok/migration.sql"), "CREATE TABLE a (id INTEGER);");
    fs.writeFileSync(path.join(migs, "0002_bad/migration.sql"), "CREATE TABLE b (id INTEGER); CREATE TABLE a (id INTEGER);");
    const file = path.join(dir, "x.db");
    expect(() => applyPendingMigrations(file, migs)).toThrow(/already exists/);
    expect(pendingMigrations(file, migs).map((m) => m.name)).toEqual(["0002_bad"]);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    db.close();
  });
});
