import { afterEach, describe, expect, it, vi } from "vitest";
import { asBackground, backgroundCpuMicros, threadCpuMicros, WATCH_MS } from "./cpu-ledger";

/** Spends at least `micros` of this thread's CPU. */
function spin(micros: number): void {
  const start = threadCpuMicros();
  while (threadCpuMicros() - start < micros) Math.sqrt(Math.random());
}

describe("the CPU ledger", () => {
  afterEach(() => vi.restoreAllMocks());

  it("counts background work while the total is watched, and stops counting when nobody has read it for WATCH_MS", () => {
    let now = 1_000_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    // nobody has read the total yet (or not for long): the work runs uncounted
    now += 2 * WATCH_MS;
    const before = backgroundCpuMicros(); // a read: counting on from here
    asBackground(() => spin(20_000));
    const afterOne = backgroundCpuMicros();
    expect(afterOne - before).toBeGreaterThanOrEqual(20_000);

    // still within WATCH_MS of the last read: counted
    now += WATCH_MS - 1;
    asBackground(() => spin(5_000));
    const afterTwo = backgroundCpuMicros();
    expect(afterTwo - afterOne).toBeGreaterThanOrEqual(5_000);

    // more than WATCH_MS since the last read: not counted
    now += WATCH_MS + 1;
    asBackground(() => spin(5_000));
    expect(backgroundCpuMicros()).toBe(afterTwo);
  });

  it("returns what the work returns and counts it when it throws", () => {
    const start = backgroundCpuMicros();
    expect(asBackground(() => 42)).toBe(42);
    expect(() =>
      asBackground(() => {
        spin(5_000);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(backgroundCpuMicros() - start).toBeGreaterThanOrEqual(5_000);
  });
});
