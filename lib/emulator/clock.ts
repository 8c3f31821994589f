// The emulator's sense of time: the current instant and the timers of webhook delivery (the
// delay after a data change, the retry backoff). Real time by default; tests pass a
// ManualClock and move it forward instead of sleeping, so a "30 s later" or "nothing else
// arrives" check costs no wall time and cannot flake.

import { clock as processClock } from "../clock";

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

type Pending = { id: number; at: number; order: number; fn: () => void };

/**
 * A clock that moves only when told. `advance(ms, settle)` fires the timers due in that span in
 * time order, setting `now()` to each one's due time; after each it awaits `settle()` (the
 * emulator's in-flight deliveries), so retries those deliveries schedule fire in the same span.
 */
export class ManualClock implements EmulatorClock {
  private current: number;
  private readonly pending = new Map<number, Pending>();
  private order = 0;

  constructor(start = processClock.now()) {
    this.current = start;
  }

  now = (): number => this.current;

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = { id: nextId++ };
    this.pending.set(handle.id, { id: handle.id, at: this.current + Math.max(0, ms), order: this.order++, fn });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending.delete(handle.id);
  }

  /** Timers not yet fired. */
  get scheduled(): number {
    return this.pending.size;
  }

  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    const target = this.current + Math.max(0, ms);
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
