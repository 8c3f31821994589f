// Keeps spec-rows.ts honest: every spec row names tests that Vitest really registers in this
// folder (collected with `vitest list`, not run), and every registered conformance test is
// cited by at least one row.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SPEC_ROWS } from "@/e2e/conformance/spec-rows";

const SELF = "conformance coverage";
let registered: string[] = [];

beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), "conformance-list-"));
  const out = path.join(dir, "list.json");
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("VITEST")) env[k] = v;
  try {
    execFileSync(
      process.execPath,
      [path.resolve("node_modules/vitest/vitest.mjs"), "list", "--config", "lib/vitest.config.ts", "e2e/conformance", `--json=${out}`],
      { cwd: path.resolve("."), env: env as NodeJS.ProcessEnv, stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 },
    );
    const list = JSON.parse(readFileSync(out, "utf8")) as Array<{ name: string; file: string }>;
    registered = list.map((e) => e.name);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);

describe(SELF, () => {
  it("vitest registers the conformance tests", () => {
    expect(registered.length).toBeGreaterThan(100);
    expect(new Set(registered).size, "test names are unique").toBe(registered.length);
  });

  it("spec row ids are unique and every row is covered by a test or says why it cannot be", () => {
    const ids = SPEC_ROWS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const bare = SPEC_ROWS.filter((r) => r.tests.length === 0 && !r.untestable).map((r) => r.id);
    expect(bare).toEqual([]);
  });

  it("every test named in spec-rows.ts is registered", () => {
    const names = new Set(registered);
    const missing = SPEC_ROWS.flatMap((r) => r.tests.filter((t) => !names.has(t)).map((t) => `${r.id}: ${t}`));
    expect(missing).toEqual([]);
  });

  it("every registered conformance test is cited by a spec row", () => {
    const cited = new Set(SPEC_ROWS.flatMap((r) => r.tests));
    const uncited = registered.filter((n) => !n.startsWith(`${SELF} >`) && !cited.has(n));
    expect(uncited).toEqual([]);
  });
});
