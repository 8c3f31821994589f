import { clock } from "@/lib/clock";
import { stringify, type Options as CsvOptions } from "csv-stringify/sync";
import { withUser, parseQuery } from "@/lib/api/handler";
import { exportQuerySchema, type ExportQuery } from "@/lib/schemas/requests";
import { COLLECTION_IDS, type CollectionId } from "@/lib/metrics/catalog";
import { isSeriesCollection, sampleSpecOf, type RingCollection, type SeriesCollection } from "@/lib/resources";
import { sampleRow } from "@/lib/db/sample-codec";
import { readSamplePage } from "@/lib/db/queries/time-series";
import {
  exportColumns,
  getCycleForExport,
  getNotesForExport,
  getPersonalInfoRaw,
  getTagsForExport,
  readCollectionDocuments,
  readCollectionRows,
  type PageCursor,
} from "@/lib/db/queries/export";
import { getMetricsOverview } from "@/lib/services/metrics";
import { signalCsvFields, signalDaysInChunks } from "@/lib/services/signals";

/**
 * A text cell a spreadsheet would read as a formula — starting with = + - @, a tab or a
 * carriage return — is written with a leading single quote, and quoted (OWASP, CSV injection):
 * imported text (a workout's label, a note) is anyone's. Numbers are written as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const escapeCell = (s: string) => (FORMULA_START.test(s) ? { value: `'${s}`, quoted: true } : s);

/** Rows as CSV text, every text cell escaped as above. */
function csvText(rows: unknown[], opts: CsvOptions = {}): string {
  return stringify(rows, { ...opts, cast: { ...opts.cast, string: escapeCell } });
}

const BOOLEAN_WORDS: CsvOptions["cast"] = { boolean: (b) => (b ? "true" : "false") };

const PAGE = 500;
/** Days of a time series read at a time (about 300 heart-rate samples a day). */
const SERIES_PAGE_DAYS = 30;
const enc = new TextEncoder();

type Chunks = AsyncGenerator<string, void, void> | Generator<string, void, void>;

/** A streamed download; each chunk is produced on demand (pull), one DB page at a time. */
function download(chunks: Chunks, filename: string, type: string): Response {
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(enc.encode(value));
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": `${type}; charset=utf-8`,
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "private, no-store",
    },
  });
}

/** A time series' samples, day page by day page, each as the ring service sends it. */
async function* seriesRows(userId: string, collection: SeriesCollection, q: ExportQuery) {
  const spec = sampleSpecOf(collection);
  let after: string | null = null;
  do {
    const page = await readSamplePage({ collection, userId, fromDay: q.from, toDay: q.to, after, limit: SERIES_PAGE_DAYS });
    yield page.days.map((d) => ({ day: d.day, rows: d.samples.map((s) => sampleRow(spec, s)) }));
    after = page.next;
  } while (after);
}

async function* seriesCsv(userId: string, collection: SeriesCollection, q: ExportQuery) {
  const columns = ["timestamp", ...sampleSpecOf(collection).fields.map((f) => f.name)];
  yield csvText([columns]);
  for await (const days of seriesRows(userId, collection, q)) {
    const rows = days.flatMap((d) => d.rows);
    if (rows.length) yield csvText(rows, { columns, cast: BOOLEAN_WORDS });
  }
}

async function* seriesJsonArray(userId: string, collection: SeriesCollection, q: ExportQuery) {
  yield "[";
  let first = true;
  for await (const days of seriesRows(userId, collection, q)) {
    const rows = days.flatMap((d) => d.rows);
    if (rows.length) {
      yield (first ? "" : ",") + rows.map((r) => JSON.stringify(r)).join(",");
      first = false;
    }
  }
  yield "]";
}

async function* collectionCsv(userId: string, collection: RingCollection, q: ExportQuery) {
  const columns = exportColumns(collection);
  yield csvText([columns]);
  let after: PageCursor = null;
  do {
    const page = await readCollectionRows({ userId, collection, from: q.from, to: q.to, after, limit: PAGE });
    if (page.items.length) yield csvText(page.items, { columns, cast: BOOLEAN_WORDS });
    after = page.next;
  } while (after);
}

/** Every collection as one long CSV: collection, document_id, day, field, value. */
async function* allCsv(userId: string, q: ExportQuery) {
  yield csvText([["collection", "document_id", "day", "field", "value"]]);
  for (const collection of COLLECTION_IDS) {
    if (isSeriesCollection(collection)) {
      // one line per sample and field, the sample's timestamp where a document's id goes
      const fields = sampleSpecOf(collection).fields.map((f) => f.name);
      for await (const days of seriesRows(userId, collection, q)) {
        const lines: unknown[][] = [];
        for (const d of days) for (const r of d.rows) for (const f of fields) lines.push([collection, r.timestamp, d.day, f, r[f]]);
        if (lines.length) yield csvText(lines);
      }
      continue;
    }
    const columns = exportColumns(collection).filter((c) => c !== "documentId" && c !== "day");
    let after: PageCursor = null;
    do {
      const page = await readCollectionRows({ userId, collection, from: q.from, to: q.to, after, limit: PAGE });
      const lines: unknown[][] = [];
      for (const r of page.items) {
        for (const c of columns) lines.push([collection, r.documentId ?? "", r.day, c, r[c]]);
      }
      if (lines.length) yield csvText(lines);
      after = page.next;
    } while (after);
  }
  yield* notesCsvRows(userId, q, true);
}

