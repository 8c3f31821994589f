import "server-only";
import crypto from "node:crypto";
import { clock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";
import { logger } from "@/lib/log";
import { TokenBuckets } from "@/lib/limits/token-buckets";
import { processSingleton } from "@/lib/process-singleton";
import { reportLinkGateSlot, type ReportLinkGateAnswer } from "@/lib/report-link-gate";
import type { ReportQuery } from "@/lib/metrics/report";
import {
  REPORT_LINK_SECRET_RE,
  REPORT_LINK_VIEWS_PER_MINUTE,
  REPORT_LINKS_PER_PERSON,
  storedReportQuerySchema,
  type CreateReportLinkInput,
} from "@/lib/schemas/report-links";
import {
  deleteClosedReportLinks,
  findReportLinkByHash,
  insertReportLink,
  listReportLinks,
  recordReportLinkView,
  revokeReportLink,
  type ReportLinkRow,
} from "@/lib/db/queries/report-links";

// Share links of a report (the report page's "Create share link", Settings' list): one report,
// read at /r/<secret> without an account, until the link expires or its person revokes it.
//
// - The secret is 32 random bytes (256 bits, base64url): it cannot be guessed, so a plain
//   SHA-256 of it is what is stored and looked up (one indexed read), like the API tokens.
// - A link opens only its own report: the query it was created with, for its own person. The
//   secret is no session and no token; nothing else accepts it.
// - A revoked or expired link answers 410 "no longer valid"; a secret never issued here 404, a
//   malformed one 400; too many views of one link a minute 429. None of them says anything
//   about the person.

/** Settings' list: one link (never its secret). */
export type ReportLinkSummary = {
  id: string;
  label: string | null;
  from: string;
  to: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  views: number;
  lastViewAt: string | null;
  state: "open" | "expired" | "revoked";
};

/** What a person shares a link for, once opened: whose report, and which. */
export type OpenedReportLink = { id: string; userId: string; query: ReportQuery; expiresAt: Date };

const REPORT_LINK_GONE_MESSAGE = "This link is no longer valid.";
const UNKNOWN_MESSAGE = "There is no report at this address.";
const MALFORMED_MESSAGE = "This is not a report link.";

/** A revoked or expired link stays listed (and answers 410) this long, then it is cleared when the person makes a new one. */
const CLOSED_LINK_KEPT_MS = 90 * 86_400_000;

function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

function parseQuery(stored: string): ReportQuery | null {
  try {
    const parsed = storedReportQuerySchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function stateOf(r: ReportLinkRow, now: number): ReportLinkSummary["state"] {
  if (r.revokedAt) return "revoked";
  return r.expiresAt.getTime() <= now ? "expired" : "open";
}

function summary(r: ReportLinkRow, now: number): ReportLinkSummary {
  const q = parseQuery(r.query);
  return {
    id: r.id,
    label: r.label,
    from: q?.from ?? "",
    to: q?.to ?? "",
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    views: r.views,
    lastViewAt: r.lastViewAt?.toISOString() ?? null,
    state: stateOf(r, now),
  };
}

/** The address of a link, on this instance. */
export function reportLinkUrl(origin: string, secret: string): string {
  return `${origin}/r/${secret}`;
}

/** Creates a link for the report of `input.query`; the secret is in the answer and nowhere else. */
export async function createReportLink(userId: string, input: CreateReportLinkInput): Promise<{ secret: string; summary: ReportLinkSummary }> {
  const secret = crypto.randomBytes(32).toString("base64url");
  const now = clock.now();
  await deleteClosedReportLinks(userId, new Date(now - CLOSED_LINK_KEPT_MS));
  const row = await insertReportLink({
    userId,
    secretHash: hashSecret(secret),
    label: input.label,
    query: JSON.stringify(input.query),
    expiresAt: new Date(now + input.expiresDays * 86_400_000),
    max: REPORT_LINKS_PER_PERSON,
    now: new Date(now),
  });
  if (!row) throw new AppError("conflict", `You have ${REPORT_LINKS_PER_PERSON} share links: remove old ones first.`);
  logger.info({ userId, reportLinkId: row.id, days: input.expiresDays }, "report link created");
  return { secret, summary: summary(row, now) };
}

export async function listReportLinkSummaries(userId: string): Promise<ReportLinkSummary[]> {
  const now = clock.now();
  return (await listReportLinks(userId)).map((r) => summary(r, now));
}

/** Revokes one of the person's links (404 when it is not theirs or is revoked already). */
export async function revokeReportLinkOf(userId: string, id: string): Promise<void> {
  if (!(await revokeReportLink(userId, id, clock.date()))) throw new AppError("not_found", "No such share link.");
  viewLimiter().drop(id);
  logger.info({ userId, reportLinkId: id }, "report link revoked");
}

function viewLimiter(): TokenBuckets {
  return processSingleton("reportLinkViewLimiter", () => new TokenBuckets(REPORT_LINK_VIEWS_PER_MINUTE));
}

/**
 * Opens a link: the link's person and report query, or an AppError — bad_request (not a
 * secret's form), not_found (never issued), gone (revoked or expired), rate_limited (too many
 * views of this link; `details.retryAfterS`). `view` counts a view (a page or a PDF) and takes
 * it from the link's allowance; without it the link is only read (the page after the gate).
 */
export async function openReportLink(secret: string, opts: { view: boolean }): Promise<OpenedReportLink> {
  if (!REPORT_LINK_SECRET_RE.test(secret)) throw new AppError("bad_request", MALFORMED_MESSAGE);
  const row = await findReportLinkByHash(hashSecret(secret));
  if (!row) throw new AppError("not_found", UNKNOWN_MESSAGE);
  const now = clock.date();
  const query = parseQuery(row.query);
  if (stateOf(row, now.getTime()) !== "open" || !query) throw new AppError("gone", REPORT_LINK_GONE_MESSAGE);
  if (opts.view) {
    const take = viewLimiter().take(row.id);
    if (!take.ok) throw new AppError("rate_limited", "This link was opened too often; try again in a minute.", { retryAfterS: take.retryAfterS });
    if (!(await recordReportLinkView(row.id, now))) throw new AppError("gone", REPORT_LINK_GONE_MESSAGE);
  }
  return { id: row.id, userId: row.userId, query, expiresAt: row.expiresAt };
}

/** The gate proxy.ts asks before a link page is drawn (a page cannot answer 410 or 429 itself). */
export async function reportLinkGate(secret: string): Promise<ReportLinkGateAnswer> {
  try {
    await openReportLink(secret, { view: true });
    return { open: true };
  } catch (err) {
    if (err instanceof AppError) {
      const retry = (err.details as { retryAfterS?: number } | undefined)?.retryAfterS;
      return { open: false, status: err.status, message: err.message, ...(retry ? { retryAfterS: retry } : {}) };
    }
    throw err;
  }
}

/** Installs the gate for proxy.ts (instrumentation.ts, at start). */
export function installReportLinkGate(): void {
  reportLinkGateSlot().set(reportLinkGate);
}
