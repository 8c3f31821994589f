// Report share links: what the report page's "Create share link" form sends (the report's query,
// an expiry of 1 to 90 days, an optional label), the query as a link stores it, and the form of
// a link's secret. Refusals name the field and why.
import { z } from "zod";
import { REPORT_COMPARE_MODES, REPORT_SECTIONS, type ReportQuery } from "@/lib/metrics/report";
import { reportQuerySchema } from "@/lib/schemas/report";
import { daySchema, storedText } from "@/lib/schemas/requests";

export const REPORT_LINK_EXPIRY_MIN_DAYS = 1;
export const REPORT_LINK_EXPIRY_MAX_DAYS = 90;
/** The expiry the form starts with. */
export const REPORT_LINK_DEFAULT_EXPIRY_DAYS = 14;
export const REPORT_LINK_LABEL_MAX = 80;
/** Links a person may hold (open ones, and revoked or expired ones until they are cleared). */
export const REPORT_LINKS_PER_PERSON = 50;
/** Views (page or PDF) of one link a minute, and the burst. */
export const REPORT_LINK_VIEWS_PER_MINUTE = 20;

/** The form: the report's query string (as the page has it), the expiry in days and the label. */
export const createReportLinkInputSchema = z.object({
  query: z
    .string()
    .max(2_000, "the report's address is too long")
    .transform((s) => Object.fromEntries(new URLSearchParams(s)))
    .pipe(reportQuerySchema),
  expiresDays: z.coerce
    .number({ message: "choose how many days the link lasts" })
    .int("a whole number of days")
    .min(REPORT_LINK_EXPIRY_MIN_DAYS, `at least ${REPORT_LINK_EXPIRY_MIN_DAYS} day`)
    .max(REPORT_LINK_EXPIRY_MAX_DAYS, `at most ${REPORT_LINK_EXPIRY_MAX_DAYS} days`),
  label: z
    .string()
    .default("")
    .transform((v) => v.trim().replace(/\s+/g, " "))
    .pipe(storedText().max(REPORT_LINK_LABEL_MAX, `at most ${REPORT_LINK_LABEL_MAX} characters`))
    .transform((v) => v || null),
});
export type CreateReportLinkInput = z.infer<typeof createReportLinkInputSchema>;

/** The query a link stores (JSON), read back. */
export const storedReportQuerySchema = z.object({
  from: daySchema,
  to: daySchema,
  compare: z.enum(REPORT_COMPARE_MODES),
  sections: z.array(z.enum(REPORT_SECTIONS)).min(1),
}) satisfies z.ZodType<ReportQuery>;

/** A link's secret: 32 random bytes, base64url (43 characters). */
export const REPORT_LINK_SECRET_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A page's search parameters as the report's query schema reads them: one value a name, a
 * repeated name (the chooser's section checkboxes) joined with commas.
 */
export function reportQueryInput(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(",") : v;
  return out;
}
