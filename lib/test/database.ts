import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyPendingMigrations } from "@/lib/db/migrate.mjs";

/** A fresh temporary data directory with a ringside.db migrated the way `npm start` migrates. */
export function createTestDatabase(): { url: string; file: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-test-"));
  const file = path.join(dir, "ringside.db");
  applyPendingMigrations(file, path.resolve("prisma/migrations"));
  return { url: `file:${file}`, file, dir };
}
