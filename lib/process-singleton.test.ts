import { describe, expect, it } from "vitest";
import * as singletons from "@/lib/process-singleton";
import { processSingleton, processSlot } from "@/lib/process-singleton";

describe("process-wide objects", () => {
  it("are made once per key, even when the module is loaded again", async () => {
    let made = 0;
    const first = processSingleton("test:once", () => ({ n: ++made }));
    expect(processSingleton("test:once", () => ({ n: ++made }))).toBe(first);
    // a second copy of the module (as Next's bundles load it) finds the same object
    const copy: typeof singletons = await import(/* @vite-ignore */ `${"@/lib/process-singleton"}?copy`);
    expect(copy).not.toBe(singletons);
    expect(copy.processSingleton("test:once", () => ({ n: ++made }))).toBe(first);
    expect(made).toBe(1);
    expect(processSingleton("test:other", () => ({ n: ++made }))).not.toBe(first);
  });

  it("a slot starts empty, holds what is set and is emptied again", () => {
    const slot = processSlot<number>("test:slot");
    expect(slot.get()).toBeUndefined();
    slot.set(3);
    expect(processSlot<number>("test:slot").get()).toBe(3);
    slot.set(undefined);
    expect(slot.get()).toBeUndefined();
  });
});
