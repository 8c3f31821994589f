import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { applyPendingMigrations, pendingMigrations, readMigrations } from "@/lib/db/migrate.mjs";

const migrationsDir = path.resolve("prisma/migrations");

describe("lib/db/migrate.mjs (migrations applied by npm start)", () => {
  it("applies every migration to a new file once, recording them as Prisma does", () => {
    const file = path.join(fs.mkdtempSync(path.join(process.env.DATA_DIR!, "mig-")), "ringside.db");
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
    const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "mig-"));
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

  it("two processes starting at once on one file: every migration applied once, both start", async () => {
    const file = path.join(fs.mkdtempSync(path.join(process.env.DATA_DIR!, "mig-")), "ringside.db");
    // The file exists (WAL) and this test holds its write lock while both processes find every
    // migration pending and then wait for the lock: released, they apply at the same time.
    const holder = new Database(file);
    holder.pragma("journal_mode = WAL");
    holder.exec("BEGIN IMMEDIATE");
    const script = `import { applyPendingMigrations, pendingMigrations } from ${JSON.stringify(path.resolve("lib/db/migrate.mjs"))};
      const file = ${JSON.stringify(file)}, dir = ${JSON.stringify(migrationsDir)};
      process.stdout.write(pendingMigrations(file, dir).length + " pending\\n");
      process.stdout.write(JSON.stringify(applyPendingMigrations(file, dir)) + "\\n");`;
    const ready: Array<Promise<void>> = [];
    const run = () =>
      new Promise<{ code: number | null; applied: string[]; err: string }>((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        ready.push(
          new Promise((r) =>
            child.stdout.on("data", (b: Buffer) => {
              out += b.toString();
              if (out.includes("pending")) r();
            }),
          ),
        );
        child.stderr.on("data", (b: Buffer) => (err += b.toString()));
        child.on("exit", (code) => resolve({ code, applied: out.includes("[") ? (JSON.parse(out.slice(out.indexOf("["))) as string[]) : [], err }));
      });
    const both = Promise.all([run(), run()]);
    await Promise.all(ready);
    // Both have found the migrations pending; give them the moment to reach the lock.
    await new Promise((r) => setTimeout(r, 300));
    holder.exec("COMMIT");
    holder.close();
    const [a, b] = await both;
    expect([a.code, b.code, a.err + b.err]).toEqual([0, 0, ""]);
    const all = readMigrations(migrationsDir).map((m) => m.name);
    expect([...a.applied, ...b.applied].sort()).toEqual([...all].sort());
    const db = new Database(file, { readonly: true });
    const names = (db.prepare("SELECT migration_name FROM _prisma_migrations").all() as Array<{ migration_name: string }>).map((r) => r.migration_name);
    db.close();
    expect(names.sort()).toEqual([...all].sort());
  });
});
