// The layer map (lib/layers.mjs) names folders, and ESLint holds every import to it: a wrong-way
// import fails, type-only imports included, the same import the right way round passes.
import fs from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LAYER_TABLE } from "@/lib/layers.mjs";

const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === "boundaries/dependencies").map((m) => m.message);
}

describe("the layer map", () => {
  it("names folders only: a folder and everything under it, or a folder's own files; tests by their name", () => {
    for (const layer of LAYER_TABLE) {
      for (const pattern of layer.folders) {
        const tree = /^((?:[\w.()[\]-]+\/)*[\w.()[\]-]+)\/\*\*$/.exec(pattern);
        const ownFiles = /^(?:((?:[\w-]+\/)*[\w-]+)\/)?\*\.\{ts,mjs\}$/.exec(pattern);
        const testKind = layer.type === "test" && /^\*\*\/[\w.*-]+$/.test(pattern);
        expect(tree || ownFiles || testKind, `${layer.type}: ${pattern}`).toBeTruthy();
        const dir = tree?.[1] ?? ownFiles?.[1] ?? ".";
        if (!testKind) expect(fs.statSync(dir).isDirectory(), `${layer.type}: ${pattern}`).toBe(true);
      }
    }
  });

  it("gives every folder of lib exactly one layer", () => {
    const claimed = LAYER_TABLE.flatMap((l) => l.folders.map((f) => ({ type: l.type, folder: /^lib\/([\w-]+)\/\*\*$/.exec(f)?.[1] }))).filter((c) => c.folder);
    const folders = fs
      .readdirSync("lib", { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "generated")
      .map((d) => d.name);
    for (const f of folders)
      expect(
        claimed.filter((c) => c.folder === f).map((c) => c.type),
        `lib/${f}`,
      ).toHaveLength(1);
    expect(claimed.map((c) => c.folder).sort()).toEqual([...folders].sort());
  });
});

describe("imports point one way", () => {
  it("refuses a query importing the sync engine, a component importing a query, the ring client importing sync", async () => {
    expect(await layerErrors("lib/db/queries/made-up.ts", `import { getSyncEngine } from "@/lib/sync/engine";\nexport const e = getSyncEngine;\n`)).toEqual([
      expect.stringContaining(`from elements of type "db" to elements of type "sync"`),
    ]);
    expect(await layerErrors("components/made-up.tsx", `import { listTags } from "@/lib/db/queries/notes";\nexport const t = listTags;\n`)).toHaveLength(1);
    expect(await layerErrors("lib/ring/made-up.ts", `import { enqueueSyncJob } from "@/lib/sync/jobs";\nexport const j = enqueueSyncJob;\n`)).toHaveLength(1);
  });

  it("refuses type-only imports the wrong way too: import type, export type from, typeof import()", async () => {
    const file = "lib/metrics/made-up.ts";
    expect(await layerErrors(file, `import type { Signal } from "@/lib/signals/signal-days";\nexport type S = Signal;\n`)).toEqual([
      expect.stringContaining(`from elements of type "metrics" to elements of type "signals"`),
    ]);
    expect(await layerErrors(file, `import { type Signal } from "@/lib/signals/signal-days";\nexport type S = Signal;\n`)).toHaveLength(1);
    expect(await layerErrors(file, `export type { Signal } from "@/lib/signals/signal-days";\n`)).toHaveLength(1);
    expect(await layerErrors(file, `export type S = import("@/lib/signals/signal-days").Signal;\n`)).toHaveLength(1);
  });

  it("refuses the arrows that ran back up: auth into services, the read API into the MCP server, the database into the server", async () => {
    expect(
      await layerErrors("lib/auth/made-up.ts", `import { requireUser } from "@/lib/services/auth/session";\nexport const r = requireUser;\n`),
    ).toHaveLength(1);
    expect(await layerErrors("lib/api/made-up.ts", `import type { RingsideReader } from "@/lib/mcp/reader";\nexport type R = RingsideReader;\n`)).toHaveLength(
      1,
    );
    expect(
      await layerErrors("lib/db/made-up.ts", `import { startBackgroundWork } from "@/lib/server/background";\nexport const s = startBackgroundWork;\n`),
    ).toHaveLength(1);
    expect(await layerErrors("lib/http/made-up.ts", `import { screenWrite } from "@/lib/api/handler";\nexport const w = screenWrite;\n`)).toHaveLength(1);
  });

  it("lets the sync engine import the queries, the ring client auth's scopes, the signals the metrics, and every layer the clock and the envelope", async () => {
    expect(await layerErrors("lib/sync/made-up.ts", `import { getSyncState } from "@/lib/db/queries/sync-state";\nexport const s = getSyncState;\n`)).toEqual(
      [],
    );
    expect(await layerErrors("lib/ring/made-up.ts", `import { normalizeScopes } from "@/lib/auth/scopes";\nexport const s = normalizeScopes;\n`)).toEqual([]);
    expect(await layerErrors("lib/signals/made-up.ts", `import type { NumericSeries } from "@/lib/metrics/series";\nexport type N = NumericSeries;\n`)).toEqual(
      [],
    );
    expect(await layerErrors("lib/db/queries/made-up.ts", `import { clock } from "@/lib/clock";\nexport const c = clock;\n`)).toEqual([]);
    expect(await layerErrors("lib/ring/made-up.ts", `import { AppError } from "@/lib/http/errors";\nexport const e = AppError;\n`)).toEqual([]);
  });
});
