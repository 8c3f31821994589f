import "server-only";
import type { z } from "zod";
import { RING_DOCUMENT_SCHEMAS } from "@/lib/ring/schemas";
import { getResource, isSeriesCollection, type SyncCollection } from "@/lib/resources";
import { ImportRefusal } from "@/lib/import/refusal";
import { QUOTED_EMPTY } from "@/lib/import/csv";

// One row of a CSV file of the account export → the document the API serves for it. The
// columns carry the API's field names (any order, any casing); each cell is read as the
// registry's zod schema types that field: text as it is, numbers and booleans parsed, nested
// objects and series from their JSON text, and a field whose type is not known (the cycle's
// phases: `unknown` in its schema) as what it looks like — a number, true or false, JSON of an
// object or a list, else the text. An empty cell is null (a quoted empty cell `""` is
// an empty text). Columns the schema does not
// name are left out (and counted). The document then goes through the same validation and
// mapping as a synced one (lib/sync/map.ts); what is checked here is only what decides where
// the row goes (its day) and what cannot be read at all (a cell that is not JSON).

type CellKind = "string" | "number" | "boolean" | "json" | "any";

/** What a field's schema reads: through optional, nullable, defaults and pipes to its base type. */
function kindOf(schema: z.ZodType): CellKind {
  let def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  for (let depth = 0; depth < 10; depth++) {
    const inner = (def.innerType ?? (def.type === "pipe" ? def.in : undefined)) as z.ZodType | undefined;
    if (!inner) break;
    def = (inner as unknown as { _zod: { def: typeof def } })._zod.def;
  }
  switch (def.type) {
    case "string":
    case "enum":
    case "literal":
      return "string";
    case "number":
    case "int":
      return "number";
    case "boolean":
      return "boolean";
    case "unknown":
      return "any";
    default:
      return "json";
  }
}

const fieldKindCache = new Map<SyncCollection, Map<string, CellKind>>();

/** The fields a collection's documents have (its schema's), each with how its cell is read. */
export function fieldKinds(collection: SyncCollection): Map<string, CellKind> {
  let kinds = fieldKindCache.get(collection);
  if (!kinds) {
    const shape = (RING_DOCUMENT_SCHEMAS[collection] as unknown as { shape: Record<string, z.ZodType> }).shape;
    kinds = new Map(Object.entries(shape).map(([name, s]) => [name, kindOf(s)]));
    fieldKindCache.set(collection, kinds);
  }
  return kinds;
}