async function* notesCsvRows(userId: string, q: ExportQuery, long: boolean) {
  const notes = await getNotesForExport({ userId, from: q.from, to: q.to });
  if (long) {
    const lines: unknown[][] = [];
    for (const n of notes) {
      if (n.text) lines.push(["notes", "", n.day, "text", n.text]);
      if (n.tags.length) lines.push(["notes", "", n.day, "tags", n.tags.join(";")]);
    }
    if (lines.length) yield csvText(lines);
    return;
  }
  yield csvText([["day", "text", "tags"], ...notes.map((n) => [n.day, n.text, n.tags.join(";")])]);
}

async function* documentsJsonArray(userId: string, collection: CollectionId, q: ExportQuery) {
  if (isSeriesCollection(collection)) {
    yield* seriesJsonArray(userId, collection, q);
    return;
  }
  yield "[";
  let first = true;
  let after: PageCursor = null;
  do {
    const page = await readCollectionDocuments({ userId, collection, from: q.from, to: q.to, after, limit: PAGE });
    if (page.items.length) {
      yield (first ? "" : ",") + page.items.map((d) => JSON.stringify(d)).join(",");
      first = false;
    }
    after = page.next;
  } while (after);
  yield "]";
}

async function* collectionJson(userId: string, collection: CollectionId, q: ExportQuery) {
  const head = { collection, from: q.from ?? null, to: q.to ?? null, exported_at: clock.date().toISOString() };
  yield JSON.stringify(head).slice(0, -1) + ',"documents":';
  yield* documentsJsonArray(userId, collection, q);
  yield "}";
}

async function* allJson(userId: string, q: ExportQuery) {
  const head = {
    format: "ringside-export-v1",
    from: q.from ?? null,
    to: q.to ?? null,
    exported_at: clock.date().toISOString(),
    personal_info: await getPersonalInfoRaw(userId),
    notes: await getNotesForExport({ userId, from: q.from, to: q.to }),
    tags: await getTagsForExport(userId),
    cycle: await getCycleForExport({ userId, from: q.from, to: q.to }),
  };
  yield JSON.stringify(head).slice(0, -1) + ',"collections":{';
  for (const [i, collection] of COLLECTION_IDS.entries()) {
    yield `${i ? "," : ""}${JSON.stringify(collection)}:`;
    yield* documentsJsonArray(userId, collection, q);
  }
  yield "}}";
}

/**
 * The explained signals of every day (derived from the documents, never needed by an import):
 * the range asked for, else the person's first to last day with data.
 */
async function* signalsExport(userId: string, q: ExportQuery, csv: boolean) {
  const overview = await getMetricsOverview(userId);
  const from = q.from ?? overview.firstDay;
  const to = q.to ?? overview.lastDay;
  if (csv) yield csvText([["day", "kind", "level", "value", "unit", "status"]]);
  else {
    const head = {
      format: "ringside-signals-v1",
      derived: true,
      note: "Derived from the documents when exported (docs/signals.md); an import does not read this file.",
      from,
      to,
      exported_at: clock.date().toISOString(),
    };
    yield JSON.stringify(head).slice(0, -1) + ',"days":[';
  }
  let first = true;
  if (from && to && from <= to) {
    for await (const days of signalDaysInChunks(userId, from, to)) {
      if (csv)
        yield csvText(
          days.flatMap((d) => d.signals.map((s) => ({ day: d.day, kind: s.kind, ...signalCsvFields(s) }))),
          { columns: ["day", "kind", "level", "value", "unit", "status"] },
        );
      else if (days.length) {
        yield (first ? "" : ",") + days.map((d) => JSON.stringify(d)).join(",");
        first = false;
      }
    }
  }
  if (!csv) yield "]}";
}

// GET /api/export?collection&format&from&to – a download of one collection (or the notes, the
// derived signals, or everything) as CSV (typed columns as stored) or JSON (documents as the ring service sent them)
export const GET = withUser(async ({ user, searchParams }) => {
  const q = parseQuery(searchParams, exportQuerySchema);
  const range = q.from || q.to ? `-${q.from ?? "start"}_${q.to ?? "end"}` : "";
  const filename = `ringside-${q.collection}${range}.${q.format}`;
  const csv = q.format === "csv";
  const type = csv ? "text/csv" : "application/json";
  if (q.collection === "all") return download(csv ? allCsv(user.id, q) : allJson(user.id, q), filename, type);
  if (q.collection === "signals") return download(signalsExport(user.id, q, csv), filename, type);
  if (q.collection === "notes") {
    if (csv) return download(notesCsvRows(user.id, q, false), filename, type);
    const body = { notes: await getNotesForExport({ userId: user.id, from: q.from, to: q.to }), tags: await getTagsForExport(user.id) };
    return download(
      (function* () {
        yield JSON.stringify(body);
      })(),
      filename,
      type,
    );
  }
  const collection = q.collection;
  if (csv) return download(isSeriesCollection(collection) ? seriesCsv(user.id, collection, q) : collectionCsv(user.id, collection, q), filename, type);
  return download(collectionJson(user.id, collection, q), filename, type);
});
