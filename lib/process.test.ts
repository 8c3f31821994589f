// lib/process.mjs and lib/log.ts as a process lives them: a child process writing through them
// while this test plays its reader (stalled, then gone), signals, a parent that dies, and the
// logger's redaction of secrets inside any text.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OUTPUT_BUFFER_BYTES, watchParent } from "@/lib/process.mjs";

const PROCESS_MJS = path.resolve("lib/process.mjs");

/** A node child running `body` (an ES module with lib/process.mjs imported as p); messages come over IPC. */
function child(body: string): {
  proc: ChildProcess;
  messages: unknown[];
  message: () => Promise<Record<string, unknown>>;
  exit: Promise<{ code: number | null; signal: string | null }>;
} {
  const src = `import * as p from ${JSON.stringify(PROCESS_MJS)};\n${body}`;
  const proc = spawn(process.execPath, ["--input-type=module", "-e", src], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const messages: unknown[] = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  proc.on("message", (m) => (waiting.length ? waiting.shift()!(m as Record<string, unknown>) : messages.push(m)));
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) => proc.on("exit", (code, signal) => r({ code, signal })));
  return {
    proc,
    messages,
    message: () => (messages.length ? Promise.resolve(messages.shift() as Record<string, unknown>) : new Promise((r) => waiting.push(r))),
    exit,
  };
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
});

describe("output", () => {
  it("a stalled reader: lines past the buffer are dropped and counted, memory stays bounded, the event loop keeps turning", async () => {
    const c = child(`
      const line = "x".repeat(200) + "\\n";
      let ticks = 0, written = 0;
      const t = setInterval(() => ticks++, 1);
      for (let round = 0; round < 50; round++) {
        for (let i = 0; i < 1000; i++) if (p.writeLine("stdout", line)) written++;
        await new Promise((r) => setImmediate(r));
      }
      clearInterval(t);
      process.send({ written, dropped: p.stdioState().stdout.dropped, queued: process.stdout.writableLength, ticks });
      process.disconnect();
      process.exit(0);
    `);
    running.push(c.proc);
    c.proc.stdout!.pause(); // the reader never reads
    const r = await c.message();
    expect(Number(r.written) + Number(r.dropped)).toBe(50_000);
    expect(Number(r.dropped)).toBeGreaterThan(40_000);
    expect(Number(r.queued)).toBeLessThanOrEqual(OUTPUT_BUFFER_BYTES + 201);
  });

  it("a reader that goes away: writes (ours and console.log) are dropped and counted, nothing throws, the process ends normally", async () => {
    const c = child(`
      p.stdioState();
      let closedBy = null;
      p.onStreamClosed((name, code) => (closedBy = name + ":" + code));
      process.on("message", async () => {
        for (let i = 0; i < 2000; i++) {
          p.writeLine("stdout", "line " + i + "\\n");
          console.log("console line", i);
          if (i % 100 === 0) await new Promise((r) => setImmediate(r));
        }
        await new Promise((r) => setTimeout(r, 50));
        const s = p.stdioState().stdout;
        process.send({ closed: s.closed, code: s.code, dropped: s.dropped, closedBy });
        process.disconnect();
      });
      process.send("ready");
    `);
    running.push(c.proc);
    expect(await c.message()).toBe("ready");
    c.proc.stdout!.destroy(); // the reader is gone
    c.proc.send("go");
    const r = await c.message();
    expect(r).toMatchObject({ closed: true, code: "EPIPE", closedBy: "stdout:EPIPE" });
    expect(Number(r.dropped)).toBeGreaterThan(3000);
    expect(await c.exit).toEqual({ code: 0, signal: null });
  });
});

describe("signals", () => {
  it("the first SIGTERM runs the orderly stop and exits with its code; a stop that hangs is cut at the deadline", async () => {
    const quick = child(`p.handleSignals(async () => { process.send("stopping"); return 0; }); process.send("ready"); setInterval(() => {}, 1000);`);
    running.push(quick.proc);
    expect(await quick.message()).toBe("ready");
    quick.proc.kill("SIGTERM");
    expect(await quick.message()).toBe("stopping");
    expect((await quick.exit).code).toBe(0);

    const stuck = child(`p.handleSignals(() => new Promise(() => {}), { deadlineMs: 200 }); process.send("ready"); setInterval(() => {}, 1000);`);
    running.push(stuck.proc);
    expect(await stuck.message()).toBe("ready");
    stuck.proc.kill("SIGTERM");
    expect((await stuck.exit).code).toBe(1);
  });

  it("a second signal exits at once (a copy within the duplicate window is the same request)", async () => {
    const c = child(
      `p.handleSignals(() => { process.send("stopping"); return new Promise(() => {}); }, { deadlineMs: 60_000, duplicateMs: 0 }); process.send("ready"); setInterval(() => {}, 1000);`,
    );
    running.push(c.proc);
    expect(await c.message()).toBe("ready");
    c.proc.kill("SIGTERM");
    expect(await c.message()).toBe("stopping");
    c.proc.kill("SIGINT");
    expect((await c.exit).code).toBe(130);
  });

  it("the same signal delivered twice at once (process group and forward) does not cut the orderly stop short", async () => {
    const c = child(
      `p.handleSignals(() => new Promise((r) => process.once("message", () => r(0))), { deadlineMs: 60_000, duplicateMs: 60_000 }); process.send("ready"); setInterval(() => {}, 1000);`,
    );
    running.push(c.proc);
    expect(await c.message()).toBe("ready");
    c.proc.kill("SIGINT");
    c.proc.kill("SIGINT");
    c.proc.send("done");
    expect((await c.exit).code).toBe(0);
  });
});

describe("parent", () => {
  afterEach(() => vi.useRealTimers());

  it("a child started with RINGSIDE_PARENT_PID notices, at the next check, that it was re-parented; without it nothing watches", () => {
    vi.useFakeTimers();
    let ppid = 4242;
    const orphaned = vi.fn();
    expect(watchParent(orphaned, { env: { RINGSIDE_PARENT_PID: "4242" }, everyMs: 1000, ppid: () => ppid })).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(orphaned).not.toHaveBeenCalled();
    ppid = 1; // the parent died: init adopted the child
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(5000);
    expect(orphaned).toHaveBeenCalledTimes(1);
    expect(watchParent(orphaned, { env: {} })).toBe(false);
  });
});

describe("the logger never writes a secret, whatever a message carries", () => {
  it("bearer tokens, personal access tokens, JWTs, token= parameters and secret-named JSON members inside error texts are redacted", async () => {
    const { logger } = await import("@/lib/log");
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    try {
      const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
      const pat = "rs_pat_" + "A".repeat(43);
      logger.error(
        {
          err: new Error(
            `token refresh failed: POST /oauth/token refresh_token=r3fr3sh-secret&client_secret=cl1ent-secret -> {"access_token":"acc3ss-secret","error":"x"}`,
          ),
        },
        "refresh failed",
      );
      logger.error(
        { detail: `Authorization: Bearer b3arer-secret-value; the caller sent ${pat}`, url: `https://ring.example/cb?code=c0de-secret&state=s` },
        `id token ${jwt}`,
      );
      const text = lines.join("");
      for (const secret of ["r3fr3sh-secret", "cl1ent-secret", "acc3ss-secret", "b3arer-secret-value", pat, jwt, "c0de-secret"])
        expect(text).not.toContain(secret);
      expect(text).toContain("refresh failed");
      expect(text).toContain("state=s");
    } finally {
      spy.mockRestore();
    }
  });
});
