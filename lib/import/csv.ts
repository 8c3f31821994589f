import "server-only";
import { Readable, finished, pipeline } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { parse as parseSync } from "csv-parse/sync";
import { ImportRefusal } from "@/lib/import/refusal";

// The CSV files of the ring maker's export (and its Trends CSV), read as a stream with csv-parse.
// The exports seen differ in small ways, all handled here before a row is looked at: a UTF-8 BOM,
// a first line `sep=;` naming the delimiter, and the delimiter itself (semicolons in the account
// export, commas in the Trends CSV, a tab now and then). Memory stays flat: the records a chunk of
// input holds at a time, each at most MAX_RECORD_BYTES.

/** The longest record accepted (a night's sleep with its 5-minute series is ~10 kB). */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** How much of a file is read to find its header line and delimiter. */
const SNIFF_BYTES = 64 * 1024;
const DELIMITERS = [";", ",", "\t"] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export type CsvHead = {
  /** the header's cells, trimmed */
  header: string[];
  delimiter: Delimiter;
  /** the line the header is on (2 after a `sep=` line) */
  headerLine: number;
};

/**
 * A quoted empty cell (`""`): an empty text, where a bare empty cell is nothing (null). The only
 * way a CSV file can tell the two apart; the cell reads as this marker.
 */
export const QUOTED_EMPTY = '\u0000""';

/** Rows of a file as they are parsed: each row's cells, in order (row numbers count from 1 after the header). */
export type CsvBatches = AsyncGenerator<string[][], void, void>;

/**
 * The most rows handed over at once. A batch is what the parser has read so far, about a chunk
 * of input (16 kB from a ZIP entry: a few documents, or a few hundred heart-rate samples); the
 * cap only matters for a file of tiny rows.
 */
const MAX_BATCH_ROWS = 1_000;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Counts a delimiter in a line, outside double quotes. */
function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === d) n++;
  }
  return n;
}

/**
 * The delimiter of a file from its first lines (pure): a `sep=X` line names it; otherwise the
 * one of `;`, `,` and tab that splits the header into the most cells. Null when none splits it
 * (one column, or a delimiter Ringside does not read).
 */
export function sniffDelimiter(text: string): { delimiter: Delimiter; sepLine: boolean } | null {
  const body = text.startsWith("\ufeff") ? text.slice(1) : text;
  const firstEnd = body.search(/\r?\n/);
  const first = firstEnd === -1 ? body : body.slice(0, firstEnd);
  const sep = /^"?sep=(.)"?\s*$/i.exec(first);
  if (sep) {
    const d = sep[1] as string;
    return (DELIMITERS as readonly string[]).includes(d) ? { delimiter: d as Delimiter, sepLine: true } : null;
  }
  let best: Delimiter | null = null;
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const n = countOutsideQuotes(first, d);
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best ? { delimiter: best, sepLine: false } : null;
}

/** The first bytes of a stream (up to the end of its first two lines or SNIFF_BYTES), and the rest. */
async function readHead(source: AsyncIterator<Buffer>): Promise<{ head: Buffer; done: boolean }> {
  const parts: Buffer[] = [];
  let size = 0;
  let lines = 0;
  for (;;) {
    const next = await source.next();
    if (next.done) return { head: Buffer.concat(parts), done: true };
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
    parts.push(chunk);
    size += chunk.length;
    for (const b of chunk) if (b === 0x0a) lines++;
    if (lines >= 2 || size >= SNIFF_BYTES) return { head: Buffer.concat(parts), done: false };
  }
}

function describeCsvError(err: CsvError, file: string, headerColumns: number): string {
  const e = err as CsvError & { lines?: number; records?: number; record?: unknown[] };
  // the parser counts the data rows it completed (the failing one is the next) and every line of the file
  const row = typeof e.records === "number" ? e.records + 1 : null;
  const line = typeof e.lines === "number" ? e.lines : null;
  const where = `${file}${row !== null ? `, row ${row}` : ""}${line !== null ? ` (line ${line})` : ""}`;
  switch (err.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
      return (
        `${where}: the row has ${Array.isArray(e.record) ? e.record.length : "another number of"} cells, ` +
        `the header has ${headerColumns} (mismatched column count).`
      );
    case "CSV_MAX_RECORD_SIZE":
      return `${where}: a row is longer than ${MAX_RECORD_BYTES} bytes.`;
    case "CSV_QUOTE_NOT_CLOSED":
      return `${where}: a quoted cell is never closed.`;
    default:
      return `${where}: not a valid CSV row (${err.message.replace(/\s+on line \d+.*$/, "")}).`;
  }
}

