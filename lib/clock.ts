// The one clock. Every "now" and "today" of Ringside's own code (sync, scheduler, alerts,
// backups, routes, pages) reads `clock.now()`; nothing else calls Date.now() or new Date().
// Shared by every layer (and the emulator, which keeps its own instance): it imports nothing.
//
// Real time by default. `RINGSIDE_NOW` (the emulator: `RING_EMULATOR_NOW`) moves it: the clock
// reads that instant when the process starts and runs on in real time from there. The form
// `<ISO instant>@<epoch ms>` anchors it exactly: "at real time <epoch ms>, the clock read
// <ISO instant>", so several processes given the same value agree to the millisecond (the
// test harness pins the app, the emulator and the tests to one instant this way). Tests of a
// module swap the clock itself with `setClock` (a ManualClock moves only when told).

export type Clock = {
  /** milliseconds since the epoch */
  now(): number;
  /** resolves after `ms` of this clock's time (rejects when `signal` aborts) */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
};

/** Real time plus a fixed offset (0 = the machine's clock). */
export function shiftedClock(offsetMs: number): Clock {
  return {
    now: () => Date.now() + offsetMs,
    sleep: (ms, signal) => realSleep(ms, signal),
  };
}

export const systemClock: Clock = shiftedClock(0);

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const PINNED_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))(?:@(\d{1,16}))?$/;

export class ClockSettingError extends Error {
  constructor(name: string, value: string) {
    super(`${name} must be an ISO instant such as 2026-03-01T12:00:00Z, optionally followed by @<epoch ms> (got "${value}")`);
    this.name = "ClockSettingError";
  }
}

/**
 * The offset (ms) a pinned-clock setting asks for, measured against `realNow`, whose start is
 * `processStart` (the anchor of a value without `@`). Undefined for a blank value.
 */
export function parsePinnedClock(
  value: string | undefined,
  name = "RINGSIDE_NOW",
  realNow: number = Date.now(),
  processStart: number = realNow - (typeof performance === "undefined" ? 0 : performance.now()),
): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  const m = PINNED_RE.exec(v);
  const at = m ? Date.parse(m[1]!) : NaN;
  if (!m || Number.isNaN(at)) throw new ClockSettingError(name, v);
  const anchor = m[2] !== undefined ? Number(m[2]) : processStart;
  return at - anchor;
}

/** The value that pins every process given it to `instant` now (the harness's form). */
export function formatPinnedClock(instantMs: number, realNow: number = Date.now()): string {
  return `${new Date(instantMs).toISOString()}@${realNow}`;
}

/** The process's clock from its environment (`RINGSIDE_NOW`, or another variable's name). */
export function clockFromEnv(name = "RINGSIDE_NOW", env: Record<string, string | undefined> = readEnv()): Clock {
  const offset = parsePinnedClock(env[name], name);
  return offset === undefined ? systemClock : shiftedClock(offset);
}

function readEnv(): Record<string, string | undefined> {
  return typeof process === "undefined" ? {} : process.env;
}

// The process-wide clock, read lazily (the environment is complete by the first use).
let current: Clock | undefined;

function active(): Clock {
  current ??= clockFromEnv();
  return current;
}

/** The process's clock. `clock.now()` is the one "now" of Ringside's code. */
export const clock: Clock & { date(): Date } = {
  now: () => active().now(),
  sleep: (ms, signal) => active().sleep(ms, signal),
  date: () => new Date(active().now()),
};

/**
 * The browser: read the server's clock (`serverNow`, rendered into the page) from here on, as
 * real time plus the difference seen now. Where the two agree within a second, nothing moves.
 */
export function alignClock(serverNow: number, realNow: number = Date.now()): void {
  const offset = serverNow - realNow;
  current = Math.abs(offset) < 1_000 ? systemClock : shiftedClock(offset);
}

/** Tests: make `clock` read another clock (undefined: back to the environment's). */
export function setClock(next: Clock | undefined): void {
  current = next;
}

type Pending = { id: number; at: number; order: number; fn: () => void };

/**
 * The one clock that moves only when told (tests: the app's modules through `setClock`, the
 * alerts' worker, the emulator's webhook timers). `sleep` and `schedule` wait for `advance` to pass
 * their due time; `advance(ms, settle)` fires what is due in time order, setting `now()` to each
 * one's due time and awaiting `settle()` after each (the emulator's deliveries in flight). With no
 * timer and no `settle`, `advance` moves the time at once, so a caller may skip the await; `set`
 * jumps to an instant (epoch ms or an ISO text).
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly pending = new Map<number, Pending>();
  private order = 0;
  private nextId = 1;

  constructor(start: number) {
    this.current = start;
  }

  now = (): number => this.current;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
      const id = this.schedule(() => resolve(), ms);
      signal?.addEventListener(
        "abort",
        () => {
          this.pending.delete(id);
          reject(signal.reason ?? new Error("aborted"));
        },
        { once: true },
      );
    });

  /** Runs `fn` when the clock reaches now + ms; returns a handle for `cancel`. */
  schedule(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.pending.set(id, { id, at: this.current + Math.max(0, ms), order: this.order++, fn });
    return id;
  }

  cancel(id: number): void {
    this.pending.delete(id);
  }

  /** Timers and sleeps not yet due. */
  get scheduled(): number {
    return this.pending.size;
  }

  set(instant: number | string): void {
    this.current = typeof instant === "string" ? Date.parse(instant) : instant;
  }

  advance(ms: number, settle?: () => Promise<void>): Promise<void> {
    const target = this.current + Math.max(0, ms);
    if (!settle && this.pending.size === 0) {
      this.current = target;
      return Promise.resolve();
    }
    return this.fireUntil(target, settle ?? (async () => {}));
  }

  private async fireUntil(target: number, settle: () => Promise<void>): Promise<void> {
    await settle();
    for (;;) {
      let next: Pending | undefined;
      for (const p of this.pending.values()) {
        if (p.at > target) continue;
        if (!next || p.at < next.at || (p.at === next.at && p.order < next.order)) next = p;
      }
      if (!next) break;
      this.pending.delete(next.id);
      this.current = Math.max(this.current, next.at);
      next.fn();
      await settle();
    }
    this.current = target;
  }
}

// ---------------------------------------------------------------------------------------------
// The ring service's instants as text

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
let dayPrefix = { day: Number.NaN, text: "" };

/**
 * An instant as the ring service writes a sample's `timestamp`: UTC with "+00:00",
 * milliseconds only when there are any ("2026-03-15T07:05:00+00:00"). The same text as
 * `toISOString()` with its "Z" replaced, without building a Date per sample (a five-year
 * heart-rate series is half a million of them): the day's part is kept from the last call.
 */
export function serviceInstant(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== dayPrefix.day) dayPrefix = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 11) };
  const inDay = ms - day * DAY_MS;
  const milli = inDay % 1000;
  const secs = (inDay - milli) / 1000;
  const time = `${TWO_DIGITS[Math.floor(secs / 3600)]}:${TWO_DIGITS[Math.floor(secs / 60) % 60]}:${TWO_DIGITS[secs % 60]}`;
  return milli === 0 ? `${dayPrefix.text}${time}+00:00` : `${dayPrefix.text}${time}.${String(milli).padStart(3, "0")}+00:00`;
}
