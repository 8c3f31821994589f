import { describe, expect, it } from "vitest";
import { VersionedMemo } from "@/lib/limits/versioned-memo";

describe("VersionedMemo", () => {
  it("serves an answer again only for the data version it came from", async () => {
    const memo = new VersionedMemo<string>(4);
    let computed = 0;
    const compute = (v: string) => async () => (computed++, v);
    expect(await memo.get("ann", 1, "30d", compute("a1"))).toBe("a1");
    expect(await memo.get("ann", 1, "30d", compute("again"))).toBe("a1");
    expect(await memo.get("ann", 2, "30d", compute("a2"))).toBe("a2"); // new data: computed again
    expect(await memo.get("bob", 2, "30d", compute("b2"))).toBe("b2"); // another person's own
    expect(await memo.get("ann", null, "30d", compute("fresh"))).toBe("fresh"); // no version: never kept
    expect(computed).toBe(4);
  });

  it("holds at most its bound for the whole process, dropping the least recently used", async () => {
    const memo = new VersionedMemo<number>(3);
    for (let i = 0; i < 50; i++) await memo.get(`person-${i % 10}`, 1, `range-${i}`, async () => i);
    expect(memo.size).toBe(3);
    await memo.get("a", 1, "k1", async () => 1);
    await memo.get("a", 1, "k2", async () => 2);
    await memo.get("a", 1, "k3", async () => 3);
    await memo.get("a", 1, "k1", async () => -1); // used again: now the most recent
    await memo.get("a", 1, "k4", async () => 4); // drops k2, the least recently used
    expect(await memo.get("a", 1, "k1", async () => -1)).toBe(1);
    expect(await memo.get("a", 1, "k2", async () => 22)).toBe(22);
  });
});
