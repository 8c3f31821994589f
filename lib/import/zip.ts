import "server-only";
import zlib from "node:zlib";
import yauzl from "yauzl";
import { ImportRefusal } from "@/lib/import/refusal";
import { entryNameProblem } from "@/lib/import/files";
import { ImportStopped, type ImportBudget } from "@/lib/import/budget";

// The account export's ZIP, read with yauzl from its spooled file: the central directory first
// (every name and declared size checked before a byte is inflated), then one entry at a time as
// a stream. Nothing is held whole. A ZIP bomb is refused by what it declares (an entry or the
// sum over the limit, an absurd compression ratio) and by what it really inflates to (counted
// as it streams; yauzl also stops an entry that outgrows its declared size). yauzl does not
// check CRC-32s, so every entry's is checked here as it is read. Entries must lie one after the
// other, in the order the central directory lists them, before it: an archive whose entries
// overlap (many entries declaring the same compressed bytes, a "quine" bomb) or come out of
// order is refused while listing, before anything is inflated. An upload's archives share one
// budget (lib/import/budget.ts): their entries and declared sizes count together.

export const ZIP_LIMITS = {
  /** entries in the archive */
  maxEntries: 5_000,
  /** one entry, inflated (a 5-year heart-rate file is ~100 MB) */
  maxEntryBytes: 1024 * 1024 * 1024,
  /** every entry, inflated */
  maxTotalBytes: 4 * 1024 * 1024 * 1024,
  /** inflated / compressed, for entries above `ratioFromBytes` (CSV compresses ~10×, a long series ~30×; bombs ~1000×) */
  maxRatio: 200,
  ratioFromBytes: 1024 * 1024,
} as const;

export type ZipLimits = { readonly [K in keyof typeof ZIP_LIMITS]: number };

export type ZipEntryInfo = { index: number; name: string; size: number; compressedSize: number; isDirectory: boolean };

const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

function corrupt(err: unknown, what = "The ZIP file"): ImportRefusal {
  const detail = err instanceof Error ? err.message : String(err);
  return new ImportRefusal(`${what} is corrupt or not a ZIP (${detail.slice(0, 160)}).`);
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) reject(corrupt(err));
      else resolve(zip);
    });
  });
}

/** The next entry of the central directory, or null at its end. */
function nextEntry(zip: yauzl.ZipFile, failed: { error: Error | null }): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    if (failed.error) return reject(corrupt(failed.error));
    const cleanup = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
    };
    const onEntry = (e: yauzl.Entry) => (cleanup(), resolve(e));
    const onEnd = () => (cleanup(), resolve(null));
    const onError = (err: Error) => (cleanup(), reject(corrupt(err)));
    zip.on("entry", onEntry);
    zip.on("end", onEnd);
    zip.on("error", onError);
    zip.readEntry();
  });
}

function nameOf(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer | string;
  return typeof raw === "string" ? raw : yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
}

/** Checks one central-directory record; throws ImportRefusal. */
function checkEntry(entry: yauzl.Entry, name: string, limits: ZipLimits): void {
  const problem = entryNameProblem(name);
  if (problem) throw new ImportRefusal(`The ZIP is refused: ${problem}.`);
  if (entry.isEncrypted()) throw new ImportRefusal(`The ZIP is refused: ${name} is encrypted.`);
  if (name.endsWith("/") && (entry.uncompressedSize > 0 || entry.compressedSize > 0))
    throw new ImportRefusal(`The ZIP is refused: the folder ${name} declares content (a ZIP bomb?).`, { tooLarge: true });
  if (entry.uncompressedSize > limits.maxEntryBytes)
    throw new ImportRefusal(
      `The ZIP is refused: ${name} declares ${mib(entry.uncompressedSize)} unpacked, ` +
        `more than the ${mib(limits.maxEntryBytes)} an entry may hold (a ZIP bomb?).`,
      { tooLarge: true },
    );
  if (entry.uncompressedSize > limits.ratioFromBytes && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio)
    throw new ImportRefusal(
      `The ZIP is refused: ${name} unpacks to ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times its packed size (a ZIP bomb?).`,
      { tooLarge: true },
    );
}

/**
 * Every entry of the archive as its central directory declares it, each checked (names, sizes,
 * encryption, counts). Throws ImportRefusal for a corrupt archive or one over a limit.
 */
export async function listZip(file: string, limits: ZipLimits = ZIP_LIMITS, budget?: ImportBudget): Promise<ZipEntryInfo[]> {
  const zip = await openZip(file);
  const failed: { error: Error | null } = { error: null };
  zip.on("error", (err: Error) => (failed.error = err));
  // (yauzl starts reading the central directory where it begins)
  const directoryAt = (zip as unknown as { readEntryCursor: number }).readEntryCursor;
  // (an archive listed again in a later pass is not counted twice)
  const counted = budget?.firstListing(file) ? budget : null;
  try {
    if (zip.entryCount > limits.maxEntries)
      throw new ImportRefusal(`The ZIP is refused: it has ${zip.entryCount} entries, more than ${limits.maxEntries}.`, { tooLarge: true });
    const out: ZipEntryInfo[] = [];
    let total = 0;
    let end = 0;
    for (let entry = await nextEntry(zip, failed); entry; entry = await nextEntry(zip, failed)) {
      const name = nameOf(entry);
      checkEntry(entry, name, limits);
      end = checkPlace(entry, name, end, directoryAt);
      if (counted) {
        counted.addEntry(name);
        counted.declare(name, entry.uncompressedSize);
      }
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes)
        throw new ImportRefusal(`The ZIP is refused: its entries declare more than ${mib(limits.maxTotalBytes)} unpacked (a ZIP bomb?).`, { tooLarge: true });
      out.push({ index: out.length, name, size: entry.uncompressedSize, compressedSize: entry.compressedSize, isDirectory: name.endsWith("/") });
      await budget?.tick();
    }
    return out;
  } finally {
    zip.close();
  }
}

