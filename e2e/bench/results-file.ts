// The bench's results on disk: latest.json, the published figures every bench script writes
// into (docs/performance.md quotes them), and the one way a results file is written: whole or
// not at all (a temporary file renamed over the old), so a bench stopped mid-write never
// leaves half a file behind.
import fs from "node:fs";
import path from "node:path";

/** The published figures: `npm run bench` writes them whole, the steps run alone add their blocks. */
export const LATEST_RESULTS = path.join(process.cwd(), "e2e/bench/results/latest.json");

/** latest.json as it stands, parsed, or null where no bench has written it yet. */
export function readLatestResults(): unknown {
  return fs.existsSync(LATEST_RESULTS) ? (JSON.parse(fs.readFileSync(LATEST_RESULTS, "utf8")) as unknown) : null;
}

/** Writes `value` as JSON to `file` (its folder made if missing), whole or not at all. */
export function writeResultsFile(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value, null, 2) + "\n");
  fs.renameSync(`${file}.tmp`, file);
}
