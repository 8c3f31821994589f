// Request schemas of Ringside's own dashboard API (query strings and JSON bodies). Route
// handlers parse with these; anything else is a 422 in the error envelope.
import { clock } from "@/lib/clock";
import { z } from "zod";
import { DATA_KINDS, isDataKind } from "@/lib/auth/api-scopes";
import { COLLECTION_IDS, findMetric, isMetricId } from "@/lib/metrics/catalog";
import { addDays, diffDays, isDay, isDayInWindow, maxDay, minDay, utcDay, MAX_DAY, MAX_RANGE_DAYS, MIN_DAY } from "@/lib/days";
import { SIGNALS_MAX_DAYS, SLEEP_NEED_LIMITS } from "@/lib/signals/catalog";
import { isRingTagId } from "@/lib/metrics/ring-tags";
import { THEMES, UNITS, type Preferences } from "@/lib/preferences";

/**
 * Days and day ranges, one declaration for every route and server action that takes days.
 * A day must be a real date inside a sane window; a range may give both ends, one, or none:
 * a missing end takes the route's default, and the span never exceeds MAX_RANGE_DAYS, whichever
 * ends are given (both given and too long: 422; a default is chosen within the cap).
 */
export { MIN_DAY, MAX_DAY, MAX_RANGE_DAYS };
/** The range a route gives when neither end is asked for. */
export const DEFAULT_RANGE_DAYS = 30;

export const daySchema = z
  .string()
  .refine(isDay, { message: "must be a date YYYY-MM-DD" })
  .refine((d) => !isDay(d) || isDayInWindow(d), { message: `must be between ${MIN_DAY} and ${MAX_DAY}` });
export const metricIdSchema = z.string().refine(isMetricId, { message: "unknown metric" });
export const numericMetricIdSchema = metricIdSchema.refine((id) => findMetric(id)?.kind !== "category", {
  message: "must be a numeric metric",
});

export type DayRange = { from: string; to: string };
export type PartialDayRange = { from?: string; to?: string };

const rangeRefine = (v: PartialDayRange, ctx: z.RefinementCtx) => {
  if (!v.from || !v.to || !isDay(v.from) || !isDay(v.to)) return;
  if (v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
  else if (diffDays(v.from, v.to) + 1 > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: `at most ${MAX_RANGE_DAYS} days` });
};

/** Both ends of a range, ordered and within the cap. */
export const dayRangeSchema = z.object({ from: daySchema, to: daySchema }).superRefine((v, ctx) => rangeRefine(v, ctx));

/** A query with an optional `from`/`to` (plus `shape`): each end in the window, both → ordered and within the cap. */
export function withDayRange<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, from: daySchema.optional(), to: daySchema.optional() }).superRefine((v, ctx) => rangeRefine(v as PartialDayRange, ctx));
}

/**
 * The range to serve: the ends given, a missing end from `defaults`, chosen so the span stays
 * within MAX_RANGE_DAYS (and never before the other end). Pure.
 */
export function resolveDayRange(q: PartialDayRange, defaults: DayRange): DayRange {
  const span = MAX_RANGE_DAYS - 1;
  if (q.from && q.to) return { from: q.from, to: q.to };
  if (q.from) return { from: q.from, to: maxDay(q.from, minDay(defaults.to, addDays(q.from, span))) };
  if (q.to) return { from: minDay(q.to, maxDay(defaults.from, addDays(q.to, -span))), to: q.to };
  const to = defaults.to;
  return { from: minDay(to, maxDay(defaults.from, addDays(to, -span))), to };
}

/** The default of routes without data-dependent defaults: the last DEFAULT_RANGE_DAYS days up to today (UTC). */
export function recentDays(today = clock.date().toISOString().slice(0, 10)): DayRange {
  return { from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), to: today };
}

/** withDayRange, resolved against recentDays(): the parsed query always has `from` and `to`. */
export function dayRangeQuery<S extends z.ZodRawShape>(shape: S) {
  return withDayRange(shape).transform((v) => ({ ...v, ...resolveDayRange(v as PartialDayRange, recentDays()) }));
}

// GET /api/metrics/:metric
export const getMetricSeriesParamsSchema = z.object({ metric: metricIdSchema });
export const getMetricSeriesQuerySchema = dayRangeQuery({});

// GET /api/days?metric&from&to (calendar)
export const getCalendarQuerySchema = dayRangeQuery({ metric: metricIdSchema });