/**
 * Reads a CSV file as a stream: its header (after a BOM and a `sep=` line) and then its rows,
 * each with as many cells as the header. An empty file has no header and no rows. Throws ImportRefusal naming the file and the row on an
 * unknown delimiter, a row with another number of cells, an unclosed quote or a row too long.
 */
export type ReadCsvOptions = {
  /**
   * Whether a quoted empty cell reads as QUOTED_EMPTY (an empty text) rather than as empty, decided
   * from the header. Telling them apart costs the parser a callback per cell: a file of numbers
   * (a time series) does without. Default: yes.
   */
  quotedEmpty?: (header: readonly string[]) => boolean;
};

export async function readCsv(
  source: AsyncIterable<Buffer | Uint8Array>,
  file: string,
  opts: ReadCsvOptions = {},
): Promise<{ head: CsvHead; batches: CsvBatches }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const sniffed0 = await readHead(it);
  const done = sniffed0.done;
  let first = sniffed0.head;
  if (first.subarray(0, 3).equals(BOM)) first = first.subarray(3);
  const text = first.toString("utf8");
  // an empty file (a data type the person never had): no header, no rows
  if (text.trim() === "") return { head: { header: [], delimiter: ";", headerLine: 1 }, batches: (async function* () {})() };
  const sniffed = sniffDelimiter(text);
  if (!sniffed) throw new ImportRefusal(`${file}, line 1: the delimiter is not one Ringside reads (semicolon, comma or tab).`);
  const headerLine = sniffed.sepLine ? 2 : 1;
  let headerCells: string[] | undefined;
  try {
    headerCells = (parseSync(text, { delimiter: sniffed.delimiter, from_line: headerLine, to_line: headerLine, relax_column_count: true }) as string[][])[0];
  } catch {
    throw new ImportRefusal(`${file}, line ${headerLine}: the header is not a valid CSV line.`);
  }
  if (!headerCells) throw new ImportRefusal(`${file}: the file has no header line.`);
  const header = headerCells.map((c) => c.trim());
  const delimiter = sniffed.delimiter;
  const cast = opts.quotedEmpty?.(header) ?? true;
  async function* chain(): AsyncGenerator<Buffer> {
    yield first;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
    }
  }
  // The rows are taken from the parser a batch at a time (stream.read() until it has no more),
  // not through its async iterator: that costs a few promises per row, which for half a million
  // heart-rate samples was most of what the import allocated. The parser and its input exist
  // only once the batches are read (a file a pass does not parse is never parsed).
  async function* batches(): CsvBatches {
    const parser = parse({
      delimiter,
      from_line: headerLine + 1,
      columns: false,
      max_record_size: MAX_RECORD_BYTES,
      skip_empty_lines: true,
      relax_quotes: false,
      ...(cast ? { cast: (value: string, context: { quoting: boolean }) => (value === "" && context.quoting ? QUOTED_EMPTY : value) } : {}),
    });
    const input = Readable.from(chain());
    // pipeline: an error of either stream (a bad quote found while nobody is reading, after the
    // reader stopped early) destroys both and is never an uncaught 'error' event; the reader
    // below gets it from finished()
    pipeline(input, parser, () => undefined);
    // undefined: still going; null: ended; else the error it ended with
    let ended: unknown = undefined;
    let wake: (() => void) | null = null;
    const signal = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    parser.on("readable", signal);
    const stopWatching = finished(parser, { writable: false }, (err) => {
      ended = err ?? null;
      signal();
    });
    let row = 0;
    try {
      for (;;) {
        const batch: string[][] = [];
        let cells: string[] | null = null;
        while (batch.length < MAX_BATCH_ROWS && (cells = parser.destroyed ? null : (parser.read() as string[] | null)) !== null) {
          row++;
          if (cells.length !== header.length)
            throw new ImportRefusal(`${file}, row ${row}: the row has ${cells.length} cells, the header has ${header.length} (mismatched column count).`);
          batch.push(cells);
        }
        if (batch.length > 0) {
          yield batch;
          continue;
        }
        if (ended === null) return;
        if (ended !== undefined) throw ended instanceof CsvError ? new ImportRefusal(describeCsvError(ended, file, header.length)) : ended;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      stopWatching();
      parser.off("readable", signal);
      input.destroy();
      parser.destroy();
    }
  }
  return { head: { header, delimiter, headerLine }, batches: batches() };
}
