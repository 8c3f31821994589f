// The layer rule (lib/layers.mjs) as ESLint applies it: a wrong-way import fails, the same
// import the right way round passes.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === "boundaries/dependencies").map((m) => m.message);
}

describe("imports point one way", () => {
  it("refuses a query importing the sync engine, a component importing a query, the ring client importing sync", async () => {
    expect(await layerErrors("lib/db/queries/made-up.ts", `import { getSyncEngine } from "@/lib/sync/engine";\nexport const e = getSyncEngine;\n`)).toEqual([
      expect.stringContaining(`from elements of type "db" to elements of type "sync"`),
    ]);
    expect(await layerErrors("components/made-up.tsx", `import { listTags } from "@/lib/db/queries/notes";\nexport const t = listTags;\n`)).toHaveLength(1);
    expect(await layerErrors("lib/ring/made-up.ts", `import { enqueueSyncJob } from "@/lib/sync/jobs";\nexport const j = enqueueSyncJob;\n`)).toHaveLength(1);
  });

  it("lets the sync engine import the queries, and every layer the clock", async () => {
    expect(await layerErrors("lib/sync/made-up.ts", `import { getSyncState } from "@/lib/db/queries/sync-state";\nexport const s = getSyncState;\n`)).toEqual(
      [],
    );
    expect(await layerErrors("lib/db/queries/made-up.ts", `import { clock } from "@/lib/clock";\nexport const c = clock;\n`)).toEqual([]);
  });
});
