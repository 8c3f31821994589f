// Request schemas of Ringside's own dashboard API (query strings and JSON bodies). Route
// handlers parse with these; anything else is a 422 in the error envelope.
import { z } from "zod";
import { COLLECTION_IDS, isMetricId, getMetric } from "@/lib/metrics/catalog";
import { diffDays, isDay } from "@/lib/metrics/days";

/** The longest range one request may ask for (about 30 years). */
export const MAX_RANGE_DAYS = 11_000;

export const daySchema = z.string().refine(isDay, { message: "must be a date YYYY-MM-DD" });
export const metricIdSchema = z.string().refine(isMetricId, { message: "unknown metric" });
export const numericMetricIdSchema = metricIdSchema.refine((id) => getMetric(id).kind !== "category", {
  message: "must be a numeric metric",
});

const rangeRefine = <T extends { from: string; to: string }>(v: T, ctx: z.RefinementCtx) => {
  if (v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
  else if (diffDays(v.from, v.to) + 1 > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: "range too long" });
};

export const dayRangeQuerySchema = z.object({ from: daySchema, to: daySchema }).superRefine(rangeRefine);

// GET /api/metrics/:metric
export const getMetricSeriesParamsSchema = z.object({ metric: metricIdSchema });
export const getMetricSeriesQuerySchema = dayRangeQuerySchema;
export type GetMetricSeriesQuery = z.infer<typeof getMetricSeriesQuerySchema>;

// GET /api/days?metric&from&to (calendar)
export const getCalendarQuerySchema = z
  .object({ metric: metricIdSchema, from: daySchema, to: daySchema })
  .superRefine(rangeRefine);

// GET /api/days/:day
export const getDayParamsSchema = z.object({ day: daySchema });

// GET /api/days/today
export const getTodayQuerySchema = z.object({ day: daySchema.optional() });

// GET /api/correlations?x&y&lag&from&to
const lagSchema = z.enum(["0", "1"]).default("0").transform((v) => (v === "1" ? 1 : 0) as 0 | 1);
export const getCorrelationQuerySchema = z
  .object({
    x: numericMetricIdSchema,
    y: numericMetricIdSchema,
    lag: lagSchema,
    from: daySchema,
    to: daySchema,
  })
  .superRefine(rangeRefine);
export type GetCorrelationQuery = z.infer<typeof getCorrelationQuerySchema>;

// GET /api/correlations/strongest?from&to&limit
export const getStrongestQuerySchema = z
  .object({ from: daySchema, to: daySchema, limit: z.coerce.number().int().min(1).max(100).default(15) })
  .superRefine(rangeRefine);

// Notes and tags
export const TAG_NAME_MAX = 40;
export const NOTE_TEXT_MAX = 2_000;
export const tagNameSchema = z
  .string()
  .transform((s) => s.trim().replace(/\s+/g, " ").toLowerCase())
  .pipe(z.string().min(1, "a tag needs a name").max(TAG_NAME_MAX, `at most ${TAG_NAME_MAX} characters`));
export const tagColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour like #3b82f6")
  .nullable();

// GET /api/notes?from&to
export const listNotesQuerySchema = dayRangeQuerySchema;
// PUT /api/notes/:day
export const putDayNoteBodySchema = z.object({
  text: z.string().max(NOTE_TEXT_MAX, `at most ${NOTE_TEXT_MAX} characters`).default(""),
  tags: z.array(tagNameSchema).max(20, "at most 20 tags on a day").default([]),
});
export type PutDayNoteBody = z.infer<typeof putDayNoteBodySchema>;

// POST /api/tags
export const createTagBodySchema = z.object({ name: tagNameSchema, color: tagColorSchema.optional() });
// PATCH /api/tags/:id
export const tagIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
export const updateTagBodySchema = z
  .object({ name: tagNameSchema.optional(), color: tagColorSchema.optional() })
  .refine((v) => v.name !== undefined || v.color !== undefined, { message: "nothing to change" });
// GET /api/tags/:id/comparison?metric&lag&from&to
export const tagComparisonQuerySchema = z
  .object({
    metric: numericMetricIdSchema,
    lag: lagSchema,
    from: daySchema.optional(),
    to: daySchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to) rangeRefine({ from: v.from, to: v.to }, ctx);
  });

// GET /api/export?collection&format&from&to
export const EXPORT_COLLECTIONS = [...COLLECTION_IDS, "notes", "all"] as const;
export const exportQuerySchema = z
  .object({
    collection: z.enum(EXPORT_COLLECTIONS),
    format: z.enum(["csv", "json"]).default("csv"),
    from: daySchema.optional(),
    to: daySchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to) rangeRefine({ from: v.from, to: v.to }, ctx);
  });
export type ExportQuery = z.infer<typeof exportQuerySchema>;

// PATCH /api/me/preferences
export const preferencesSchema = z.object({
  units: z.enum(["metric", "imperial"]),
  theme: z.enum(["light", "dark", "system"]),
});
export type Preferences = z.infer<typeof preferencesSchema>;
export const updatePreferencesBodySchema = preferencesSchema.partial().refine((v) => v.units || v.theme, {
  message: "nothing to change",
});

// DELETE /api/data
export const deleteDataBodySchema = z.object({ confirm: z.literal("DELETE", { message: 'type "DELETE" to confirm' }) });
