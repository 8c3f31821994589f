#!/usr/bin/env node
// Offline stand-in for Prisma's native `schema-engine` binary (SQLite only).
// The Prisma 7 CLI spawns PRISMA_SCHEMA_ENGINE_BINARY and talks JSON-RPC over
// stdio; this shim answers with @prisma/schema-engine-wasm + the better-sqlite3
// driver adapter, so `prisma migrate dev|deploy|reset|status|diff`, `db push`
// and `db execute` work without downloading anything.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const datamodelPaths = [];
let datasource = {};
let cliCommand = null;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--datamodels") datamodelPaths.push(argv[++i]);
  else if (a === "--datasource") datasource = JSON.parse(argv[++i]);
  else if (a === "--enabled-preview-features" || a === "--extension-types") i++;
  else if (a === "cli") cliCommand = argv[++i];
  else if (a === "--version" || a === "-V") {
    process.stdout.write("schema-engine-cli wasm-shim\n");
    process.exit(0);
  }
}

const log = (level, message, extra = {}) =>
  process.stderr.write(JSON.stringify({ timestamp: new Date().toISOString(), level, fields: { message, ...extra }, target: "schema_engine::logger" }) + "\n");

function sqliteFile(url) {
  if (!url) throw new Error("datasource.url is empty (set it in prisma.config.ts)");
  if (url === ":memory:" || url === "file::memory:") return null;
  const p = url.replace(/^file:/, "").split("?")[0];
  return path.resolve(process.cwd(), p);
}

// ---- one-shot `cli` sub-commands used by migrate dev/reset -----------------
if (cliCommand) {
  // The CLI drops the first stderr line, then parses the rest as JSON log lines.
  log("INFO", `Starting schema engine CLI shim (${cliCommand})`);
  const file = sqliteFile(datasource.url);
  if (cliCommand === "can-connect-to-database") {
    if (file && !fs.existsSync(file)) {
      log("ERROR", `Database \`${path.basename(file)}\` does not exist`, { error_code: "P1003" });
      process.exit(1);
    }
    process.exit(0);
  }
  if (cliCommand === "create-database") {
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const Database = require("better-sqlite3");
      new Database(file).close();
    }
    process.exit(0);
  }
  if (cliCommand === "drop-database") {
    if (file) for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    process.exit(0);
  }
  log("ERROR", `unsupported cli command ${cliCommand}`);
  process.exit(1);
}

// ---- JSON-RPC server backed by the wasm schema engine ----------------------
const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
const { loadSchemaEngineRuntime } = await import("./schema-engine-wasm.mjs");
const runtime = await loadSchemaEngineRuntime();

const factory = new PrismaBetterSqlite3(
  { url: datasource.url ?? "file:./dev.db" },
  datasource.shadowDatabaseUrl ? { shadowDatabaseUrl: datasource.shadowDatabaseUrl } : undefined,
);
// The wasm engine replays migration scripts on the shadow DB through executeRaw,
// which better-sqlite3 rejects for multi-statement SQL: fall back to executeScript.
const multiStatementSafe = (conn) =>
  new Proxy(conn, {
    get(target, key) {
      const value = target[key];
      if (key !== "executeRaw") return typeof value === "function" ? value.bind(target) : value;
      return async (query) => {
        try {
          return await value.call(target, query);
        } catch (e) {
          if (!query.args?.length && /more than one statement/i.test(String(e?.message ?? e?.cause?.message))) {
            await target.executeScript(query.sql);
            return 0;
          }
          throw e;
        }
      };
    },
  });
