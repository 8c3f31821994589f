import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backupDatabase, pruneBackups, restoreDatabase } from "@/lib/db/backup.mjs";

function tmp() {
  return fs.mkdtempSync(path.join(process.env.DATA_DIR!, "bak-")); // inside the file's own directory (lib/test/setup.ts), removed after it;
}

describe("lib/db/backup.mjs", () => {
  it("takes a consistent online backup while another connection writes", async () => {
    const dir = tmp();
    const file = path.join(dir, "ringside.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run("x".repeat(100));
    })();
    db.close();
    // another process keeps writing transactions of 100 rows while the backup runs
    const writerCode = `
      const Database = require("better-sqlite3");
      const db = new Database(process.argv[1], { timeout: 5000 });
      const ins = db.prepare("INSERT INTO t (v) VALUES ('y')");
      const batch = db.transaction(() => { for (let i = 0; i < 100; i++) ins.run(); });
      process.stdout.write("ready\\n");
      for (;;) batch();
    `;
    const writer = spawn(process.execPath, ["-e", writerCode, file], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => writer.stdout!.once("data", () => resolve()));
    // Start the backup once the writer has committed something (a condition, not a wait).
    const reader = new Database(file, { readonly: true });
    const rows = () => (reader.prepare("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n;
    while (rows() <= 5000) await new Promise((r) => setImmediate(r));
    reader.close();
    const backup = await backupDatabase(file, path.join(dir, "backups"), "manual");
    writer.kill("SIGKILL");
    expect(path.basename(backup)).toMatch(/^ringside-manual-\d{8}T\d{6}Z\.db$/);
    expect((fs.statSync(backup).mode & 0o777).toString(8)).toBe("600");
    const copy = new Database(backup, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    const n = (copy.prepare("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n;
    expect(n).toBeGreaterThan(5000); // the writer's rows made it in

    expect((n - 5000) % 100).toBe(0); // whole transactions only
    copy.close();
  });

  it("restores a backup and keeps the replaced file", async () => {
    const dir = tmp();
    const file = path.join(dir, "ringside.db");
    const db = new Database(file);
    db.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('before')");
    db.close();
    const backup = await backupDatabase(file, dir, "manual");
    const db2 = new Database(file);
    db2.exec("DELETE FROM t; INSERT INTO t VALUES ('after')");
    db2.close();
    restoreDatabase(backup, file);
    const restored = new Database(file, { readonly: true });
    expect(restored.prepare("SELECT v FROM t").pluck().get()).toBe("before");
    restored.close();
    expect(fs.readdirSync(dir).some((f) => f.startsWith("ringside.db.before-restore-"))).toBe(true);
  });

  it("refuses a corrupt backup and changes nothing", () => {
    const dir = tmp();
    const file = path.join(dir, "ringside.db");
    fs.writeFileSync(path.join(dir, "bad.db"), "not a database at all".repeat(100));
    expect(() => restoreDatabase(path.join(dir, "bad.db"), file)).toThrow();
    expect(fs.existsSync(file)).toBe(false);
  });

  it("prunes old backups beyond the retention count", () => {
    const dir = tmp();
    for (const d of ["20260101T000000Z", "20260102T000000Z", "20260103T000000Z"]) {
      fs.writeFileSync(path.join(dir, `ringside-daily-${d}.db`), "");
    }
    fs.writeFileSync(path.join(dir, "ringside-manual-20250101T000000Z.db"), "");
    const deleted = pruneBackups(dir, 2, "daily");
    expect(deleted.map((f) => path.basename(f))).toEqual(["ringside-daily-20260101T000000Z.db"]);
    expect(fs.readdirSync(dir)).toContain("ringside-manual-20250101T000000Z.db");
  });
});
