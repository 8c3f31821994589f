// Test support (never imported by the app): uploads thrown at the import — generated ones for
// the fuzz lane (lib/import/fuzz.test.ts) and the fixed worst cases the benchmark's guard posts
// to the production server (e2e/bench/import-guard.ts). Random bytes, truncated and corrupted
// archives, bombs (by ratio, by overlapping entries, by many entries), huge lines, odd
// encodings and separators, and mapped files with random cells.
import fc from "fast-check";
import { rawZip } from "@/lib/test/import-kit";

export type FuzzUpload = { what: string; name: string; data: Buffer };

const MB = 1024 * 1024;

/** A small export: a few daily-sleep rows and heart-rate samples (valid, so that cuts and flips land in real structure). */
export function sampleExportZip(): Buffer {
  const sleep = [
    "id;day;score;timestamp",
    ...Array.from({ length: 20 }, (_, i) => `s${i};2026-01-${String(i + 1).padStart(2, "0")};${60 + i};2026-01-01T00:00:00+00:00`),
  ];
  const hr = [
    "timestamp;bpm;source",
    ...Array.from(
      { length: 400 },
      (_, i) => `2026-01-05T${String(Math.floor(i / 60) % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00+00:00;${50 + (i % 40)};awake`,
    ),
  ];
  return rawZip([
    { name: "App Data/dailysleep.csv", data: Buffer.from(sleep.join("\n") + "\n") },
    { name: "App Data/heartrate.csv", data: Buffer.from(hr.join("\r\n") + "\r\n") },
    { name: "App Data/meal.csv", data: Buffer.from("id;day\n1;2026-01-01\n") },
  ]);
}

const SEPARATORS = [";", ",", "\t", "|", " ", "\u001f"] as const;
const NAMES = ["dailysleep.csv", "heartrate.csv", "dailyactivity.csv", "trends.csv", "meal.csv", "notes.txt", "upload"] as const;

/** A CSV text with a header and rows of random cells, in one of the separators and encodings. */
const csvText = fc
  .record({
    sep: fc.constantFrom(...SEPARATORS),
    header: fc.array(fc.constantFrom("id", "day", "score", "timestamp", "bpm", "source", "label", "x", "Sleep Score", "date"), { minLength: 1, maxLength: 6 }),
    rows: fc.array(
      fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('"', '""', "2026-01-01", "-1", "=1+1", "\r", "\n", "null", "{")), { maxLength: 7 }),
      {
        maxLength: 60,
      },
    ),
    eol: fc.constantFrom("\n", "\r\n", "\r"),
    bom: fc.boolean(),
    sepLine: fc.boolean(),
    encoding: fc.constantFrom("utf8", "utf16le", "latin1") as fc.Arbitrary<BufferEncoding>,
  })
  .map(({ sep, header, rows, eol, bom, sepLine, encoding }) => {
    const text = `${bom ? "\ufeff" : ""}${sepLine ? `sep=${sep}${eol}` : ""}${[header, ...rows].map((r) => r.join(sep)).join(eol)}${eol}`;
    return Buffer.from(text, encoding);
  });

