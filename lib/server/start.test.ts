// The production entry (`npm start` = lib/server/start.mjs) with a RING_OAUTH_ISSUER whose
// discovery document cannot be read, or without the app's own client secret outside demo mode:
// it stops before touching the database, with one message that names the variable.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { startEmulator, type RunningEmulator } from "@/lib/emulator/server";
import { applyPendingMigrations, readMigrations } from "@/lib/db/migrate.mjs";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, host: "127.0.0.1" });
});
afterAll(() => emu.close());

/** Runs start.mjs (asynchronously: the emulator answers from this process) until it exits. */
async function start(vars: Record<string, string>, prepare?: (dataDir: string) => void) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-start-"));
  try {
    prepare?.(dataDir);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("VITEST") && !k.startsWith("RING_")) env[k] = v;
    const child = spawn(process.execPath, ["lib/server/start.mjs"], {
      env: {
        ...env,
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        DATABASE_URL: `file:${path.join(dataDir, "ringside.db")}`,
        RING_REQUEST_TIMEOUT_MS: "3000",
        PORT: "1",
        ...vars,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    clearTimeout(killer);
    const backups = path.join(dataDir, "backups");
    return { status, stderr, dbCreated: fs.existsSync(path.join(dataDir, "ringside.db")), backups: fs.existsSync(backups) ? fs.readdirSync(backups) : [] };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe("npm start with RING_OAUTH_ISSUER", () => {
  it.each([
    ["nothing listens there", () => "http://127.0.0.1:9/oauth/v2/ext/oauth-anonymous", /could not be fetched/],
    ["the address serves no discovery document", () => `${emu.url}/oauth/v2/ext`, /HTTP 404/],
  ])("stops with exit code 1 and one message naming RING_OAUTH_ISSUER when %s", async (_what, issuer, reason) => {
    const r = await start({ RING_OAUTH_ISSUER: issuer(), RING_CLIENT_SECRET: "start-test-client-secret" });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^RING_OAUTH_ISSUER=/);
    expect(lines[0]).toMatch(reason);
    expect(r.dbCreated).toBe(false);
  });
});

describe("npm start outside demo mode", () => {
  it.each([
    ["without RING_CLIENT_SECRET", {}, /^ {2}- RING_CLIENT_SECRET is not set/m],
    ["with the emulator's public demo secret", { RING_CLIENT_SECRET: "ringside-demo-secret" }, /^ {2}- RING_CLIENT_SECRET is the built-in demo secret/m],
  ])("stops with exit code 1 and a message naming RING_CLIENT_SECRET %s", async (_what, vars, reason) => {
    const r = await start(vars);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Ringside cannot start:/);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr.match(/RING_CLIENT_SECRET/g)?.length).toBeGreaterThan(0);
    expect(r.dbCreated).toBe(false);
  });
});

describe("npm start on a database its migrations do not fit", () => {
  const migrations = readMigrations(path.resolve("prisma/migrations"));
  /** A database migrated to today, then changed by `sql`. */
  const database = (sql: string) => (dataDir: string) => {
    const file = path.join(dataDir, "ringside.db");
    applyPendingMigrations(file, path.resolve("prisma/migrations"));
    const db = new Database(file);
    db.exec(sql);
    db.close();
  };
  const vars = { RING_CLIENT_SECRET: "start-test-client-secret", AUTH_URL: "http://localhost:3000" };

  it("an applied migration whose file was edited since it ran: stops with one line naming the file, before any backup", async () => {
    const first = migrations[0]!;
    const r = await start(vars, database(`UPDATE _prisma_migrations SET checksum = '${"0".repeat(64)}' WHERE migration_name = '${first.name}'`));
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^prisma/migrations/${first.name}/migration\\.sql was edited after it was applied to this database`)),
    ]);
    expect(r.backups).toEqual([]);
  });

  it("a migration that fails: stops with the reason and one line that restores the backup it took before migrating", async () => {
    // the newest migration looks pending, but what it creates is already there
    const last = migrations.at(-1)!;
    const r = await start(vars, database(`DELETE FROM _prisma_migrations WHERE migration_name = '${last.name}'`));
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    // (what it creates is there: a table "already exists", a column is a "duplicate column")
    expect(lines[0]).toMatch(new RegExp(`^The database could not be migrated: migration ${last.name} failed: .*(already exists|duplicate column)`));
    expect(r.backups).toEqual([expect.stringMatching(/^ringside-pre-migrate-\d{8}T\d{6}Z\.db$/)]);
    expect(lines[1]).toMatch(
      new RegExp(
        `^To put the database back as it was before this start: stop Ringside, then run {2}npm run restore -- /\\S+/backups/${r.backups[0]!.replace(".", "\\.")}$`,
      ),
    );
  });
});
