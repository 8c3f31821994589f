import { describe, expect, it } from "vitest";
import { heapFlags } from "./heap-flags.mjs";

describe("the server's heap flags", () => {
  it("caps the old generation at 256 MB and the semi-spaces at 16 MB where no ceiling is known", () => {
    expect(heapFlags({ nodeOptions: "", ceilingMb: 0 })).toEqual({ smallBox: false, flags: ["--max-old-space-size=256", "--max-semi-space-size=16"] });
    expect(heapFlags({ nodeOptions: "", ceilingMb: 2048 }).flags).toEqual(["--max-old-space-size=256", "--max-semi-space-size=16"]);
  });

  it("gives a small box (a ceiling under 512 MB) half of it, 96 MB at least, and 4 MB semi-spaces", () => {
    expect(heapFlags({ nodeOptions: "", ceilingMb: 256 })).toEqual({ smallBox: true, flags: ["--max-old-space-size=128", "--max-semi-space-size=4"] });
    expect(heapFlags({ nodeOptions: "", ceilingMb: 150 }).flags[0]).toBe("--max-old-space-size=96");
  });

  it("leaves each size NODE_OPTIONS names to it", () => {
    expect(heapFlags({ nodeOptions: "--max-semi-space-size=4", ceilingMb: 0 }).flags).toEqual(["--max-old-space-size=256"]);
    expect(heapFlags({ nodeOptions: "--max-old-space-size=1024 --max-semi-space-size=64", ceilingMb: 256 }).flags).toEqual([]);
  });
});
