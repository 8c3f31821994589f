#!/usr/bin/env node
// `npm run demo`: builds the app when needed, starts the ring emulator (http://localhost:4010)
// and the app configured for it (http://localhost:3000). The demo client is registered on the
// emulator's developer portal and the app uses the newer identity provider
// (RING_OAUTH_ISSUER = the emulator's issuer), as a person registering an app today meets it.
// No configuration needed: secrets are generated into the data directory on first start.
// Ctrl-C (or SIGTERM) stops both within 10 s; a second Ctrl-C stops them at once. The demo keeps
// running when its own output loses its reader (`npm run demo | head`): their lines are then
// dropped (lib/process.mjs); and if the demo itself is killed, both notice within a second and
// stop (RINGSIDE_PARENT_PID).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childEnv, stdioState, writeLine } from "../process.mjs";

stdioState();
const say = (/** @type {string} */ line) => writeLine("stdout", `${line}\n`);
const complain = (/** @type {string} */ line) => writeLine("stderr", `${line}\n`);

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
      if (/node_modules|generated|\.next|\.build|test-results/.test(p)) return;
      for (const f of fs.readdirSync(p)) walk(path.join(p, f));
    } else if (/\.(tsx?|mjs|css|prisma)$/.test(p) && !/\.test\.tsx?$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const p of paths) walk(path.join(root, p));
  return newest;
}

const { buildDir, standaloneDir } = await import("../server/build-dir.mjs");
const buildId = path.join(root, buildDir(), "BUILD_ID");
const standaloneServer = path.join(standaloneDir(root), "server.js");
const stale =
  !fs.existsSync(buildId) ||
  !fs.existsSync(standaloneServer) ||
  newestMtime(["app", "components", "lib", "next.config.mjs", "package.json"]) > fs.statSync(buildId).mtimeMs;
if (stale) {
  say("[demo] building the app (first run or sources changed, about a minute)...");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  spawnSync(process.execPath, ["lib/server/standalone.mjs"], { stdio: "inherit" });
}

const children = [];
function start(name, args, env) {
  const child = spawn(process.execPath, args, { env: childEnv({ ...process.env, ...env }), stdio: ["ignore", "pipe", "pipe"] });
  // always read the children's output (so they never wait on us), pass it on while someone reads ours
  const prefix = (stream, out) => {
    let buf = "";
    stream.on("data", (chunk) => {
      buf = (buf + chunk).slice(-65_536);
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const line of lines) writeLine(out, `[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, "stdout");
  prefix(child.stderr, "stderr");
  child.on("exit", (code, signal) => {
    say(`[demo] ${name} exited (${signal ?? code}); stopping.`);
    shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

let stopping = false;
let stoppingAt = 0;
function killAll() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
}
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  stoppingAt = performance.now();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
  // each child has 8 s to stop in order (lib/process.mjs); the demo ends within 9.5 s regardless
  setTimeout(() => {
    killAll();
    process.exit(code);
  }, 9_500).unref();
  Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.on("exit", r)) : null))).then(() => process.exit(code));
}
// a second Ctrl-C (not the copy the terminal's process group delivers at the same moment): at once
const onSignal = (/** @type {number} */ code) => () => {
  if (!stopping) return shutdown(0);
  if (performance.now() - stoppingAt < 500) return;
  killAll();
  process.exit(code);
};
process.on("SIGINT", onSignal(130));
process.on("SIGTERM", onSignal(143));
process.on("exit", killAll);

start("emulator", ["--import", "tsx", "lib/emulator/main.ts"], {
  RING_EMULATOR_PORT: emulatorPort,
  RING_EMULATOR_WEBHOOK_DELAY_MS: process.env.RING_EMULATOR_WEBHOOK_DELAY_MS ?? "2000",
  // a clock pinned for the demo (RINGSIDE_NOW) holds for its emulator too
  ...(process.env.RINGSIDE_NOW && !process.env.RING_EMULATOR_NOW ? { RING_EMULATOR_NOW: process.env.RINGSIDE_NOW } : {}),
});

const clientId = process.env.RING_CLIENT_ID ?? "ringside-demo";
const clientSecret = process.env.RING_CLIENT_SECRET ?? "ringside-demo-secret";
const issuer = process.env.RING_OAUTH_ISSUER ?? `${emulatorUrl}/oauth/v2/ext/oauth-anonymous`;

/** Waits for the emulator, then registers the demo client on its developer portal. */
async function registerDemoClient() {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${emulatorUrl}/_emulator/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (stopping) return false;
    if (Date.now() > deadline) {
      complain(`[demo] the emulator did not answer on ${emulatorUrl} within 60 s; stopping.`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const res = await fetch(`${emulatorUrl}/_emulator/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [`http://localhost:${appPort}/api/auth/callback/ring`],
      approved: false,
      portal: "developer",
    }),
  });
  if (!res.ok) {
    complain(`[demo] could not register the demo client on the emulator's developer portal (${res.status}); stopping.`);
    return false;
  }
  say(`[demo] demo client "${clientId}" registered on the emulator's developer portal (newer identity provider).`);
  return true;
}

if (!(await registerDemoClient())) shutdown(1);
else {
  start("app", ["lib/server/start.mjs"], {
    PORT: appPort,
    HOST: process.env.HOST ?? "localhost",
    RINGSIDE_DEMO: "1",
    RING_API_BASE_URL: process.env.RING_API_BASE_URL ?? emulatorUrl,
    RING_OAUTH_ISSUER: issuer,
    RING_CLIENT_ID: clientId,
    RING_CLIENT_SECRET: clientSecret,
    AUTH_URL: process.env.AUTH_URL ?? `http://localhost:${appPort}`,
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${appPort}`,
    NEXT_TELEMETRY_DISABLED: "1",
  });
  say(`[demo] Ringside demo: open http://localhost:${appPort} and click "Connect your ring" (emulator at ${emulatorUrl}).`);
}
