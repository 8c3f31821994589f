import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** Applies every migration in prisma/migrations to a SQLite file, in order. */
export function applyMigrations(file: string): void {
  const dir = path.resolve("prisma/migrations");
  const names = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  for (const name of names) db.exec(fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
  db.close();
}

/** A fresh temporary data directory with a migrated ringside.db in it. */
export function createTestDatabase(): { url: string; file: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-test-"));
  const file = path.join(dir, "ringside.db");
  applyMigrations(file);
  return { url: `file:${file}`, file, dir };
}
