// Starts the built app for Playwright on a fresh data directory, through the production
// path (`npm start` = lib/server/start.mjs: migrate, then the standalone server).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dataDir = path.resolve(process.env.DATA_DIR ?? "e2e/.data");
fs.rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ["lib/server/start.mjs"], { stdio: "inherit", env: process.env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 1));