// GET /api/v1/days?metrics&from&to (a table: one row per day, one column per metric)
export const DAY_TABLE_METRICS_MAX = 20;
export const listDaysQuerySchema = dayRangeQuery({
  metrics: z
    .string()
    .max(2_000)
    .transform((v) => [
      ...new Set(
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(metricIdSchema).min(1, "name at least one metric").max(DAY_TABLE_METRICS_MAX, `at most ${DAY_TABLE_METRICS_MAX} metrics`))
    .optional()
    .describe(`metric ids, comma-separated (at most ${DAY_TABLE_METRICS_MAX})`),
});

// GET /api/days/:day
export const getDayParamsSchema = z.object({ day: daySchema });

// GET /api/days/today
export const getTodayQuerySchema = z.object({ day: daySchema.optional() });

// GET /api/correlations?x&y&lag&from&to
const lagSchema = z
  .enum(["0", "1"])
  .default("0")
  .transform((v) => (v === "1" ? 1 : 0) as 0 | 1);
export const getCorrelationQuerySchema = dayRangeQuery({ x: numericMetricIdSchema, y: numericMetricIdSchema, lag: lagSchema });

// GET /api/correlations/strongest?from&to&limit
export const getStrongestQuerySchema = dayRangeQuery({ limit: z.coerce.number().int().min(1).max(100).default(15) });

/**
 * Text a person types that is stored: no NUL character (PostgreSQL's text cannot hold one, and
 * no note or name needs it), refused with the field's error like any other mistake.
 */
export const storedText = () => z.string().refine((s) => !s.includes("\u0000"), "must not contain a NUL character");

// Notes and tags
export const TAG_NAME_MAX = 40;
export const NOTE_TEXT_MAX = 2_000;
export const NOTE_TAGS_MAX = 20;
export const tagNameSchema = z
  .string()
  .transform((s) => s.trim().replace(/\s+/g, " ").toLowerCase())
  .pipe(storedText().min(1, "a tag needs a name").max(TAG_NAME_MAX, `at most ${TAG_NAME_MAX} characters`));
export const tagColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #3b82f6")
  .nullable();

// GET /api/notes?from&to
export const listNotesQuerySchema = dayRangeQuery({});
// PUT /api/notes/:day
export const putDayNoteBodySchema = z.object({
  text: storedText().max(NOTE_TEXT_MAX, `at most ${NOTE_TEXT_MAX} characters`).default(""),
  tags: z.array(tagNameSchema).max(NOTE_TAGS_MAX, `at most ${NOTE_TAGS_MAX} tags on a day`).default([]),
});

// POST /api/tags
export const createTagBodySchema = z.object({ name: tagNameSchema, color: tagColorSchema.optional() });
// PATCH /api/tags/:id
export const tagIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
/** A tag in a URL: the person's own (its number) or one of the ring app's ("ring:<code>", read-only). */
export const tagRefParamsSchema = z.object({
  id: z.union([
    z
      .string()
      .refine(isRingTagId, { message: "not a tag of the ring" })
      .transform((id) => ({ kind: "ring" as const, id })),
    z.coerce
      .number()
      .int()
      .positive()
      .max(2_147_483_647)
      .transform((id) => ({ kind: "own" as const, id })),
  ]),
});
export const updateTagBodySchema = z
  .object({ name: tagNameSchema.optional(), color: tagColorSchema.optional() })
  .refine((v) => v.name !== undefined || v.color !== undefined, { message: "nothing to change" });
// GET /api/tags/:id/comparison?metric&lag&from&to
// (a missing end defaults to the person's first/last day with data: resolveDayRange in the route)
export const tagComparisonQuerySchema = withDayRange({ metric: numericMetricIdSchema, lag: lagSchema });

// GET /api/workouts?from&to&activity&intensity (a missing end: the person's first/last day with data)
export const listWorkoutsQuerySchema = withDayRange({
  activity: z.string().min(1).max(64).optional(),
  intensity: z.string().min(1).max(32).optional(),
});
// GET /api/workouts/:id
export const workoutIdParamsSchema = z.object({ id: z.string().min(1).max(256) });

// GET /api/export?collection&format&from&to
export const EXPORT_COLLECTIONS = [...COLLECTION_IDS, "notes", "all", "signals"] as const;
// (a missing end means no bound there: the export pages through what is stored, whatever the range)
export const exportQuerySchema = withDayRange({ collection: z.enum(EXPORT_COLLECTIONS), format: z.enum(["csv", "json"]).default("csv") });
export type ExportQuery = z.infer<typeof exportQuerySchema>;

// GET /api/signals and /api/v1/signals?from&to: a missing end is 29 days from the other (both
// missing: the last 30 days up to today, UTC); at most SIGNALS_MAX_DAYS days
export const signalsQuerySchema = withDayRange({})
  .superRefine((v, ctx) => {
    if (v.from && v.to && isDay(v.from) && isDay(v.to) && diffDays(v.from, v.to) + 1 > SIGNALS_MAX_DAYS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `at most ${SIGNALS_MAX_DAYS} days of signals at a time` });
    }
  })
  .transform((v) => {
    const span = DEFAULT_RANGE_DAYS - 1;
    if (v.from && v.to) return { from: v.from, to: v.to };
    if (v.from) return { from: v.from, to: addDays(v.from, span) };
    const to = v.to ?? utcDay(clock.now());
    return { from: addDays(to, -span), to };
  });

