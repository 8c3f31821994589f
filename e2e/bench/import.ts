// The import step of `npm run bench`: a 5-year account export of the ring maker's (every daily
// file and the sleep periods, and heart rate at one sample every 5 minutes of wear, about half a
// million samples) imported through POST /api/import into the production server, for a person
// whose membership lapsed (the sync gets 403, as in life). Figures: the wall time of the import
// and the server's memory peak above its rest just before (targets: ≤ 60 s, ≤ +100 MB).
//
// `npm run bench` runs it after its other measures (run.ts). On its own, against a server it
// starts (the production build, fresh data):  npx tsx e2e/bench/import.ts
// which writes the `import` figures into e2e/bench/results/latest.json, leaving the rest as it is.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { generateRange } from "@/lib/emulator/generator";
import { exportCsv, writeZip, type ZipFileSpec } from "@/lib/test/import-kit";
import { connectThroughOAuth } from "./backfill";
import { readRssMb, sampleRss } from "./memory";
import { round } from "./stats";
import type { BenchResult } from "./report";

export type ImportFigures = NonNullable<BenchResult["import"]>;

const YEARS = 5;
const DAY_MS = 86_400_000;
const SAMPLE_EVERY_MS = 5 * 60_000;

/**
 * Writes the 5-year export: the generated person's daily documents and sleep periods, and a
 * heart-rate file with a sample every 5 minutes of wear (the ring off about an hour a day).
 */
export async function writeFiveYearExport(file: string, lastDay: string): Promise<{ samples: number; documents: number; bytes: number }> {
  const last = Date.parse(`${lastDay}T00:00:00Z`);
  const firstDay = new Date(last - (YEARS * 365 + 1) * DAY_MS).toISOString().slice(0, 10);
  const docs = generateRange({ seed: "bench-import", userKey: "five-years" }, firstDay, lastDay);
  const entries: ZipFileSpec[] = [];
  let documents = 0;
  for (const [collection, list] of Object.entries(docs)) {
    if (list.length === 0) continue;
    documents += list.length;
    const name = collection === "sleep" ? "sleepmodel" : collection.replace(/_/g, "");
    entries.push({ name: `App Data/${name}.csv`, data: exportCsv(list as Array<Record<string, unknown>>) });
  }
  let samples = 0;
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  const end = last + DAY_MS;
  entries.push({
    name: "App Data/heartrate.csv",
    data: async function* () {
      yield "timestamp;bpm;source\r\n";
      let chunk = "";
      for (let t = start, i = 0; t < end; t += SAMPLE_EVERY_MS, i++) {
        const minuteOfDay = (t % DAY_MS) / 60_000;
        // charging: an hour a day, late afternoon
        if (minuteOfDay >= 17 * 60 && minuteOfDay < 18 * 60) continue;
        const asleep = minuteOfDay < 6 * 60 || minuteOfDay >= 23 * 60;
        chunk += `${new Date(t).toISOString().replace(".000Z", "+00:00")};${(asleep ? 52 : 66) + (i % 17)};${asleep ? "sleep" : "awake"}\r\n`;
        samples++;
        if (chunk.length > 256 * 1024) {
          yield chunk;
          chunk = "";
        }
      }
      yield chunk;
    },
  });
  await writeZip(file, entries);
  return { samples, documents, bytes: fs.statSync(file).size };
}

export type MeasureImportOptions = {
  appUrl: string;
  serverPid: number;
  emulatorUrl: string;
  /** where the export is written */
  dir: string;
  log: (msg: string) => void;
};

/** Connects a person whose membership lapsed, then times the import of the 5-year export and samples the server's memory. */
export async function measureImport(opts: MeasureImportOptions): Promise<ImportFigures> {
  const email = `bench-import-${process.pid}@bench.example.test`;
  const created = await fetch(`${opts.emulatorUrl}/_emulator/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, history_days: 30, subscription: "expired" }),
  });
  if (!created.ok) throw new Error(`emulator user: ${created.status}`);
  const { last_day: lastDay } = (await created.json()) as { last_day: string };
  const connected = await connectThroughOAuth(opts.appUrl, email);

  const file = path.join(opts.dir, "import-5y.zip");
  fs.mkdirSync(opts.dir, { recursive: true });
  const written = await writeFiveYearExport(file, lastDay);
  opts.log(`import: wrote a ${round(written.bytes / 1024 / 1024, 1)} MB export (${written.documents} documents, ${written.samples} heart-rate samples)`);

  // at rest: a few quiet seconds after the connect's refused sync
  await new Promise((r) => setTimeout(r, 5_000));
  const restMb = readRssMb(opts.serverPid) ?? 0;
  const rss = sampleRss(opts.serverPid, 50);
  const started = performance.now();
  const res = await fetch(`${opts.appUrl}/api/import`, {
    method: "POST",
    headers: { "content-type": "application/zip", "x-file-name": "export.zip", origin: opts.appUrl, cookie: connected.jar.header() },
    body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  const wallMs = performance.now() - started;
  const peak = rss.stop();
  if (!res.ok) throw new Error(`import: ${res.status} ${text.slice(0, 300)}`);
  const report = JSON.parse(text) as { documents: Record<string, number>; rejected: number };
  const stored = report.documents.heartrate ?? 0;
  if (stored !== written.samples) throw new Error(`import stored ${stored} heart-rate samples of ${written.samples}`);
  if (report.rejected !== 0) throw new Error(`import rejected ${report.rejected} rows`);
  fs.rmSync(file, { force: true });
  const figures: ImportFigures = {
    years: YEARS,
    samples: written.samples,
    documents: written.documents,
    zip_mb: round(written.bytes / 1024 / 1024, 1),
    wall_s: round(wallMs / 1000, 2),
    rest_mb: round(restMb, 0),
    peak_mb: round(peak.peakMb, 0),
    peak_above_rest_mb: round(peak.peakMb - restMb, 0),
  };
  opts.log(
    `import: ${figures.samples} samples and ${figures.documents} documents in ${figures.wall_s} s; memory ${figures.rest_mb} MB at rest, peak ${figures.peak_mb} MB (+${figures.peak_above_rest_mb} MB)`,
  );
  return figures;
}
