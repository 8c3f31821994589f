// @ts-check
// How every Ringside process lives with its surroundings (the app's launcher and server, the
// worker, the emulator, `npm run demo`, the MCP stdio server, the CLIs). Three rules:
//
// 1. Output can never hurt the process. A reader that goes away (a journald restart, a
//    detached `docker logs`, `npm run demo | head`) makes writes to stdout/stderr fail with
//    EPIPE, EBADF or EIO: such a stream is then closed for good here, and every later write to
//    it is dropped and counted, never thrown, never retried, never reported on the same
//    stream (the loop that once kept a server at 90 % of a core). A reader that stalls makes
//    writes queue: past OUTPUT_BUFFER_BYTES waiting, lines are dropped and counted instead
//    (writeLine), so memory stays bounded and requests never wait for a log line.
// 2. Signals end the process within SHUTDOWN_DEADLINE_MS: the first SIGTERM/SIGINT runs the
//    process's own orderly stop (which checkpoints its work), a timer ends it regardless, and
//    a second signal ends it at once. One signal often arrives twice within milliseconds (Ctrl-C
//    reaches the launcher and its server, which the launcher then forwards it to; systemd signals
//    the whole control group): a repeat within DUPLICATE_SIGNAL_MS is the same request.
// 3. A child that loses its parent goes too. A Ringside process that starts another passes its
//    pid in RINGSIDE_PARENT_PID; the child checks every PARENT_CHECK_MS whether it was
//    re-parented (its parent died, even by SIGKILL) and then stops as on SIGTERM.
//
// Plain JavaScript with no dependencies: the .mjs entry points and the TypeScript ones import it.

/** Bytes a stream may hold waiting for its reader before lines are dropped. */
export const OUTPUT_BUFFER_BYTES = 1024 * 1024;
/** The longest an orderly stop may take before the process ends anyway. */
export const SHUTDOWN_DEADLINE_MS = 8_000;
/** A signal repeated within this is the same request (a process group's copy and a forward). */
export const DUPLICATE_SIGNAL_MS = 500;
/** How often a child checks that its parent is still there. */
export const PARENT_CHECK_MS = 1_000;
/** The variable a Ringside process passes its pid to its children in. */
export const PARENT_PID_VARIABLE = "RINGSIDE_PARENT_PID";

