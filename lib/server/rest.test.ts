// The rest collector's policy (lib/server/rest.ts): one collection after each busy spell, once
// the process has been quiet for a few ticks, and never while it is busy.
import { describe, expect, it } from "vitest";
import { restTick, type RestPolicy, type RestState } from "@/lib/server/rest";

const policy: RestPolicy = { busyElu: 0.05, quietTicks: 3 };

/** Runs the policy over utilisations; the ticks at which it collected. */
function collections(elus: number[], start: RestState = { dirty: false, quiet: 0 }): number[] {
  let state = start;
  const out: number[] = [];
  elus.forEach((elu, i) => {
    const step = restTick(state, { elu }, policy);
    state = step.state;
    if (step.collect) out.push(i);
  });
  return out;
}

describe("restTick", () => {
  it("collects once, after the quiet ticks that follow work", () => {
    expect(collections([0.9, 0.8, 0.01, 0.0, 0.02, 0.0, 0.0, 0.0])).toEqual([4]);
  });

  it("never collects while busy, and waits again when work resumes before the quiet ticks", () => {
    expect(collections([0.9, 0.9, 0.9, 0.9])).toEqual([]);
    expect(collections([0.5, 0.0, 0.0, 0.6, 0.0, 0.0, 0.0])).toEqual([6]);
  });

  it("does nothing while the process stays quiet, and again once per busy spell", () => {
    expect(collections([0, 0, 0, 0, 0, 0])).toEqual([]);
    expect(collections([0.3, 0, 0, 0, 0, 0, 0.3, 0, 0, 0])).toEqual([3, 9]);
  });

  it("collects after start-up's work without any tick being busy", () => {
    expect(collections([0, 0, 0, 0], { dirty: true, quiet: 0 })).toEqual([2]);
  });
});
