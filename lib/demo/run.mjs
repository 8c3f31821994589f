#!/usr/bin/env node
// `npm run demo`: builds the app when needed, starts the ring emulator (http://localhost:4010)
// and the app configured for it (http://localhost:3000). No configuration needed: secrets are
// generated into the data directory on first start. Ctrl-C (or SIGTERM) stops both.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);

const emulatorPort = process.env.RING_EMULATOR_PORT ?? "4010";
const appPort = process.env.PORT ?? "3000";
const emulatorUrl = `http://localhost:${emulatorPort}`;

/** Newest modification time under the given paths (source files only). */
function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (/node_modules|generated|\.next|test-results/.test(p)) return;
      for (const f of fs.readdirSync(p)) walk(path.join(p, f));
    } else if (/\.(tsx?|mjs|css|prisma)$/.test(p) && !/\.test\.tsx?$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const p of paths) walk(path.join(root, p));
  return newest;
}

const buildId = path.join(root, ".next/BUILD_ID");
const standaloneServer = path.join(root, ".next/standalone/server.js");
const stale =
  !fs.existsSync(buildId) ||
  !fs.existsSync(standaloneServer) ||
  newestMtime(["app", "components", "lib", "next.config.mjs", "package.json"]) > fs.statSync(buildId).mtimeMs;
if (stale) {
  console.log("[demo] building the app (first run or sources changed, about a minute)...");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  spawnSync(process.execPath, ["lib/server/standalone.mjs"], { stdio: "inherit" });
}

const children = [];
function start(name, args, env) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = (stream, out) => {
    let buf = "";
    stream.on("data", (chunk) => {
      buf += chunk;
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on("exit", (code, signal) => {
    console.log(`[demo] ${name} exited (${signal ?? code}); stopping.`);
    shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  setTimeout(() => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    process.exit(code);
  }, 5000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.on("exit", r)) : null))).then(() =>
    process.exit(code),
  );
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

start("emulator", ["--import", "tsx", "lib/emulator/main.ts"], {
  RING_EMULATOR_PORT: emulatorPort,
  RING_EMULATOR_WEBHOOK_DELAY_MS: process.env.RING_EMULATOR_WEBHOOK_DELAY_MS ?? "2000",
});
start("app", ["lib/server/start.mjs"], {
  PORT: appPort,
  HOST: process.env.HOST ?? "localhost",
  RINGSIDE_DEMO: "1",
  RING_API_BASE_URL: process.env.RING_API_BASE_URL ?? emulatorUrl,
  RING_CLIENT_ID: process.env.RING_CLIENT_ID ?? "ringside-demo",
  RING_CLIENT_SECRET: process.env.RING_CLIENT_SECRET ?? "ringside-demo-secret",
  AUTH_URL: process.env.AUTH_URL ?? `http://localhost:${appPort}`,
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${appPort}`,
  NEXT_TELEMETRY_DISABLED: "1",
});
console.log(`[demo] Ringside demo: open http://localhost:${appPort} and click "Connect your ring" (emulator at ${emulatorUrl}).`);