const adapter = bindMigrationAwareSqlAdapterFactory({
  provider: factory.provider,
  adapterName: factory.adapterName,
  connect: async () => multiStatementSafe(await factory.connect()),
  connectToShadowDb: async () => multiStatementSafe(await factory.connectToShadowDb()),
});
const datamodels = datamodelPaths.length ? datamodelPaths.map((p) => [p, fs.readFileSync(path.resolve(process.cwd(), p), "utf8")]) : undefined;
const debug = (msg) => {
  if (process.env.PRISMA_SHIM_DEBUG) process.stderr.write(String(msg) + "\n");
};
let engine;
try {
  engine = await runtime.SchemaEngine.new({ datamodels }, debug, adapter);
} catch (e) {
  const found = adapter.errorRegistry?.lookupError?.(e);
  log("ERROR", String((found?.error ?? e)?.message ?? e));
  process.exit(1);
}

const send = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
let printId = 1_000_000;

function toRpcError(e) {
  const found = adapter.errorRegistry?.lookupError?.(e);
  const err = found?.error ?? e;
  const message = String(err?.message ?? err);
  const isPanic = err instanceof WebAssembly.RuntimeError || /unreachable|panicked/i.test(message);
  const data = { is_panic: isPanic, message };
  if (err && typeof err === "object" && "code" in err && typeof err.code === "string") {
    data.error_code = err.code;
    if (err.meta) data.meta = err.meta;
  }
  return { code: 4466, message: "An error happened. Check the data field for details.", data };
}

// The wasm engine reports a missing `_prisma_migrations` table as P1014 instead of
// "history not initialised" (the native engine's behaviour), so create it up front
// with the exact DDL the native engine uses.
const HISTORY_METHODS = new Set(["applyMigrations", "devDiagnostic", "diagnoseMigrationHistory", "markMigrationApplied", "markMigrationRolledBack"]);
function ensureMigrationsTable() {
  const file = sqliteFile(datasource.url);
  if (!file) return;
  const Database = require("better-sqlite3");
  const db = new Database(file);
  db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
);`);
  db.close();
}

async function dispatch(method, params) {
  if (HISTORY_METHODS.has(method)) ensureMigrationsTable();
  switch (method) {
    case "getDatabaseVersion":
      return engine.version(params ?? null);
    case "createDatabase": {
      const file = sqliteFile(datasource.url);
      if (file && !fs.existsSync(file)) new (require("better-sqlite3"))(file).close();
      return { databaseName: file ? path.basename(file) : "main" };
    }
    case "diff": {
      const { stdout, ...rest } = await engine.diff(params);
      if (stdout) send({ jsonrpc: "2.0", id: printId++, method: "print", params: { content: stdout.replace(/\n$/, "") } });
      return rest;
    }
    case "dbExecute":
      await engine.dbExecute(params);
      return {};
    case "reset": {
      // The wasm engine's reset does not empty an SQLite file: drop everything ourselves.
      const file = sqliteFile(datasource.url);
      if (!file) {
        await engine.reset(params ?? {});
        return {};
      }
      const Database = require("better-sqlite3");
      const db = new Database(file);
      db.pragma("foreign_keys = OFF");
      const q = (n) => `"${n.replaceAll('"', '""')}"`;
      const objects = db.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all();
      for (const type of ["trigger", "view", "table"])
        for (const o of objects.filter((x) => x.type === type)) db.exec(`DROP ${type.toUpperCase()} IF EXISTS ${q(o.name)}`);
      if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get()) db.exec("DELETE FROM sqlite_sequence");
      db.exec("VACUUM");
      db.close();
      return {};
    }
    case "debugPanic":
      return engine.debugPanic();
    default:
      if (typeof engine[method] !== "function") throw new Error(`schema-engine shim: unknown method ${method}`);
      return (await engine[method](params)) ?? {};
  }
}

let queue = Promise.resolve();
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (!msg.method) return; // reply to one of our own "print" requests
  queue = queue.then(async () => {
    try {
      const result = await dispatch(msg.method, msg.params);
      send({ jsonrpc: "2.0", id: msg.id, result: result ?? {} });
    } catch (e) {
      send({ jsonrpc: "2.0", id: msg.id, error: toRpcError(e) });
    }
  });
});
rl.on("close", () => {
  queue.then(() => {
    try {
      engine.free();
    } catch {}
    process.exit(0);
  });
});
