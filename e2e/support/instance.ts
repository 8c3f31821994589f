import { childEnv } from "../../lib/process.mjs";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_CLIENT, E2E_EMULATOR_URL, E2E_TOKEN_KEY } from "./ports";

export type Instance = { url: string; dataDir: string; stop(): Promise<void>; /** what it printed (stdout and stderr) */ logs(): string };

/**
 * Starts another Ringside (the production path, `node lib/server/start.mjs`) on its own port
 * and data directory, against the e2e emulator, with the same secrets as the main e2e app.
 */
export async function startInstance(opts: {
  port: number;
  dataDir: string;
  clientId?: string;
  clientSecret?: string;
  env?: Record<string, string>;
}): Promise<Instance> {
  const url = `http://localhost:${opts.port}`;
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, ["lib/server/start.mjs"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: childEnv({
      ...process.env,
      NODE_ENV: "production",
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      DATABASE_URL: `file:${path.join(opts.dataDir, "ringside.db")}`,
      AUTH_URL: url,
      AUTH_SECRET: "e2e-auth-secret-not-for-production-0123456789",
      TOKEN_ENCRYPTION_KEY: E2E_TOKEN_KEY,
      WEBHOOK_VERIFICATION_TOKEN: "e2e-webhook-verification-token",
      RING_API_BASE_URL: E2E_EMULATOR_URL,
      RING_CLIENT_ID: opts.clientId ?? E2E_CLIENT.client_id,
      RING_CLIENT_SECRET: opts.clientSecret ?? E2E_CLIENT.client_secret,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      ...opts.env,
    }),
  });
  let stderr = "";
  let output = "";
  const keep = (c: Buffer) => (output = (output + c.toString()).slice(-1_000_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", (c: Buffer) => {
    keep(c);
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance on ${opts.port} exited: ${stderr}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`instance on ${opts.port} did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir: opts.dataDir,
    logs: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}
