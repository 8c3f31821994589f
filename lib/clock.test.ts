import { afterEach, describe, expect, it } from "vitest";
import { ClockSettingError, ManualClock, clock, clockFromEnv, formatPinnedClock, parsePinnedClock, serviceInstant, setClock } from "./clock";

const T = Date.parse("2026-03-01T12:00:00.000Z");

describe("the pinned clock", () => {
  afterEach(() => setClock(undefined));

  it("an anchored value reads the same instant in every process given it", () => {
    const value = formatPinnedClock(T, 1_000_000);
    // two processes that read it at different real times agree on the clock at each real time
    expect(parsePinnedClock(value, "X", 1_000_500, 999_000)).toBe(T - 1_000_000);
    expect(parsePinnedClock(value, "X", 5_000_000, 4_000_000)).toBe(T - 1_000_000);
  });

  it("a plain instant is anchored at the process's start", () => {
    expect(parsePinnedClock("2026-03-01T12:00:00Z", "X", 10_500, 10_000)).toBe(T - 10_000);
    expect(parsePinnedClock("2026-03-01T13:00:00+01:00", "X", 10_500, 10_000)).toBe(T - 10_000);
  });

  it("blank means real time; a malformed value names the setting", () => {
    expect(parsePinnedClock(undefined)).toBeUndefined();
    expect(parsePinnedClock("  ")).toBeUndefined();
    for (const bad of ["2026-03-01", "yesterday", "2026-13-45T00:00:00Z", "2026-03-01T12:00:00Z@x"]) {
      expect(() => parsePinnedClock(bad, "RINGSIDE_NOW")).toThrow(ClockSettingError);
      expect(() => parsePinnedClock(bad, "RINGSIDE_NOW")).toThrow(/RINGSIDE_NOW/);
    }
  });

  it("clockFromEnv runs on from the pinned instant", () => {
    const c = clockFromEnv("RINGSIDE_NOW", { RINGSIDE_NOW: formatPinnedClock(T) });
    expect(Math.abs(c.now() - T)).toBeLessThan(60_000);
  });

  it("setClock swaps the process clock for a test", () => {
    setClock(new ManualClock(T));
    expect(clock.now()).toBe(T);
    expect(clock.date().toISOString()).toBe("2026-03-01T12:00:00.000Z");
  });
});

describe("ManualClock", () => {
  it("sleeps end when the clock passes them, in time order", async () => {
    const c = new ManualClock(T);
    const order: string[] = [];
    const a = c.sleep(2_000).then(() => order.push("a"));
    const b = c.sleep(1_000).then(() => order.push("b"));
    await c.advance(500);
    expect(order).toEqual([]);
    await c.advance(2_000, () => new Promise((r) => setImmediate(r)));
    await Promise.all([a, b]);
    expect(order).toEqual(["b", "a"]);
    expect(c.now()).toBe(T + 2_500);
  });

  it("an aborted sleep rejects and is no longer scheduled", async () => {
    const c = new ManualClock(T);
    const ac = new AbortController();
    const p = c.sleep(1_000, ac.signal);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    expect(c.scheduled).toBe(0);
  });

  it("with nothing scheduled, moves at once (the await may be skipped); set takes epoch ms or an ISO instant", async () => {
    const c = new ManualClock(T);
    void c.advance(60_000);
    expect(c.now()).toBe(T + 60_000);
    c.set("2026-03-02T00:00:00Z");
    expect(c.now()).toBe(Date.parse("2026-03-02T00:00:00Z"));
    c.set(T);
    expect(c.now()).toBe(T);
    await c.advance(-5); // never backwards
    expect(c.now()).toBe(T);
  });

  it("runs scheduled timers at their due time in order, not cancelled ones (the emulator's webhook timers)", async () => {
    const c = new ManualClock(T);
    const seen: Array<[string, number]> = [];
    c.schedule(() => seen.push(["late", c.now()]), 300);
    const dropped = c.schedule(() => seen.push(["dropped", c.now()]), 100);
    c.schedule(() => seen.push(["early", c.now()]), 200);
    c.cancel(dropped);
    await c.advance(250);
    expect(seen).toEqual([["early", T + 200]]);
    expect(c.now()).toBe(T + 250);
    await c.advance(50);
    expect(seen).toEqual([
      ["early", T + 200],
      ["late", T + 300],
    ]);
    expect(c.scheduled).toBe(0);
  });
});

describe("alignClock (the browser)", () => {
  afterEach(() => setClock(undefined));

  it("reads the server's time from the difference seen at alignment", async () => {
    const { alignClock } = await import("./clock");
    alignClock(T, Date.now());
    expect(Math.abs(clock.now() - T)).toBeLessThan(60_000);
  });
});

describe("serviceInstant", () => {
  it("writes what toISOString writes, with +00:00 and milliseconds only when there are any", () => {
    expect(serviceInstant(Date.parse("2026-03-15T07:05:00Z"))).toBe("2026-03-15T07:05:00+00:00");
    expect(serviceInstant(Date.parse("2026-03-15T23:59:59.045Z"))).toBe("2026-03-15T23:59:59.045+00:00");
    expect(serviceInstant(Date.parse("1969-12-31T23:00:01Z"))).toBe("1969-12-31T23:00:01+00:00");
    // across days in both directions (the day's part is kept between calls)
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const ms = Math.floor((seed / 2147483648) * 4e12) - 1e12 + (i % 3 === 0 ? 0 : i % 1000);
      const iso = new Date(ms).toISOString();
      expect(serviceInstant(ms)).toBe(ms % 1000 === 0 ? iso.replace(".000Z", "+00:00") : iso.replace("Z", "+00:00"));
    }
  });
});
