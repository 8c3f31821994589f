// The report's query (issue 45), one schema for the page (/report), the PDF (/api/report), the
// share links and the read API (/api/v1/report): the period (the last 30 or 90 days, a calendar
// month, or any range of at most a year), the comparison and the sections. Anything else is a
// 422 in the error envelope, saying which parameter is wrong and why.
import { z } from "zod";
import { clock } from "@/lib/clock";
import { addDays, diffDays, isDay, utcDay } from "@/lib/days";
import {
  DEFAULT_REPORT_SECTIONS,
  REPORT_COMPARE_MODES,
  REPORT_MAX_DAYS,
  REPORT_PERIODS,
  REPORT_SECTIONS,
  type ReportQuery,
  type ReportSection,
} from "@/lib/metrics/report";
import { daySchema } from "@/lib/schemas/requests";

/** The days of a "last N days" period. */
const LAST_DAYS = { "30d": 30, "90d": 90 } as const;

const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month YYYY-MM")
  .refine((m) => isDay(`${m}-01`), { message: "must be a month between 2000-01 and 2099-12" });

/** "summary,charts" → the sections in REPORT_SECTIONS order; an unknown name is an error that names it. */
const sectionsSchema = z
  .string()
  .transform((s, ctx) => {
    const names = s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean);
    const unknown = names.filter((n) => !(REPORT_SECTIONS as readonly string[]).includes(n));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `unknown section${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (known: ${REPORT_SECTIONS.join(", ")})` });
      return z.NEVER;
    }
    if (names.length === 0) {
      ctx.addIssue({ code: "custom", message: `choose at least one section (${REPORT_SECTIONS.join(", ")})` });
      return z.NEVER;
    }
    return REPORT_SECTIONS.filter((x) => names.includes(x));
  })
  .optional();

/** The last day of a month "YYYY-MM" (day 0 of the next month, in UTC: no time zone involved). */
function lastDayOfMonth(month: string): string {
  return utcDay(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));
}

/** The query's parameters as they come (before the period is resolved). */
const reportQueryFields = z.object({
  from: daySchema.optional(),
  to: daySchema.optional(),
  period: z.enum(REPORT_PERIODS, { message: `must be one of ${REPORT_PERIODS.join(", ")}` }).optional(),
  month: monthSchema.optional(),
  compare: z.enum(REPORT_COMPARE_MODES, { message: `must be one of ${REPORT_COMPARE_MODES.join(", ")}` }).default("none"),
  sections: sectionsSchema,
});

/** The parameters → the query: the period resolved and checked (ordered, at most REPORT_MAX_DAYS days), the sections defaulted. */
function resolveQuery(v: z.output<typeof reportQueryFields>, ctx: z.RefinementCtx): ReportQuery {
  const range = resolvePeriod(v, ctx);
  if (isDay(range.from) && isDay(range.to)) {
    if (range.to < range.from) ctx.addIssue({ code: "custom", path: ["to"], message: "to must not be before from" });
    else if (diffDays(range.from, range.to) + 1 > REPORT_MAX_DAYS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `a report covers at most ${REPORT_MAX_DAYS} days (a year)` });
    }
  }
  const sections: ReportSection[] = v.sections ?? [...DEFAULT_REPORT_SECTIONS];
  return { ...range, compare: v.compare, sections };
}

/**
 * A report's query string: `from` and `to` (days), or `period` (30d, 90d: the days up to `to` or
 * today, UTC; month: the calendar month `month`, YYYY-MM; custom: `from` and `to`), `compare`
 * (none, previous, year; default none) and `sections` (a comma-separated list; default every
 * section but notes and cycle). Without a period or days: the last 30 days.
 */
export const reportQuerySchema = reportQueryFields.transform(resolveQuery);

type RawQuery = { from?: string; to?: string; period?: (typeof REPORT_PERIODS)[number]; month?: string };

function resolvePeriod(v: RawQuery, ctx: z.RefinementCtx): { from: string; to: string } {
  const today = utcDay(clock.now());
  if (v.period === "month" || (v.month && !v.period)) {
    if (!v.month) {
      ctx.addIssue({ code: "custom", path: ["month"], message: "a month period needs month=YYYY-MM" });
      return { from: today, to: today };
    }
    return { from: `${v.month}-01`, to: lastDayOfMonth(v.month) };
  }
  if (v.period === "30d" || v.period === "90d") {
    const to = v.to ?? today;
    return { from: addDays(to, -(LAST_DAYS[v.period] - 1)), to };
  }
  if (v.period === "custom" && (!v.from || !v.to)) {
    ctx.addIssue({ code: "custom", path: [v.from ? "to" : "from"], message: "a custom period needs both from and to" });
    return { from: today, to: today };
  }
  if (v.from && v.to) return { from: v.from, to: v.to };
  const span = LAST_DAYS["30d"] - 1;
  if (v.from) return { from: v.from, to: addDays(v.from, span) };
  const to = v.to ?? today;
  return { from: addDays(to, -span), to };
}

/** The read API's query (GET /api/v1/report): the report's, and the form of the answer, `format` json (default) or pdf. */
export const REPORT_FORMATS = ["json", "pdf"] as const;
export const reportApiQuerySchema = reportQueryFields
  .extend({ format: z.enum(REPORT_FORMATS, { message: `must be one of ${REPORT_FORMATS.join(", ")}` }).default("json") })
  .transform(({ format, ...v }, ctx) => ({ format, query: resolveQuery(v, ctx) }));
