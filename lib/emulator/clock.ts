// The emulator's sense of time: the current instant and the timers of webhook delivery (the
// delay after a data change, the retry backoff). Real time by default; tests pass a
// ManualClock and move it forward instead of sleeping, so a "30 s later" or "nothing else
// arrives" check costs no wall time and cannot flake.

import { clock as processClock, ManualClock as SharedManualClock } from "@/lib/clock";

export type TimerHandle = { readonly id: number };

export type EmulatorClock = {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
};

let nextId = 1;

/** Wall-clock time (moved by `offsetMs`: RING_EMULATOR_NOW) and Node's timers. */
export function realClock(offsetMs = 0): EmulatorClock {
  const timers = new Map<number, NodeJS.Timeout>();
  return {
    now: () => Date.now() + offsetMs,
    setTimeout(fn, ms) {
      const handle = { id: nextId++ };
      timers.set(
        handle.id,
        setTimeout(() => {
          timers.delete(handle.id);
          fn();
        }, ms),
      );
      return handle;
    },
    clearTimeout(handle) {
      const t = timers.get(handle.id);
      if (t) clearTimeout(t);
      timers.delete(handle.id);
    },
  };
}

/**
 * A clock that moves only when told: lib/clock.ts's, with the emulator's timer calls.
 * `advance(ms, settle)` fires the timers due in that span in time order, setting `now()` to each
 * one's due time; after each it awaits `settle()` (the emulator's in-flight deliveries), so
 * retries those deliveries schedule fire in the same span.
 */
export class ManualClock extends SharedManualClock implements EmulatorClock {
  constructor(start = processClock.now()) {
    super(start);
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return { id: this.schedule(fn, ms) };
  }

  clearTimeout(handle: TimerHandle): void {
    this.cancel(handle.id);
  }
}
