// Starts the built app for Playwright on a fresh data directory, through the production
// path (`npm start` = lib/server/start.mjs: migrate, then the standalone server).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childEnv, watchParent } from "../../lib/process.mjs";

const dataDir = path.resolve(process.env.DATA_DIR ?? "e2e/.data");
fs.rmSync(dataDir, { recursive: true, force: true });
// the launcher watches this process, and this one Playwright's runner (RINGSIDE_PARENT_PID)
const child = spawn(process.execPath, ["lib/server/start.mjs"], { stdio: "inherit", env: childEnv(process.env) });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
watchParent(() => child.kill("SIGTERM"));
child.on("exit", (code) => process.exit(code ?? 1));
