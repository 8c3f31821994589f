// The emulator's sense of time: the current instant and the timers of webhook delivery (the
// delay after a data change, the retry backoff). Real time by default; tests pass lib/clock.ts's
// ManualClock (the one clock that moves only when told) and move it forward instead of sleeping,
// so a "30 s later" or "nothing else arrives" check costs no wall time and cannot flake.

import type { ManualClock } from "@/lib/clock";

/** What the emulator reads of a clock: the instant, and timers (`schedule` returns the id `cancel` takes). */
export type EmulatorClock = Pick<ManualClock, "now" | "schedule" | "cancel">;

let nextId = 1;

/** Wall-clock time (moved by `offsetMs`: RING_EMULATOR_NOW) and Node's timers. */
export function realClock(offsetMs = 0): EmulatorClock {
  const timers = new Map<number, NodeJS.Timeout>();
  return {
    now: () => Date.now() + offsetMs,
    schedule(fn, ms) {
      const id = nextId++;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          fn();
        }, ms),
      );
      return id;
    },
    cancel(id) {
      clearTimeout(timers.get(id));
      timers.delete(id);
    },
  };
}
