// Runs in every chaos test process after lib/test/setup.ts (fresh SQLite database per file).
// Every log line written in this process (the app's JSON logger, the in-process emulator) is
// captured to e2e/chaos/.data/logs/inproc-<pid>.log instead of the terminal, so the suite can
// check that no token ever reached a log line.
import fs from "node:fs";
import path from "node:path";
import { CHAOS_LOG_DIR } from "./env";

fs.mkdirSync(CHAOS_LOG_DIR, { recursive: true });
const file = path.join(CHAOS_LOG_DIR, `inproc-${process.pid}.log`);
fs.writeFileSync(file, "");
process.env.CHAOS_INPROC_LOG = file;

function capture(stream: NodeJS.WriteStream): void {
  const tee = (chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    fs.appendFileSync(file, text);
    const done = typeof encoding === "function" ? encoding : cb;
    if (typeof done === "function") (done as () => void)();
    return true;
  };
  stream.write = tee as typeof stream.write;
}

capture(process.stdout);
capture(process.stderr);
