import "server-only";
import fs from "node:fs";
import { isRingCollection, SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { readCsv } from "@/lib/import/csv";
import { collectionForFile, dataFolderOf, fileKey, folderOf, isCsvName } from "@/lib/import/files";
import { ImportRefusal } from "@/lib/import/refusal";
import { collectionForHeader, normalizeColumn, rowReader } from "@/lib/import/rows";
import { isTrendsHeader, trendsReader } from "@/lib/import/trends";
import type { ImportWriter } from "@/lib/import/writer";
import type { ImportBudget } from "@/lib/import/budget";
import { forEachZipEntry, listZip, type ZipEntryInfo, type ZipLimits, ZIP_LIMITS } from "@/lib/import/zip";

// The ring maker's files: its account export (a ZIP) and loose CSV files (some of the export's,
// or a Trends CSV). Each file is told apart by its content: a ZIP by its signature, a Trends
// CSV by its header, an export CSV by its name (or, uploaded alone under another name, by the
// columns it has). Read twice from the spool: a check of every row (nothing stored; the dry
// run's counts), then — once everything passed — the same rows into the writer. The check is
// repeated rather than kept: storing starts only once every row passed, and keeping what the
// check read until then is not bounded in memory (a 256 MB upload); parsing is linear in what
// was sent and both passes draw on the import's one CPU budget (lib/import/budget.ts). Files
// Ringside does not map are listed by name and size, never parsed (only their header is read,
// to tell a Trends CSV apart), and an archive's entry outside the export's data folder is not
// even inflated.

/** A spooled upload of the ring maker's: a ZIP or one CSV file. */
export type VendorFile = { name: string; path: string; kind: "zip" | "csv" };

export type FileRole = { kind: "collection"; collection: SyncCollection } | { kind: "trends" } | { kind: "unmapped" };

/** One file of the upload (an archive's entry, or a CSV uploaded as it is) and what the check found in it. */
export type CheckedFile = {
  source: number;
  /** the entry's index in its archive (null: the upload is this file) */
  entry: number | null;
  name: string;
  role: FileRole;
  /** rows (lines of data); null for a file that is not read (not a CSV, or unmapped) */
  rows: number | null;
  /** its size in bytes (unpacked), when known */
  size: number | null;
  /** columns of a mapped file that Ringside does not read */
  unknownColumns: string[];
};

/** Files the export holds that Ringside knows and does not map (listed like any other unmapped file). */
export const KNOWN_UNMAPPED_FILES = [
  "dailysmoothedcardiovascularage",
  "temperature",
  "daytimestress",
  "meal",
  "fooditem",
  "bloodglucose",
  "medication",
  "glp1settings",
  "dailymetabolicscore",
  "labtestresult",
  "personalinfo",
  "surveyresponse",
  "userconsentsettings",
  "applicationdebugstate",
  "behaviorcoaching",
  "rawlocation",
  "sleepstorysession",
];

/** Rows and documents a file may hold (a time series has its own bound, the import's). */
export type RowLimits = { maxRowsPerFile: number; maxSeriesRows: Readonly<Record<string, number>> };

export type ReadContext = {
  now: number;
  limits: RowLimits;
  zipLimits?: ZipLimits;
  /**
   * Every file was read whole and checked before (the check before storing): a pass then
   * unpacks only the files it parses, not the rest of the others to check them again.
   */
  checkedBefore?: boolean;
  /**
   * The archive entries a pass reads (`source:entry`), when the check told which files Ringside
   * maps: the others, unmapped, are listed without being opened again.
   */
  entries?: ReadonlySet<string>;
  /** progress: the file being read and its rows so far */
  progress: (file: string, rows: number) => Promise<void>;
  /** the import's budget: ticked between batches, shared by every archive */
  budget?: ImportBudget;
};

const ZIP_SIGNATURE = Buffer.from("PK\x03\x04", "latin1");
const EMPTY_ZIP_SIGNATURE = Buffer.from("PK\x05\x06", "latin1");

/** What a spooled file is, by its first bytes: a ZIP, a JSON document (Ringside's export) or text (CSV). */
export async function sniffFile(file: string): Promise<"zip" | "json" | "csv"> {
  const fh = await fs.promises.open(file, "r");
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(512), 0, 512, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.subarray(0, 4).equals(ZIP_SIGNATURE) || head.subarray(0, 4).equals(EMPTY_ZIP_SIGNATURE)) return "zip";
    const text = head
      .toString("utf8")
      .replace(/^\ufeff/, "")
      .trimStart();
    return text.startsWith("{") || text.startsWith("[") ? "json" : "csv";
  } finally {
    await fh.close();
  }
}

/** How a file's role is decided: the Trends header; the name; alone, by its columns (not inside an archive, where names are reliable). */
function roleOf(name: string, header: readonly string[], inArchive: boolean): FileRole {
  if (isTrendsHeader(header)) return { kind: "trends" };
  const byName = collectionForFile(name);
  if (byName) return { kind: "collection", collection: byName };
  if (inArchive || KNOWN_UNMAPPED_FILES.includes(fileKey(name))) return { kind: "unmapped" };
  const byHeader = collectionForHeader(header, SYNC_COLLECTIONS);
  return byHeader ? { kind: "collection", collection: byHeader } : { kind: "unmapped" };
}

/**
 * Reads one CSV file's rows: decides its role from its header, checks every row (throwing
 * ImportRefusal naming the file and row) and hands each row's documents to `writer` (when
 * given). Returns what it found.
 */