/** A header cell as matched against field names: trimmed, lower case, spaces and dashes as underscores. */
export function normalizeColumn(name: string): string {
  return name
    .trim()
    .replace(/^\ufeff/, "")
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A cell of a field of no known type: a number, true or false, an object or list (JSON), else its text. */
function asItLooks(text: string): unknown {
  if (NUMBER.test(text)) return Number(text);
  const lower = text.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  if (/^[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
const TIMESTAMP_START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The earliest day a ring document can be of (the first rings synced in 2013). */
export const FIRST_PLAUSIBLE_DAY = "2013-01-01";
const DAY_MS = 86_400_000;

/** The last plausible day: two days after `now` (local days run ahead of UTC by up to 14 hours). */
export function lastPlausibleDay(now: number): string {
  return new Date(now + 2 * DAY_MS).toISOString().slice(0, 10);
}

/** Whether a text is a real calendar day YYYY-MM-DD within [FIRST_PLAUSIBLE_DAY, lastPlausibleDay(now)]. */
export function isPlausibleDay(day: string, now: number): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const t = Date.parse(`${day}T00:00:00Z`);
  if (!Number.isFinite(t) || new Date(t).toISOString().slice(0, 10) !== day) return false;
  return day >= FIRST_PLAUSIBLE_DAY && day <= lastPlausibleDay(now);
}

export type RowReader = {
  collection: SyncCollection;
  /** header columns the schema does not name (left out of the documents) */
  unknownColumns: string[];
  /** the document of one row; throws ImportRefusal naming the file, row and column when it cannot be read */
  read(cells: readonly string[], row: number): Record<string, unknown>;
};

/**
 * A reader of one file's rows into documents of `collection`. Refuses a header without the
 * column that places a row in time (`day`, or `timestamp` for a time series).
 */
export function rowReader(collection: SyncCollection, header: readonly string[], file: string, now: number): RowReader {
  const kinds = fieldKinds(collection);
  const columns: Array<{ index: number; name: string; kind: CellKind }> = [];
  const unknownColumns: string[] = [];
  const seen = new Set<string>();
  header.forEach((raw, index) => {
    const name = normalizeColumn(raw);
    const kind = kinds.get(name);
    if (kind && !seen.has(name)) {
      seen.add(name);
      columns.push({ index, name, kind });
    } else if (raw.trim() !== "") unknownColumns.push(raw.trim());
  });
  const series = isSeriesCollection(collection);
  const placeField = series ? "timestamp" : getResource(collection).dayField;
  if (placeField && !seen.has(placeField))
    throw new ImportRefusal(`${file}: the header has no \`${placeField}\` column (it holds ${getResource(collection).label.toLowerCase()}).`);
  const last = lastPlausibleDay(now);
  // rows come in time order: a day checked once is not checked again for its next rows
  let lastOkDay: string | null = null;

  return {
    collection,
    unknownColumns,
    read(cells, row) {
      const doc: Record<string, unknown> = {};
      for (const c of columns) {
        const cell = cells[c.index] ?? "";
        if (cell === QUOTED_EMPTY) {
          doc[c.name] = c.kind === "string" ? "" : null;
          continue;
        }
        const text = c.kind === "string" ? cell : cell.trim();
        if (text === "") {
          doc[c.name] = null;
          continue;
        }
        if (c.kind === "string") doc[c.name] = cell;
        else if (c.kind === "number") doc[c.name] = NUMBER.test(text) ? Number(text) : text;
        else if (c.kind === "any") doc[c.name] = asItLooks(text);
        else if (c.kind === "boolean") {
          const lower = text.toLowerCase();
          doc[c.name] = lower === "true" || lower === "1" ? true : lower === "false" || lower === "0" ? false : text;
        } else {
          try {
            doc[c.name] = JSON.parse(text);
          } catch {
            throw new ImportRefusal(`${file}, row ${row}, column \`${c.name}\`: the cell is not valid JSON.`);
          }
        }
      }
      if (placeField) {
        const value = doc[placeField];
        if (series) {
          // the day a sample is on, as written (the 2 days' slack covers any offset); a date-time
          // that does not parse is then set aside by the sync's own mapping, as a sync does
          const day = typeof value === "string" && TIMESTAMP_START.test(value) ? value.slice(0, 10) : null;
          if (day !== null && day === lastOkDay) return doc;
          if (!day || !isPlausibleDay(day, now))
            throw new ImportRefusal(
              `${file}, row ${row}: the timestamp ${JSON.stringify(value)} is not a date-time between ${FIRST_PLAUSIBLE_DAY} and ${last}.`,
            );
          lastOkDay = day;
        } else if (typeof value !== "string" || !isPlausibleDay(value, now)) {
          throw new ImportRefusal(`${file}, row ${row}: the day ${JSON.stringify(value)} is not a day between ${FIRST_PLAUSIBLE_DAY} and ${last}.`);
        }
      }
      return doc;
    },
  };
}

/**
 * The collection a file holds, told by its header when its name says nothing: the collection
 * whose schema names the most of its columns, having the ones that place a row in time.
 * Null when no collection's schema names at least two thirds of them.
 */
export function collectionForHeader(header: readonly string[], candidates: readonly SyncCollection[]): SyncCollection | null {
  const names = header.map(normalizeColumn).filter((n) => n !== "");
  let best: SyncCollection | null = null;
  let bestScore = 0;
  for (const c of candidates) {
    const kinds = fieldKinds(c);
    const place = isSeriesCollection(c) ? "timestamp" : getResource(c).dayField;
    if (place && !names.includes(place)) continue;
    const known = names.filter((n) => kinds.has(n)).length;
    // share of the file's columns the schema knows, then of the schema's fields the file has
    const score = known / names.length + known / kinds.size / 100;
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return bestScore >= 2 / 3 ? best : null;
}
