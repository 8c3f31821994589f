import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyTree } from "@/lib/server/standalone.mjs";

// Every production start copies the build's static files beside the standalone server, while
// other servers of the same build may be serving them.
describe("copyTree (lib/server/standalone.mjs)", () => {
  const root = () => fs.mkdtempSync(path.join(process.env.DATA_DIR!, "standalone-"));

  it("copies a tree, then leaves unchanged files alone: a reader's open file is never rewritten", () => {
    const dir = root();
    const from = path.join(dir, "static");
    const to = path.join(dir, "standalone/static");
    fs.mkdirSync(path.join(from, "chunks"), { recursive: true });
    fs.writeFileSync(path.join(from, "chunks/a.js"), "x".repeat(100_000));
    fs.writeFileSync(path.join(from, "b.css"), "body{}");
    copyTree(from, to);
    expect(fs.readFileSync(path.join(to, "chunks/a.js"), "utf8")).toHaveLength(100_000);
    expect(fs.readFileSync(path.join(to, "b.css"), "utf8")).toBe("body{}");

    const before = fs.statSync(path.join(to, "chunks/a.js")).ctimeMs;
    copyTree(from, to); // a second start
    expect(fs.statSync(path.join(to, "chunks/a.js")).ctimeMs).toBe(before); // not written again
    expect(fs.readdirSync(path.join(to, "chunks"))).toEqual(["a.js"]); // no temporary file left
  });

  it("replaces a changed file whole, by rename: a reader holding the old one still reads all of it", () => {
    const dir = root();
    const from = path.join(dir, "public");
    const to = path.join(dir, "standalone/public");
    fs.mkdirSync(from);
    fs.writeFileSync(path.join(from, "icon.svg"), "old".repeat(10_000));
    copyTree(from, to);
    const reader = fs.openSync(path.join(to, "icon.svg"), "r");
    try {
      fs.writeFileSync(path.join(from, "icon.svg"), "new!");
      copyTree(from, to);
      expect(fs.readFileSync(path.join(to, "icon.svg"), "utf8")).toBe("new!");
      const buf = Buffer.alloc(40_000);
      expect(fs.readSync(reader, buf, 0, buf.length, 0)).toBe(30_000); // the old file, not cut short
    } finally {
      fs.closeSync(reader);
    }
  });

  it("a copy that fails leaves no temporary file behind and says why", () => {
    const dir = root();
    const from = path.join(dir, "static");
    const to = path.join(dir, "standalone/static");
    fs.mkdirSync(from, { recursive: true });
    fs.writeFileSync(path.join(from, "app.js"), "x");
    fs.mkdirSync(path.join(to, "app.js", "inside"), { recursive: true }); // a folder where the file goes: the rename fails
    expect(() => copyTree(from, to)).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(fs.readdirSync(to)).toEqual(["app.js"]);
  });
});