/** Generated uploads of every kind above (each at most a few MiB). */
export const fuzzUpload: fc.Arbitrary<FuzzUpload> = fc.oneof(
  fc.uint8Array({ maxLength: 4096 }).map((b) => ({ what: "random bytes", name: "upload.zip", data: Buffer.from(b) })),
  fc.nat().map((n) => {
    const good = sampleExportZip();
    return { what: "truncated ZIP", name: "export.zip", data: good.subarray(0, n % good.length) };
  }),
  fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }).map(({ at, byte }) => {
    const data = Buffer.from(sampleExportZip());
    data[at % data.length] = byte;
    return { what: "a byte of a ZIP changed", name: "export.zip", data };
  }),
  fc.record({ mib: fc.integer({ min: 1, max: 24 }), fill: fc.constantFrom("0", "a;b\n", "1;2;3\r\n") }).map(({ mib, fill }) => ({
    what: "a bomb by its ratio",
    name: "export.zip",
    data: rawZip([{ name: "App Data/dailysleep.csv", data: Buffer.from(fill.repeat(Math.ceil((mib * MB) / 8 / fill.length))) }]),
  })),
  fc.record({ copies: fc.integer({ min: 2, max: 255 }), asFolders: fc.boolean() }).map(({ copies, asFolders }) => ({
    what: "overlapping entries",
    name: "export.zip",
    data: rawZip(
      [{ name: "App Data/heartrate.csv", data: Buffer.from("timestamp;bpm\n" + "2026-01-05T00:00:00+00:00;60\n".repeat(2000)) }],
      Array.from({ length: copies }, (_, i) => ({ entry: 0, name: asFolders ? `App Data/d${i}/` : `App Data/h${i}.csv` })),
    ),
  })),
  fc.integer({ min: 1, max: 400 }).map((n) => ({
    what: "many entries",
    name: "export.zip",
    data: rawZip(Array.from({ length: n }, (_, i) => ({ name: `App Data/f${i}.csv`, data: Buffer.from(`a;b\n${i};${i}\n`), deflate: i % 2 === 0 }))),
  })),
  fc.record({ kb: fc.integer({ min: 1, max: 1200 }), name: fc.constantFrom(...NAMES) }).map(({ kb, name }) => ({
    what: "a huge line",
    name,
    data: Buffer.from(`id;day\n${"x".repeat(kb * 1024)};2026-01-01\n`),
  })),
  fc.record({ text: csvText, name: fc.constantFrom(...NAMES) }).map(({ text, name }) => ({ what: "a CSV of random cells", name, data: text })),
  fc.record({ text: csvText, name: fc.constantFrom(...NAMES) }).map(({ text, name }) => ({
    what: "a ZIP of a random CSV",
    name: "export.zip",
    data: rawZip([{ name: `App Data/${name}`, data: text }]),
  })),
);

/**
 * The worst cases, fixed (the benchmark's guard posts each to the production server and
 * measures its CPU time): the security read's 30 kB ZIP of 255 overlapping entries, its 50 kB
 * ZIP of 255 folders over one 15.5 MiB CSV, a 15.5 MiB CSV alone in a ZIP, 2 MiB of `a;b\n`
 * (unmapped, then as a mapped file), the most entries, a record of 1.2 MiB.
 */
export function guardCorpus(): FuzzUpload[] {
  const aB = (bytes: number) => Buffer.from("a;b\n".repeat(Math.floor(bytes / 4)));
  const big = aB(15.5 * MB);
  return [
    {
      what: "30 kB ZIP, 255 overlapping entries",
      name: "overlap.zip",
      data: rawZip([{ name: "App Data/x.csv", data: big }], names(255, "App Data/x", ".csv")),
    },
    { what: "255 folders over one 15.5 MiB CSV", name: "folders.zip", data: rawZip([{ name: "App Data/x.csv", data: big }], names(255, "App Data/d", "/")) },
    { what: "a 15.5 MiB CSV in a ZIP", name: "one.zip", data: rawZip([{ name: "App Data/meal.csv", data: big }]) },
    { what: "2 MiB of a;b, unmapped", name: "notes.csv", data: aB(2 * MB) },
    {
      what: "2 MiB of a mapped CSV's rows",
      name: "heartrate.csv",
      data: Buffer.from("timestamp;bpm\n" + "2026-01-05T00:00:00+00:00;60\n".repeat(Math.floor((2 * MB) / 29))),
    },
    {
      what: "5,000 entries",
      name: "many.zip",
      data: rawZip(Array.from({ length: 5_000 }, (_, i) => ({ name: `App Data/f${i}.csv`, data: Buffer.from(`a;b\n${i};${i}\n`) }))),
    },
    { what: "a 1.2 MiB record", name: "dailysleep.csv", data: Buffer.from(`id;day\n${"x".repeat(1.2 * MB)};2026-01-01\n`) },
  ];
}

function names(n: number, prefix: string, suffix: string): Array<{ entry: number; name: string }> {
  return Array.from({ length: n }, (_, i) => ({ entry: 0, name: `${prefix}${i}${suffix}` }));
}