/** The fixed part of a local file header. */
const LOCAL_HEADER_BYTES = 30;

/**
 * Checks that an entry's bytes (its local header, name and compressed data, at the least) start
 * at or after where the previous entry's end and end before the central directory; returns
 * where they end. Overlapping entries (a bomb that reuses one compressed stream many times) and
 * entries out of order are refused.
 */
function checkPlace(entry: yauzl.Entry, name: string, previousEnd: number, directoryAt: number): number {
  const start = entry.relativeOffsetOfLocalHeader;
  const end = start + LOCAL_HEADER_BYTES + entry.fileNameLength + entry.compressedSize;
  if (start < previousEnd)
    throw new ImportRefusal(`The ZIP is refused: ${name} overlaps the entry before it or is out of order (a ZIP bomb?).`, { tooLarge: true });
  if (end > directoryAt) throw new ImportRefusal(`The ZIP is refused: ${name} runs into the archive's directory (a ZIP bomb or a corrupt file).`);
  return end;
}

type ZipReadOptions = {
  /**
   * Every entry of this file was read whole and checked before (an earlier pass over the same
   * spooled upload): what `read` leaves unread is not inflated again.
   */
  checkedBefore?: boolean;
  /** the upload's budget: every chunk inflated is counted and ticks it */
  budget?: ImportBudget;
};

/**
 * Reads the archive's entries in order, handing each wanted one (by index) to `read` as a
 * stream of its inflated bytes; the entries `read` does not consume whole are still checked
 * (unless `checkedBefore`). An entry inflating past its declared size or the limits, corrupt
 * data or a wrong CRC-32 → ImportRefusal naming the entry.
 */
export async function forEachZipEntry(
  file: string,
  wanted: (info: ZipEntryInfo) => boolean,
  /** "skip": what is left of the entry is not inflated at all (a file the import does not read) */
  read: (info: ZipEntryInfo, bytes: AsyncIterable<Buffer>) => Promise<void | "skip">,
  limits: ZipLimits = ZIP_LIMITS,
  opts: ZipReadOptions = {},
): Promise<void> {
  const zip = await openZip(file);
  const failed: { error: Error | null } = { error: null };
  zip.on("error", (err: Error) => (failed.error = err));
  const directoryAt = (zip as unknown as { readEntryCursor: number }).readEntryCursor;
  let total = 0;
  let end = 0;
  try {
    let index = 0;
    for (let entry = await nextEntry(zip, failed); entry; entry = await nextEntry(zip, failed), index++) {
      const name = nameOf(entry);
      checkEntry(entry, name, limits);
      end = checkPlace(entry, name, end, directoryAt);
      await opts.budget?.tick();
      const info: ZipEntryInfo = { index, name, size: entry.uncompressedSize, compressedSize: entry.compressedSize, isDirectory: name.endsWith("/") };
      if (info.isDirectory || !wanted(info)) continue;
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry!, (err, s) => (err || !s ? reject(corrupt(err, `The entry ${name}`)) : resolve(s))),
      );
      let size = 0;
      let crc = 0;
      let finished = false;
      async function* checked(): AsyncGenerator<Buffer> {
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            size += chunk.length;
            total += chunk.length;
            if (size > limits.maxEntryBytes || total > limits.maxTotalBytes)
              throw new ImportRefusal(`The ZIP is refused: ${name} unpacks to more than the limit (a ZIP bomb?).`, { tooLarge: true });
            opts.budget?.inflate(name, chunk.length);
            crc = zlib.crc32(chunk, crc);
            yield chunk;
            await opts.budget?.tick();
          }
        } catch (err) {
          if (err instanceof ImportRefusal || err instanceof ImportStopped) throw err;
          // yauzl stops an entry that inflates past the size it declares
          if (err instanceof Error && /too many bytes/i.test(err.message))
            throw new ImportRefusal(`The ZIP is refused: ${name} unpacks to more than it declares (a ZIP bomb?).`, { tooLarge: true });
          throw corrupt(err, `The entry ${name}`);
        }
        if (crc >>> 0 !== entry!.crc32 >>> 0) throw new ImportRefusal(`The ZIP is refused: ${name} is corrupt (its checksum does not match).`);
        finished = true;
      }
      const bytes = checked();
      try {
        const after = await read(info, bytes);
        // what the reader left unread is still inflated and checked (the first time)
        if (!finished && !opts.checkedBefore && after !== "skip") for await (const _ of bytes) void _;
      } finally {
        (stream as unknown as { destroy(): void }).destroy();
      }
    }
  } finally {
    zip.close();
  }
}
