// Seeded randomness and the figures each case reports (written to
// e2e/chaos/.data/figures/<case>.json and printed). The seed follows the run's
// (RING_EMULATOR_SEED, lib/test/suite-env.mjs), so one commit and one seed make the same cases;
// CHAOS_SEED overrides it.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { clock } from "@/lib/clock";
import { CHAOS_DATA_DIR, FULL } from "./env";

export const SEED = Number(
  process.env.CHAOS_SEED ??
    crypto
      .createHash("sha256")
      .update(process.env.RING_EMULATOR_SEED ?? "ringside-emulator-seed-1")
      .digest()
      .readUInt32BE(0) %
      2 ** 31,
);

/** mulberry32: a small deterministic PRNG. */
export function rng(seed = SEED): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const dir = path.join(CHAOS_DATA_DIR, "figures");
  fs.mkdirSync(dir, { recursive: true });
  const body = { case: name, form: FULL ? "full" : "quick", seed: SEED, at: clock.date().toISOString(), ...figures };
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(body, null, 2) + "\n");
  console.log(`[chaos] ${name}: ${JSON.stringify(figures)}`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
