import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startEmulator } from "./server";

function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; ready: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "lib/emulator/main.ts"], {
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let ready = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /Ring emulator listening on (http:\/\/\S+)/.exec(stdout);
      if (m && !ready) {
        ready = true;
        void fetch(`${m[1]}/_emulator/health`)
          .then((r) => r.json())
          .then((body: { status?: string }) => {
            stdout += `\nhealth=${body.status}`;
            child.kill("SIGTERM");
          });
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ready });
    });
  });
}

describe("startEmulator", () => {
  it("listens on a free port with a localhost URL and closes cleanly", async () => {
    const emu = await startEmulator({ port: 0 });
    expect(emu.url).toBe(`http://localhost:${emu.port}`);
    expect(emu.port).toBeGreaterThan(0);
    expect(emu.config.port).toBe(emu.port);
    const r = await fetch(`http://127.0.0.1:${emu.port}/_emulator/health`);
    expect(r.status).toBe(200);
    await emu.close();
    await expect(fetch(`http://127.0.0.1:${emu.port}/_emulator/health`)).rejects.toThrow();
  });

  it("keeps an idle connection until the client closes it: no keep-alive deadline, none advertised", async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const res = await fetch(`${emu.url}/_emulator/health`);
      await res.text();
      expect(res.headers.get("connection")).toBe("keep-alive");
      // a `Keep-Alive: timeout=N` hint would make Node's fetch keep the connection N − 2 s, racing the server's own close
      expect(res.headers.get("keep-alive")).toBeNull();
    } finally {
      await emu.close();
    }
  });

  it("rejects invalid overrides", async () => {
    await expect(startEmulator({ port: 0, pageSize: 0 })).rejects.toThrow(/pageSize/);
  });

  it("answers 413 for oversized bodies", async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const r = await fetch(`${emu.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "a=".padEnd(1_100_000, "x"),
      });
      expect(r.status).toBe(413);
    } finally {
      await emu.close();
    }
  });
});

describe("main.ts", () => {
  it("prints the settings table and the ready line, serves, and exits 0 on SIGTERM", async () => {
    const r = await runMain({ RING_EMULATOR_PORT: "0", RING_EMULATOR_PAGE_SIZE: "9" });
    expect(r.ready).toBe(true);
    expect(r.stdout).toMatch(/RING_EMULATOR_PAGE_SIZE\s+9/);
    expect(r.stdout).toMatch(/Ring emulator listening on http:\/\/localhost:\d+/);
    expect(r.stdout).toContain("health=ok");
    expect(r.code).toBe(0);
  }, 25_000);

  it("exits 1 naming the variable when a setting is invalid", async () => {
    const r = await runMain({ RING_EMULATOR_RATE_LIMIT: "lots" });
    expect(r.ready).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("RING_EMULATOR_RATE_LIMIT");
  }, 25_000);
});
