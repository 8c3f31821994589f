import { clock, type Clock } from "@/lib/clock";

// Once per change, at most once per interval per key (a person): a mark runs the work at once
// when the key's last run began an interval ago or more, else when the interval is up. Marks that
// come while a run waits are that run (it reads the newest state when it starts); a mark during a
// run gives one more run after it. So a burst of changes costs two runs, never a queue: what is
// kept is a flag per key, bounded by the number of keys. At most `concurrency` runs at once.

type KeyState = { lastStart: number; waiting: boolean; running: boolean; again: boolean };

export type ThrottleOptions = { intervalMs: number; concurrency: number; clock?: Clock };

export class KeyedThrottle {
  private readonly keys = new Map<string, KeyState>();
  private readonly ready = new Set<string>();
  private active = 0;
  private stopped = new AbortController();
  private readonly clock: Clock;

  constructor(
    private readonly work: (key: string) => Promise<void>,
    private readonly opts: ThrottleOptions,
  ) {
    this.clock = opts.clock ?? clock;
  }

  /** The key's state changed: run the work for it (now, or when its interval is up). */
  mark(key: string): void {
    if (this.stopped.signal.aborted) return;
    let s = this.keys.get(key);
    if (!s) this.keys.set(key, (s = { lastStart: Number.NEGATIVE_INFINITY, waiting: false, running: false, again: false }));
    if (s.running) {
      s.again = true;
      return;
    }
    if (s.waiting) return;
    s.waiting = true;
    const delay = s.lastStart + this.opts.intervalMs - this.clock.now();
    if (delay <= 0) this.enqueue(key);
    else
      this.clock.sleep(delay, this.stopped.signal).then(
        () => this.enqueue(key),
        () => undefined,
      );
  }

  /**
   * Forgets every waiting mark (runs in progress end on their own, without a run after them);
   * marks are taken again after, each key still at most once per interval.
   */
  reset(): void {
    this.stopped.abort();
    this.stopped = new AbortController();
    this.ready.clear();
    for (const s of this.keys.values()) {
      s.waiting = false;
      s.again = false;
    }
  }

  /** Takes no mark any more. */
  stop(): void {
    this.reset();
    this.stopped.abort();
  }

  /** Keys with a run waiting or in progress. */
  get busy(): number {
    let n = 0;
    for (const s of this.keys.values()) if (s.waiting || s.running) n++;
    return n;
  }

  private enqueue(key: string): void {
    this.ready.add(key);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.opts.concurrency && this.ready.size > 0) {
      const key = this.ready.values().next().value as string;
      this.ready.delete(key);
      const s = this.keys.get(key);
      if (!s) continue;
      s.waiting = false;
      s.running = true;
      s.lastStart = this.clock.now();
      this.active++;
      void this.work(key)
        .catch(() => undefined)
        .finally(() => {
          this.active--;
          s.running = false;
          if (s.again) {
            s.again = false;
            this.mark(key);
          }
          this.pump();
        });
    }
  }
}
