import "server-only";
import type { z } from "zod";

// A quick acceptor compiled from a zod schema: a plain function that says true only for a value
// the schema accepts unchanged, for the schemas of the time series' rows (a five-year backfill
// checks some 600,000 of them; zod's safeParse copies each row and cost about 0.8 µs a row,
// three quarters of mapping a page's rows, in a profile of the bench's backfill). It is no second declaration: it is read off the schema itself, and
// it understands only a few of zod's kinds (a loose object of strings, numbers and booleans,
// optional or nullable, strings with a maximum length). A schema with anything else compiles to
// null (use zod); a value it does not accept goes to zod, which accepts or explains it. So the
// answer never differs from zod's; only the time does.

type Check = (value: unknown) => boolean;

/** The zod 4 definition of a schema: its kind and, by kind, what the acceptor reads. */
type Def = {
  type: string;
  checks?: readonly { _zod: { def: { check: string; maximum?: number } } }[];
  coerce?: boolean;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A string's checks, when they are all maximum lengths (the smallest wins); undefined when another check is there. */
function maxLength(def: Def): number | undefined {
  let max = Infinity;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check !== "max_length" || typeof d.maximum !== "number") return undefined;
    max = Math.min(max, d.maximum);
  }
  return max;
}

function compileField(schema: z.ZodType): Check | null {
  const def = defOf(schema);
  if (def.coerce) return null;
  switch (def.type) {
    case "string": {
      const max = maxLength(def);
      if (max === undefined) return null;
      return max === Infinity ? (v) => typeof v === "string" : (v) => typeof v === "string" && v.length <= max;
    }
    case "number":
      // zod 4's number refuses NaN and ±Infinity
      return (def.checks ?? []).length === 0 ? (v) => typeof v === "number" && Number.isFinite(v) : null;
    case "boolean":
      return (def.checks ?? []).length === 0 ? (v) => typeof v === "boolean" : null;
    case "optional":
    case "nullable": {
      if ((def.checks ?? []).length > 0 || !def.innerType) return null;
      const inner = compileField(def.innerType);
      if (!inner) return null;
      return def.type === "optional" ? (v) => v === undefined || inner(v) : (v) => v === null || inner(v);
    }
    default:
      return null;
  }
}

/**
 * The quick acceptor of an object schema whose unknown keys pass through (z.looseObject) and
 * whose every field is of the kinds above; null for any other schema. True means the schema
 * accepts the value and gives it back with the same fields' values; false means ask zod.
 */
export function quickCheckOf(schema: z.ZodType): Check | null {
  const def = defOf(schema);
  if (def.type !== "object" || !def.shape || (def.checks ?? []).length > 0) return null;
  if (!def.catchall || defOf(def.catchall).type !== "unknown") return null;
  const fields: [string, Check][] = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const check = compileField(field);
    if (!check) return null;
    fields.push([key, check]);
  }
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    const row = value as Record<string, unknown>;
    for (let i = 0; i < fields.length; i++) {
      const [key, check] = fields[i]!;
      if (!check(row[key])) return false;
    }
    return true;
  };
}
