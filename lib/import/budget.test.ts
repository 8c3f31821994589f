import { describe, expect, it } from "vitest";
import { ImportBudget } from "@/lib/import/budget";
import { ImportRefusal } from "@/lib/import/refusal";

// The import's CPU budget counts the import's own work: what the thread spends on others' work
// while the import yields (the scheduler's syncs and housekeeping on a busy server) is left out.

/** A budget on a fake thread clock and a fake wall clock, with what the process does meanwhile. */
function rig(cpuSeconds: number) {
  const t = { cpu: 0, wall: 0, background: 0 };
  const budget = new ImportBudget({ cpuSeconds, cpuMicros: () => t.cpu, now: () => t.wall, backgroundMicros: () => t.background });
  /** the import's own piece of work: CPU and wall time pass, then it ticks */
  const work = async (ms: number) => {
    t.cpu += ms * 1000;
    t.wall += ms;
    await budget.tick();
  };
  /** others' work, run while the import yields: it runs on the event loop before the import's turn comes back */
  const othersWhileYielding = (ms: number) =>
    setImmediate(() => {
      t.cpu += ms * 1000;
      t.wall += ms;
    });
  /** the sync engine's work (its mapping and commits, counted in lib/cpu-ledger.ts), run while the import waits for something else */
  const backgroundWhileWaiting = async (ms: number) => {
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        t.cpu += ms * 1000;
        t.background += ms * 1000;
        t.wall += ms;
        resolve();
      }, 0),
    );
  };
  return { t, budget, work, othersWhileYielding, backgroundWhileWaiting };
}

describe("the import's CPU budget", () => {
  it("leaves out what others cost while the import yields", async () => {
    const { budget, work, othersWhileYielding } = rig(1);
    for (let i = 0; i < 20; i++) {
      // each slice of 25 ms of the import's own, then 500 ms of others' work while it yields
      othersWhileYielding(500);
      await work(25);
    }
    expect(budget.cpuSeconds).toBeCloseTo(0.5, 6);
  });

  it("leaves out the sync engine's work that ran while the import waited (a stream's chunk, a write), and counts it once when it ran in a yield", async () => {
    const { t, budget, work, othersWhileYielding, backgroundWhileWaiting } = rig(1);
    for (let i = 0; i < 20; i++) {
      await backgroundWhileWaiting(300);
      await work(25);
    }
    expect(budget.cpuSeconds).toBeCloseTo(0.5, 6);
    // background work during a yield: in the yield's others, not left out twice
    setImmediate(() => {
      t.cpu += 200_000;
      t.background += 200_000;
      t.wall += 200;
    });
    othersWhileYielding(0);
    await work(25);
    expect(budget.cpuSeconds).toBeCloseTo(0.525, 6);
  });

  it("still refuses an import whose own work is over its budget, whatever others did", async () => {
    const { work, othersWhileYielding } = rig(1);
    let refused: unknown = null;
    try {
      for (let i = 0; i < 100; i++) {
        othersWhileYielding(100);
        await work(25);
      }
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ImportRefusal);
    expect((refused as Error).message).toContain("CPU-seconds");
  });

  it("counts all of the import's own work, however it is sliced", async () => {
    const { budget, work } = rig(10);
    // pieces shorter than a slice (a yield every fourth) and longer (a yield each time), nothing else running
    for (let i = 0; i < 10; i++) await work(5);
    expect(budget.cpuSeconds).toBeCloseTo(0.05, 6);
    for (let i = 0; i < 10; i++) await work(30);
    expect(budget.cpuSeconds).toBeCloseTo(0.35, 6);
  });

  it("starts counting again when the upload is whole", async () => {
    const { budget, work, othersWhileYielding } = rig(10);
    othersWhileYielding(200);
    await work(40);
    budget.received(1_000);
    expect(budget.cpuSeconds).toBe(0);
    await work(30);
    expect(budget.cpuSeconds).toBeCloseTo(0.03, 6);
  });
});
