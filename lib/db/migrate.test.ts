import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  applyPendingMigrations,
  checkForeignKeys,
  danglingForeignKeys,
  MigrationCheckError,
  pendingMigrations,
  readMigrations,
  scriptMatchesChecksum,
} from "@/lib/db/migrate.mjs";

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

describe("applied migrations held to their files", () => {
  function project() {
    const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "mig-"));
    const migs = path.join(dir, "migrations");
    fs.mkdirSync(path.join(migs, "0001_parent"), { recursive: true });
    fs.mkdirSync(path.join(migs, "0002_child"), { recursive: true });
    fs.writeFileSync(path.join(migs, "0001_parent/migration.sql"), "-- parents\nCREATE TABLE parent (id INTEGER PRIMARY KEY);\n");
    fs.writeFileSync(
      path.join(migs, "0002_child/migration.sql"),
      "CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent (id));\nCREATE INDEX child_parent ON child (parentId);\n",
    );
    return { dir, migs, file: path.join(dir, "x.db") };
  }

  it("an applied migration edited afterwards: refused before anything runs, naming its file", () => {
    const { migs, file } = project();
    expect(applyPendingMigrations(file, migs)).toEqual(["0001_parent", "0002_child"]);
    fs.mkdirSync(path.join(migs, "0003_more"));
    fs.writeFileSync(path.join(migs, "0003_more/migration.sql"), "CREATE TABLE more (id INTEGER);\n");
    // a comment is an edit too: the runner cannot tell a harmless one from one that changes what ran
    fs.appendFileSync(path.join(migs, "0001_parent/migration.sql"), "-- tidied\n");
    const edited = path.join("0001_parent", "migration.sql");
    expect(() => pendingMigrations(file, migs)).toThrow(MigrationCheckError);
    expect(() => applyPendingMigrations(file, migs)).toThrow(new RegExp(`${edited.replace(/[.]/g, "\\.")} was edited after it was applied`));
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'more'").get()).toBeUndefined();
    db.close();
  });

  it("line endings are not an edit: a CRLF checkout of an LF-applied file, and an LF one of a CRLF-applied file", () => {
    const { migs, file } = project();
    const parent = path.join(migs, "0001_parent/migration.sql");
    const lf = fs.readFileSync(parent, "utf8");
    fs.writeFileSync(parent, lf.replace(/\n/g, "\r\n"));
    applyPendingMigrations(file, migs); // recorded from the CRLF file
    fs.writeFileSync(parent, lf);
    expect(pendingMigrations(file, migs)).toEqual([]);
    fs.writeFileSync(parent, lf.replace(/\n/g, "\r\n"));
    expect(pendingMigrations(file, migs)).toEqual([]);
    expect(scriptMatchesChecksum(lf, readMigrations(migs)[0]!.checksum)).toBe(true);
    // but a blank line added is an edit
    fs.writeFileSync(parent, `${lf}\n`);
    expect(() => pendingMigrations(file, migs)).toThrow(/0001_parent.migration\.sql was edited/);
  });

  it("a database with a migration this version does not have (made by a newer one, or a folder renamed): refused, naming it", () => {
    const { migs, file } = project();
    applyPendingMigrations(file, migs);
    fs.renameSync(path.join(migs, "0002_child"), path.join(migs, "0002_children"));
    expect(() => applyPendingMigrations(file, migs)).toThrow(/has migration 0002_child applied, which this version of Ringside does not have/);
  });

  it("a dangling foreign key is named by table, row, key and the table it points to", () => {
    const { migs, file } = project();
    applyPendingMigrations(file, migs);
    expect(danglingForeignKeys(file)).toEqual([]);
    expect(() => checkForeignKeys(file)).not.toThrow();
    const db = new Database(file);
    db.pragma("foreign_keys = OFF");
    db.exec("INSERT INTO parent (id) VALUES (1); INSERT INTO child (id, parentId) VALUES (10, 1), (11, 2), (12, NULL)");
    db.close();
    expect(danglingForeignKeys(file)).toEqual([{ table: "child", rowid: 11, parent: "parent", key: { parentId: 2 } }]);
    expect(() => checkForeignKeys(file)).toThrow(
      'Dangling foreign key in the database after migrating: table "child" row 11 (parentId = 2) points to no row of "parent"',
    );
  });
});
