// The import's fuzz lane: generated archives and CSVs (lib/test/import-fuzz.ts) — random bytes,
// truncations, bombs, overlaps, huge lines, odd encodings and separators — each refused or
// imported within its CPU budget, leaving no spool and, when refused, no row. A fixed seed and a
// bounded count here (npm test); `npm run fuzz:import` runs many more (FUZZ_RUNS, FUZZ_SEED).
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { AppError } from "@/lib/http/errors";
import { ManualClock } from "@/lib/clock";
import { cpuSecondsFor } from "@/lib/import/budget";
import { runImport } from "@/lib/import/run";
import { fuzzUpload, guardCorpus, type FuzzUpload } from "@/lib/test/import-fuzz";
import { sqlValue } from "@/lib/test/sql";

const clock = new ManualClock(Date.parse("2026-03-15T12:00:00Z"));
const IMPORTS = path.join(process.env.DATA_DIR!, "imports");
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 44);
/** What a tick may overshoot the budget by (one slice of work, the spooling before it is set). */
const SLACK_S = 0.3;
let people = 0;

const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1e6;
};

async function rows(userId: string): Promise<number> {
  let n = 0;
  for (const t of ["daily_sleep", "daily_activity", "heart_rate", "rejected_document", "day_note"])
    n += Number(await sqlValue(`SELECT COUNT(*) FROM ${t} WHERE userId = ?`, userId));
  return n;
}

/** Imports one upload for a new person and checks the lane's rules; returns what happened. */
async function throwAt(u: FuzzUpload, dryRun: boolean): Promise<"imported" | "refused"> {
  const userId = (await db.user.create({ data: { email: `fuzz-${++people}@example.test` } })).id;
  async function* body() {
    yield u.data;
  }
  const started = cpu();
  const outcome = await runImport(userId, { type: "file", name: u.name, body: body() }, { clock, dryRun }).then(
    () => "imported" as const,
    (err: unknown) => {
      // a refusal the client is told about (4xx), never a crash
      expect(err, `${u.what}: ${String(err)}`).toBeInstanceOf(AppError);
      expect((err as AppError).status, `${u.what}: ${(err as AppError).message}`).toBeGreaterThanOrEqual(400);
      expect((err as AppError).status, `${u.what}: ${(err as AppError).message}`).toBeLessThan(500);
      return "refused" as const;
    },
  );
  const used = cpu() - started;
  if (process.env.FUZZ_LOG) console.log(`${u.what}\t${u.data.length}\t${used.toFixed(3)}\t${outcome}`);
  expect(used, `${u.what} (${u.data.length} bytes): ${used.toFixed(2)} CPU-s`).toBeLessThanOrEqual(cpuSecondsFor(u.data.length) + SLACK_S);
  expect(fs.existsSync(IMPORTS) ? fs.readdirSync(IMPORTS) : [], u.what).toEqual([]);
  if (outcome === "refused" || dryRun) expect(await rows(userId), u.what).toBe(0);
  return outcome;
}

describe("the import under generated uploads", () => {
  it("the guard's worst cases: each refused or imported within its budget, leaving nothing behind", { timeout: 120_000 }, async () => {
    const seen: Record<string, string> = {};
    for (const u of guardCorpus()) seen[u.what] = await throwAt(u, false);
    expect(seen).toMatchObject({
      "30 kB ZIP, 255 overlapping entries": "refused",
      "255 folders over one 15.5 MiB CSV": "refused",
      "a 15.5 MiB CSV in a ZIP": "refused",
      "2 MiB of a;b, unmapped": "imported",
      "a 1.2 MiB record": "refused",
    });
  });

  it(`${RUNS} generated uploads (seed ${SEED}), imported and dry-run`, { timeout: Math.max(300_000, RUNS * 1_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(fuzzUpload, fc.boolean(), async (u, dryRun) => {
        await throwAt(u, dryRun);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