/** Error codes that mean the reader is gone for good. */
const GONE = new Set(["EPIPE", "EBADF", "EIO", "ECONNRESET", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);

/** @typedef {{ closed: boolean, dropped: number, code: string | null }} StreamState */

const STATE = Symbol.for("ringside.stdio");
const holder = /** @type {Record<symbol, { stdout: StreamState, stderr: StreamState } | undefined>} */ (/** @type {unknown} */ (globalThis));

/**
 * The state of the process's stdout and stderr (installs the guard on first use): whether the
 * reader went away, and how many writes were dropped.
 */
export function stdioState() {
  if (holder[STATE]) return holder[STATE];
  /** @type {{ stdout: StreamState, stderr: StreamState }} */
  const state = { stdout: { closed: false, dropped: 0, code: null }, stderr: { closed: false, dropped: 0, code: null } };
  holder[STATE] = state;
  for (const name of /** @type {const} */ (["stdout", "stderr"])) {
    const stream = process[name];
    const s = state[name];
    stream.on("error", (/** @type {NodeJS.ErrnoException} */ err) => {
      if (s.closed) return;
      if (!GONE.has(err?.code ?? "")) {
        // Anything else (EAGAIN is handled by the stream itself): counted, never re-reported here.
        s.dropped++;
        return;
      }
      closeStream(stream, s, err.code ?? "EPIPE");
    });
  }
  return state;
}

/**
 * Marks a stream closed: later writes (ours, Next's, a library's console.log) are counted and
 * dropped, their callbacks called, so nothing waits on them.
 * @param {NodeJS.WriteStream} stream
 * @param {StreamState} s
 * @param {string} code
 */
function closeStream(stream, s, code) {
  s.closed = true;
  s.code = code;
  stream.write = /** @type {typeof stream.write} */ (
    (/** @type {unknown} */ _chunk, /** @type {unknown} */ a, /** @type {unknown} */ b) => {
      s.dropped++;
      const cb = typeof a === "function" ? a : typeof b === "function" ? b : null;
      if (cb) queueMicrotask(() => cb());
      return true;
    }
  );
  for (const l of closedListeners) l(stream === process.stdout ? "stdout" : "stderr", code);
}

/** @type {Array<(name: "stdout" | "stderr", code: string) => void>} */
const closedListeners = [];

/** Calls `listener` when stdout or stderr loses its reader (the MCP stdio server ends then). */
export function onStreamClosed(/** @type {(name: "stdout" | "stderr", code: string) => void} */ listener) {
  stdioState();
  closedListeners.push(listener);
}

/**
 * Writes one line without ever blocking on, or throwing from, the reader: dropped and counted
 * when the stream is closed or already holds OUTPUT_BUFFER_BYTES for a stalled reader.
 * @param {"stdout" | "stderr"} name
 * @param {string} line with its newline
 * @returns {boolean} whether it was handed to the stream
 */
export function writeLine(name, line) {
  const state = stdioState()[name];
  const stream = process[name];
  if (state.closed || stream.destroyed || stream.writableLength > OUTPUT_BUFFER_BYTES) {
    state.dropped++;
    return false;
  }
  try {
    stream.write(line);
    return true;
  } catch {
    // a synchronous failure (a file descriptor that went bad): the stream is gone
    closeStream(stream, state, "EBADF");
    state.dropped++;
    return false;
  }
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT (and on `trigger()`, e.g. when the parent died);
 * the process exits with `stop`'s result (0 by default) when it settles, with 1 after
 * `deadlineMs` whatever it is doing, and at once on a second signal.
 * @param {(reason: string) => Promise<number | void> | number | void} stop
 * @param {{ deadlineMs?: number, duplicateMs?: number, exit?: (code: number) => void }} [opts]
 * @returns {{ trigger: (reason: string) => void, stopping: () => boolean }}
 */
export function handleSignals(stop, opts = {}) {
  const exit = opts.exit ?? ((/** @type {number} */ code) => process.exit(code));
  const deadlineMs = opts.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const duplicateMs = opts.duplicateMs ?? DUPLICATE_SIGNAL_MS;
  let stopping = false;
  let firstAt = 0;
  const trigger = (/** @type {string} */ reason) => {
    if (stopping) return;
    stopping = true;
    firstAt = performance.now();
    setTimeout(() => exit(1), deadlineMs).unref();
    Promise.resolve()
      .then(() => stop(reason))
      .then(
        (code) => exit(typeof code === "number" ? code : 0),
        () => exit(1),
      );
  };
  for (const sig of /** @type {const} */ (["SIGTERM", "SIGINT"])) {
    process.on(sig, () => {
      if (!stopping) trigger(sig);
      else if (performance.now() - firstAt >= duplicateMs) exit(sig === "SIGINT" ? 130 : 143);
    });
  }
  return { trigger, stopping: () => stopping };
}

/**
 * When this process was started by a Ringside process (RINGSIDE_PARENT_PID), calls `orphaned`
 * once its parent is gone (it was re-parented). Checks every PARENT_CHECK_MS, without keeping
 * the process alive. Returns whether it watches.
 * @param {() => void} orphaned
 * @param {{ env?: Record<string, string | undefined>, everyMs?: number, ppid?: () => number }} [opts]
 */
export function watchParent(orphaned, opts = {}) {
  const expected = Number((opts.env ?? process.env)[PARENT_PID_VARIABLE]);
  if (!Number.isInteger(expected) || expected <= 0) return false;
  const ppid = opts.ppid ?? (() => process.ppid);
  const timer = setInterval(() => {
    if (ppid() === expected) return;
    clearInterval(timer);
    orphaned();
  }, opts.everyMs ?? PARENT_CHECK_MS);
  timer.unref();
  return true;
}

/** The environment a child gets so that it watches this process (RINGSIDE_PARENT_PID). */
export function childEnv(/** @type {NodeJS.ProcessEnv} */ env) {
  return { ...env, [PARENT_PID_VARIABLE]: String(process.pid) };
}
