import { describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/clock";
import { KeyedThrottle } from "@/lib/home-assistant/throttle";

/** A throttle whose work records when it ran, and can be held until released. */
function setup(opts: { hold?: boolean } = {}) {
  const clock = new ManualClock(1_000_000);
  const runs: Array<{ key: string; at: number }> = [];
  const releases: Array<() => void> = [];
  const throttle = new KeyedThrottle(
    async (key) => {
      runs.push({ key, at: clock.now() });
      if (opts.hold) await new Promise<void>((r) => releases.push(r));
    },
    { intervalMs: 1_000, concurrency: 2, clock },
  );
  const settle = () => new Promise<void>((r) => setImmediate(r));
  return { clock, runs, releases, throttle, settle };
}

describe("at most once a second per person, once per change", () => {
  it("the first change runs at once; a burst within the second is one more run when the second is up", async () => {
    const { clock, runs, throttle, settle } = setup();
    throttle.mark("a");
    await settle();
    expect(runs).toEqual([{ key: "a", at: 1_000_000 }]);
    await clock.advance(100, settle);
    for (let i = 0; i < 50; i++) throttle.mark("a");
    await clock.advance(500, settle);
    expect(runs).toHaveLength(1);
    await clock.advance(400, settle);
    expect(runs).toEqual([
      { key: "a", at: 1_000_000 },
      { key: "a", at: 1_001_000 },
    ]);
    // nothing more without a change
    await clock.advance(5_000, settle);
    expect(runs).toHaveLength(2);
    expect(throttle.busy).toBe(0);
  });

  it("people do not wait for each other's second", async () => {
    const { runs, throttle, settle } = setup();
    throttle.mark("a");
    throttle.mark("b");
    await settle();
    expect(runs.map((r) => r.key)).toEqual(["a", "b"]);
  });

  it("a change during a run gives exactly one run after it, a second after the first began", async () => {
    const { clock, runs, releases, throttle, settle } = setup({ hold: true });
    throttle.mark("a");
    await settle();
    throttle.mark("a");
    throttle.mark("a");
    await clock.advance(2_000, settle);
    expect(runs).toHaveLength(1); // still running
    releases.shift()!();
    await settle();
    await settle();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.at).toBe(1_002_000);
  });

  it("runs at most `concurrency` at once; the rest wait their turn", async () => {
    const { runs, releases, throttle, settle } = setup({ hold: true });
    for (const k of ["a", "b", "c"]) throttle.mark(k);
    await settle();
    expect(runs.map((r) => r.key)).toEqual(["a", "b"]);
    releases.shift()!();
    await settle();
    await settle();
    expect(runs.map((r) => r.key)).toEqual(["a", "b", "c"]);
  });

  it("reset forgets what waits (a lost connection): nothing runs for it, later marks run again, still once a second", async () => {
    const { clock, runs, throttle, settle } = setup();
    throttle.mark("a");
    await settle();
    throttle.mark("a"); // waits for the second to be up
    throttle.reset();
    await clock.advance(2_000, settle);
    expect(runs).toHaveLength(1);
    throttle.mark("a");
    await settle();
    expect(runs).toHaveLength(2);
    // a reset right after a run (Home Assistant saying "online" again and again) does not hurry the next one
    throttle.reset();
    throttle.mark("a");
    await settle();
    expect(runs).toHaveLength(2);
    await clock.advance(1_000, settle);
    expect(runs).toHaveLength(3);
    throttle.stop();
    throttle.mark("a");
    await clock.advance(2_000, settle);
    expect(runs).toHaveLength(3);
  });
});