async function readFile(
  bytes: AsyncIterable<Buffer>,
  at: { source: number; entry: number | null; name: string; inArchive: boolean; size: number | null },
  ctx: ReadContext,
  writer: ImportWriter | null,
  only: "documents" | "trends" | "all",
): Promise<CheckedFile | null> {
  const base: Omit<CheckedFile, "role" | "rows" | "unknownColumns"> = { source: at.source, entry: at.entry, name: at.name, size: at.size };
  // a quoted empty cell is an empty text only where a document has text fields (not in a time series' numbers)
  const { head, batches } = await readCsv(bytes, at.name, {
    quotedEmpty: (header) => !header.map(normalizeColumn).includes("timestamp") || header.map(normalizeColumn).includes("id"),
  });
  if (head.header.length === 0) {
    const byName = collectionForFile(at.name);
    return { ...base, role: byName ? { kind: "collection", collection: byName } : { kind: "unmapped" }, rows: 0, unknownColumns: [] };
  }
  const role = roleOf(at.name, head.header, at.inArchive);
  // a file the other pass reads (every row was checked before): not parsed again; unmapped ones with the documents
  const wanted = only === "all" || (only === "trends") === (role.kind === "trends");
  if (!wanted) return null;
  // a file Ringside does not read: listed, not parsed
  if (role.kind === "unmapped") return { ...base, role, rows: null, unknownColumns: [] };

  // Each row is read synchronously within its batch; a promise is awaited only when there is
  // something to wait for (a full chunk to store, progress to record).
  let rows = 0;
  let max: number;
  let unknownColumns: string[];
  let handle: (cells: readonly string[], row: number) => void;
  if (role.kind === "trends") {
    const reader = trendsReader(head.header, at.name, ctx.now);
    max = ctx.limits.maxRowsPerFile;
    unknownColumns = reader.unknownColumns;
    handle = (cells, row) => {
      const docs = reader.read(cells, row);
      if (writer) for (const d of docs) writer.document(d.collection, d.doc, true);
    };
  } else {
    const collection = role.collection;
    const reader = rowReader(collection, head.header, at.name, ctx.now);
    max = ctx.limits.maxSeriesRows[collection] ?? ctx.limits.maxRowsPerFile;
    unknownColumns = reader.unknownColumns;
    handle = (cells, row) => {
      const doc = reader.read(cells, row);
      if (!writer) return;
      if (isRingCollection(collection)) writer.document(collection, doc);
      else writer.sample(collection, doc);
    };
  }
  for await (const batch of batches) {
    await ctx.budget?.tick();
    for (const cells of batch) {
      if (rows >= max) throw new ImportRefusal(`${at.name}: more than ${max} rows.`, { tooLarge: true });
      rows++;
      handle(cells, rows);
      if (writer?.endItem()) await writer.flush();
      if (rows % 5_000 === 0) await ctx.progress(at.name, rows);
    }
  }
  await ctx.progress(at.name, rows);
  return { ...base, role, rows, unknownColumns };
}

async function* fileBytes(file: string): AsyncGenerator<Buffer> {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) yield chunk as Buffer;
}

/**
 * Reads every file of the upload in order (archive entries in their order), checking every
 * row; a `writer` receives the documents. `only` limits which files are read (the export's
 * documents go in before any Trends row, so that a Trends row never fills a day the same upload
 * covers; a file of the other pass is only unpacked, not parsed). Returns the files read, mapped
 * or not (unmapped ones with the documents).
 */
export async function readVendorFiles(
  files: readonly VendorFile[],
  ctx: ReadContext,
  writer: ImportWriter | null,
  only: "documents" | "trends" | "all" = "all",
): Promise<CheckedFile[]> {
  const out: CheckedFile[] = [];
  for (const [source, f] of files.entries()) {
    if (f.kind === "csv") {
      const size = (await fs.promises.stat(f.path)).size;
      const read = await readFile(fileBytes(f.path), { source, entry: null, name: f.name, inArchive: false, size }, ctx, writer, only);
      if (read) out.push(read);
      continue;
    }
    const entries = await listZip(f.path, ctx.zipLimits ?? ZIP_LIMITS, ctx.budget);
    const dataFolder = dataFolderOf(entries.filter((e) => !e.isDirectory).map((e) => e.name));
    const inData = (name: string) => dataFolder === null || folderOf(name) === dataFolder;
    const known = ctx.entries;
    const read = (e: ZipEntryInfo) => isCsvName(e.name) && inData(e.name) && (!known || known.has(entryKey(source, e.index)));
    if (only !== "trends")
      for (const e of entries)
        if (!e.isDirectory && !read(e))
          out.push({ source, entry: e.index, name: e.name, role: { kind: "unmapped" }, rows: null, size: e.size, unknownColumns: [] });
    await forEachZipEntry(
      f.path,
      read,
      async (e, bytes) => {
        const file = await readFile(bytes, { source, entry: e.index, name: e.name, inArchive: true, size: e.size }, ctx, writer, only);
        if (file) out.push(file);
        // a file Ringside does not read is not unpacked further
        return file?.role.kind === "unmapped" ? "skip" : undefined;
      },
      ctx.zipLimits ?? ZIP_LIMITS,
      { checkedBefore: ctx.checkedBefore, budget: ctx.budget },
    );
  }
  return out;
}

/** An archive entry's key in ReadContext.entries. */
export function entryKey(source: number, entry: number | null): string {
  return `${source}:${entry ?? ""}`;
}
