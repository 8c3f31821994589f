import { afterEach, describe, expect, it, vi } from "vitest";
import { asBackground, backgroundCpuMicros, threadCpuMicros, WATCH_MS } from "./cpu-ledger";

/** Spends at least `micros` of this thread's CPU (a fixed sum, no chance in it). */
function spin(micros: number): number {
  const start = threadCpuMicros();
  let sum = 0;
  while (threadCpuMicros() - start < micros) for (let i = 0; i < 1_000; i++) sum += i % 7;
  return sum;
}

describe("the CPU ledger", () => {
  afterEach(() => vi.restoreAllMocks());

  it("counts background work while the total is watched, and stops counting when nobody has read it for WATCH_MS", () => {
    let now = 1_000_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    // well past any earlier read (another file's, in this process)
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
