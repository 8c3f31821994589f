import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

// The offline schema-engine stand-in (prisma/schema-engine.mjs) driven by the real Prisma
// CLI: a migration created, applied to a fresh file, and the database reset.
const prismaBin = path.resolve("node_modules/.bin/prisma");

function makeProject() {
  const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "shim-")); // inside the file's own directory (lib/test/setup.ts), removed after it;
  fs.mkdirSync(path.join(dir, "prisma"));
  fs.writeFileSync(
    path.join(dir, "prisma/schema.prisma"),
    `datasource db {\n  provider = "sqlite"\n}\nmodel Widget {\n  id   Int    @id @default(autoincrement())\n  name String\n}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "prisma.config.ts"),
    `import { defineConfig } from "prisma/config";\nexport default defineConfig({ schema: "prisma/schema.prisma", migrations: { path: "prisma/migrations" }, datasource: { url: "file:./test.db" } });\n`,
  );
  return dir;
}

function prisma(dir: string, args: string[]) {
  return execFileSync(prismaBin, args, {
    cwd: dir,
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: path.resolve("prisma/schema-engine.mjs"),
      NODE_PATH: path.resolve("node_modules"),
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
}

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all() as { name: string }[];
  db.close();
  return rows.map((r) => r.name);
}

describe("prisma/schema-engine.mjs (offline stand-in for the native schema engine)", () => {
  it("reports itself as the engine", () => {
    const out = execFileSync(process.execPath, [path.resolve("prisma/schema-engine.mjs"), "--version"], { encoding: "utf8" });
    expect(out).toContain("wasm-shim");
  });

  it("creates a migration, applies it to a fresh file, then resets the database", () => {
    const dir = makeProject();
    // Node resolves the shim's imports from the repo: link node_modules into the project.
    fs.symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"), "dir");

    prisma(dir, ["migrate", "dev", "--name", "init"]);
    const migrations = fs.readdirSync(path.join(dir, "prisma/migrations")).filter((n) => n.endsWith("_init"));
    expect(migrations).toHaveLength(1);
    const sql = fs.readFileSync(path.join(dir, "prisma/migrations", migrations[0]!, "migration.sql"), "utf8");
    expect(sql).toContain('CREATE TABLE "Widget"');
    expect(tables(path.join(dir, "test.db"))).toEqual(expect.arrayContaining(["Widget", "_prisma_migrations"]));

    // applied to a brand-new file with migrate deploy
    fs.rmSync(path.join(dir, "test.db"));
    const deployed = prisma(dir, ["migrate", "deploy"]);
    expect(deployed).toMatch(/applied|All migrations have been successfully applied/i);
    expect(tables(path.join(dir, "test.db"))).toContain("Widget");

    // data, then reset: the table comes back empty
    const db = new Database(path.join(dir, "test.db"));
    db.prepare("INSERT INTO Widget (name) VALUES ('a')").run();
    db.close();
    prisma(dir, ["migrate", "reset", "--force"]);
    const after = new Database(path.join(dir, "test.db"), { readonly: true });
    expect((after.prepare("SELECT COUNT(*) AS n FROM Widget").get() as { n: number }).n).toBe(0);
    after.close();

    const status = prisma(dir, ["migrate", "status"]);
    expect(status).toMatch(/up to date/i);
  }, 120_000);
});
