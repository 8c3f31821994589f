// @ts-check
// A private MQTT broker for the tests: Debian's `mosquitto` (/usr/sbin/mosquitto), on a port of
// 127.0.0.1 chosen at run time, with a temporary config (anonymous clients, nothing persisted),
// started by the test file that needs it and stopped after it. `pause` stops it and `resume` starts
// it again on the same port (an outage); both resolve when it has gone or says it is running.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePorts, stopWithGroups } from "./processes.mjs";

/**
 * The broker's binary: MOSQUITTO_BIN, else /usr/sbin/mosquitto, else the PATH. Null when none is installed.
 * @returns {string | null}
 */
export function findMosquitto() {
  if (process.env.MOSQUITTO_BIN) return fs.existsSync(process.env.MOSQUITTO_BIN) ? process.env.MOSQUITTO_BIN : null;
  for (const dir of ["/usr/sbin", "/usr/local/sbin", ...(process.env.PATH ?? "").split(path.delimiter)]) {
    const bin = path.join(dir, "mosquitto");
    if (dir && fs.existsSync(bin)) return bin;
  }
  return null;
}

/**
 * Starts a broker (on `port`, else a free one); resolves when it accepts connections.
 * @param {{ port?: number }} [opts]
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void>, pause: () => Promise<void>, resume: () => Promise<void> }>}
 */
export async function startMosquitto(opts = {}) {
  const bin = findMosquitto();
  if (!bin) throw new Error("No MQTT broker for the tests: install Debian's package (sudo apt-get install -y mosquitto) or set MOSQUITTO_BIN.");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-mqtt-"));
  const port = opts.port ?? /** @type {number} */ ((await freePorts(1))[0]);
  const conf = path.join(dir, "mosquitto.conf");
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous true",
      "persistence false",
      "log_dest stderr",
      "log_type error",
      "log_type warning",
      "log_type notice",
      "log_type information",
      // as root it would switch to the `mosquitto` user, which a machine may not have
      ...(root ? ["user root"] : []),
      "",
    ].join("\n"),
  );
  /** @type {import("node:child_process").ChildProcess | null} */
  let server = null;
  const launch = async () => {
    const proc = spawn(bin, ["-c", conf], { stdio: ["ignore", "pipe", "pipe"] });
    server = proc;
    stopWithGroups(proc);
    let log = "";
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mosquitto did not start within 15 s:\n${log}`)), 15_000);
      const onData = (/** @type {Buffer} */ b) => {
        log = (log + String(b)).slice(-4000);
        if (/ running/.test(log)) {
          clearTimeout(timer);
          resolve(undefined);
        }
      };
      proc.stdout?.on("data", onData);
      proc.stderr?.on("data", onData);
      proc.once("exit", () => {
        clearTimeout(timer);
        reject(new Error(`mosquitto exited at start:\n${log}`));
      });
    });
  };
  const halt = async () => {
    const proc = server;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
    await gone;
    clearTimeout(timer);
  };
  await launch();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    pause: halt,
    resume: launch,
  };
}