// GET/PATCH /api/signals/settings: the sleep need (minutes, null: estimated) and the free days (ISO weekdays)
export const signalSettingsSchema = z.object({
  sleepNeedMinutes: z
    .number()
    .int("whole minutes")
    .min(SLEEP_NEED_LIMITS.min, `at least ${SLEEP_NEED_LIMITS.min / 60} hours`)
    .max(SLEEP_NEED_LIMITS.max, `at most ${SLEEP_NEED_LIMITS.max / 60} hours`)
    .nullable(),
  freeDays: z
    .array(z.number().int().min(1, "weekdays are 1 (Monday) to 7 (Sunday)").max(7, "weekdays are 1 (Monday) to 7 (Sunday)"))
    .max(7)
    .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
});
export type SignalSettings = z.infer<typeof signalSettingsSchema>;
export const updateSignalSettingsBodySchema = signalSettingsSchema.partial().refine((v) => v.sleepNeedMinutes !== undefined || v.freeDays !== undefined, {
  message: "nothing to change",
});

// PATCH /api/me/preferences
export const preferencesSchema = z.object({ units: z.enum(UNITS), theme: z.enum(THEMES) }) satisfies z.ZodType<Preferences>;
export type { Preferences };
export const updatePreferencesBodySchema = preferencesSchema.partial().refine((v) => v.units || v.theme, {
  message: "nothing to change",
});

// DELETE /api/data
export const deleteDataBodySchema = z.object({ confirm: z.literal("DELETE", { message: 'type "DELETE" to confirm' }) });

// Settings → API (server actions): a personal access token's name and data kinds
export const API_TOKEN_NAME_MAX = 60;
export const API_TOKENS_PER_PERSON = 10;
/** How long a new token lasts: days, or "never" (the form offers these; 90 days when not given). */
export const API_TOKEN_EXPIRIES = ["30", "90", "365", "never"] as const;
export const API_TOKEN_DEFAULT_EXPIRY = "90";
/** Data kinds as a form sends them: known kinds only, bounded. */
const dataKindList = z.array(z.string().refine(isDataKind, { message: "unknown data kind" })).max(DATA_KINDS.length);
const inKindOrder = (ks: readonly string[]) => DATA_KINDS.filter((k) => ks.includes(k));
const CHOOSE_A_KIND = "choose at least one kind of data";
/** The data kinds a token is given: known kinds, at least one, once each in DATA_KINDS order. */
export const dataKindsSchema = dataKindList.min(1, CHOOSE_A_KIND).transform(inKindOrder);
export const createApiTokenInputSchema = z.object({
  name: z
    .string()
    .transform((v) => v.trim().replace(/\s+/g, " "))
    .pipe(storedText().min(1, "give the token a name").max(API_TOKEN_NAME_MAX, `at most ${API_TOKEN_NAME_MAX} characters`)),
  kinds: dataKindsSchema,
  expires: z
    .enum(API_TOKEN_EXPIRIES, { message: "choose 30, 90 or 365 days, or never" })
    .default(API_TOKEN_DEFAULT_EXPIRY)
    .transform((v) => (v === "never" ? null : Number(v))),
});
/** Settings → Home automation: "Publish to Home Assistant" and the data kinds it publishes (chosen as a token's; at least one while on). */
export const homeAssistantSettingsInputSchema = z
  .object({ enabled: z.boolean(), kinds: dataKindList.transform(inKindOrder) })
  .refine((v) => !v.enabled || v.kinds.length > 0, { message: CHOOSE_A_KIND, path: ["kinds"] });
/** The id of one of the person's rows named by a settings form (a token, rule, channel, invite, member). */
export const rowIdSchema = z.string().min(1).max(64);
