// Data routes: /v2/usercollection/<collection>[/{document_id}], /v2/usercollection/personal_info
// and the sandbox family /v2/sandbox/usercollection/<collection>[/{document_id}].
// Order of checks: bearer (401) → rate limit (429) → parameters (422) → scope and
// subscription (403) → window/next_token (400) → document (404).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { EmulatorContext, RequestMeta } from "./context";
import { parseDateBound, shiftDay, wallClock, type DateBound } from "./dates";
import { documentNotFound, json, problem, unauthorized, validationError, type ValidationIssue } from "./errors";
import { COLLECTIONS, DAILY_COLLECTIONS, generatePersonalInfo, type Collection, type DailyCollection, type RingDocument } from "./fixtures";
import { rateLimitHeaders } from "./rate-limit";
import { SANDBOX_DOCUMENTS, SANDBOX_FIRST_DAY, SANDBOX_LAST_DAY, SANDBOX_SLEEP_DOCUMENTS } from "./sandbox-data";
import { fingerprint, type AccessToken, type Scope } from "./store";
import { orderKey } from "./user-data";

type Family = "user" | "sandbox";

/** The scope each collection needs. */
export const COLLECTION_SCOPE: Record<Collection, Scope> = {
  daily_activity: "daily",
  daily_cardiovascular_age: "daily",
  daily_readiness: "daily",
  daily_resilience: "daily",
  daily_sleep: "daily",
  daily_spo2: "spo2Daily",
  daily_stress: "daily",
  sleep: "daily",
};

/** Fields returned whatever `fields` asks for. */
function alwaysReturned(collection: Collection): readonly string[] {
  return collection === "sleep" ? ["id", "day", "bedtime_start"] : ["id", "day", "timestamp"];
}

/**
 * How a list window applies to a collection (facts §2.4). Keys are local wall-clock times;
 * a date-only bound is local midnight.
 *  - daily_activity: the document's timestamp (04:00 local) within [start, end] — so a
 *    date-only end_date=D excludes day D, end_date=DT23:59:59 includes it.
 *  - sleep: the period's day (midnight) within [start, end) — end=D misses day D; start inclusive.
 *  - other dailies: the day (midnight) within [start, end] — end-inclusive on `day`.
 *  - sandbox: the day within [start, end) everywhere.
 */
export function windowPredicate(family: Family, collection: Collection, start: string, end: string): (doc: RingDocument) => boolean {
  const dayKey = (doc: RingDocument) => `${doc.day}T00:00:00`;
  if (family === "sandbox") return (doc) => dayKey(doc) >= start && dayKey(doc) < end;
  if (collection === "daily_activity")
    return (doc) => {
      const key = typeof doc.timestamp === "string" ? wallClock(doc.timestamp) : dayKey(doc);
      return key >= start && key <= end;
    };
  if (collection === "sleep") return (doc) => dayKey(doc) >= start && dayKey(doc) < end;
  return (doc) => dayKey(doc) >= start && dayKey(doc) <= end;
}

// ---- next_token ------------------------------------------------------------------------

type Cursor = { v: 1; f: Family; c: Collection; u: string; s: string; e: string; a: string; p: string | null };

export class CursorCodec {
  private readonly key = randomBytes(32);

  encode(cursor: Omit<Cursor, "v">): string {
    const payload = Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  decode(token: string): Cursor | null {
    const dot = token.lastIndexOf(".");
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const sig = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.sign(payload), "base64url");
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Cursor;
      return parsed.v === 1 ? parsed : null;
    } catch {
      return null;
    }
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest().subarray(0, 16).toString("base64url");
  }
}

// ---- helpers ---------------------------------------------------------------------------

function bearerOf(req: Request): { ok: true; token: string } | { ok: false; response: Response } {
  const header = req.headers.get("authorization");
  if (!header) return { ok: false, response: unauthorized("Missing access token: send Authorization: Bearer <token>.") };
  const m = /^bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) return { ok: false, response: unauthorized("Malformed Authorization header: expected Bearer <token>.", "invalid_token") };
  return { ok: true, token: m[1]! };
}

function isCollection(name: string): name is Collection {
  return (COLLECTIONS as readonly string[]).includes(name);
}

function isDaily(name: string): name is DailyCollection {
  return (DAILY_COLLECTIONS as readonly string[]).includes(name);
}

function project(docs: readonly RingDocument[], collection: Collection, fieldsParam: string | null): RingDocument[] {
  if (!fieldsParam || collection === "daily_resilience") return [...docs];
  const requested = fieldsParam
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const present = new Set<string>();
  for (const d of docs) for (const k of Object.keys(d)) present.add(k);
  const valid = requested.filter((f) => present.has(f));
  if (valid.length === 0) return [...docs];
  const keep = new Set([...alwaysReturned(collection), ...valid]);
  return docs.map((d) => Object.fromEntries(Object.entries(d).filter(([k]) => keep.has(k))) as RingDocument);
}

function sandboxDocuments(collection: Collection): readonly RingDocument[] {
  return isDaily(collection) ? SANDBOX_DOCUMENTS[collection] : SANDBOX_SLEEP_DOCUMENTS;
}

// ---- the route -------------------------------------------------------------------------

export type DataRouteDeps = { cursors: CursorCodec };

export async function handleDataRoute(
  ctx: EmulatorContext,
  deps: DataRouteDeps,
  req: Request,
  url: URL,
  meta: RequestMeta,
): Promise<Response> {
  const parts = url.pathname.split("/").filter(Boolean); // v2, [sandbox], usercollection, name, [id]
  const family: Family = parts[1] === "sandbox" ? "sandbox" : "user";
  const rest = family === "sandbox" ? parts.slice(3) : parts.slice(2);
  meta.kind = family === "sandbox" ? "sandbox" : "data";
  const [name, documentId, ...extra] = rest;
  const servable =
    name !== undefined &&
    extra.length === 0 &&
    (family === "sandbox" ? isDaily(name) || name === "sleep" : isCollection(name) || (name === "personal_info" && documentId === undefined));
  if (!servable) return json({ detail: "Not Found" }, 404);
  if (req.method !== "GET" && req.method !== "HEAD") return json({ detail: "Method Not Allowed" }, 405, { allow: "GET" });

  // 401
  const bearer = bearerOf(req);
  if (!bearer.ok) return bearer.response;
  meta.tokenFingerprint = fingerprint(bearer.token);
  let token: AccessToken | null = null;
  const check = ctx.state.checkAccessToken(bearer.token);
  if (check.ok) token = check.token;
  else if (family === "user") {
    const detail =
      check.reason === "expired"
        ? "The access token has expired."
        : check.reason === "revoked"
          ? "The access token has been revoked."
          : "The access token is invalid.";
    return unauthorized(detail, "invalid_token");
  }
  if (token) {
    meta.clientId = token.clientId;
    meta.userId = token.userId;
  }

  // 429 — sandbox calls share the caller's limits.
  const decision = ctx.limiter.check(meta.tokenFingerprint, token?.clientId ?? null, ctx.now());
  if (!decision.ok) {
    meta.rateLimitTier = decision.tier;
    return problem(429, `Rate limit exceeded (${decision.tier} limit of ${decision.limit} requests per ${decision.windowS} s).`, rateLimitHeaders(decision));
  }

  const user = token ? ctx.state.users.get(token.userId) : undefined;
  if (family === "user" && !user) return unauthorized("The access token is invalid.", "invalid_token");

  if (name === "personal_info") {
    const info = generatePersonalInfo({ seed: ctx.config.seed, userKey: user!.id, userId: user!.id, email: user!.email });
    const scopes = new Set(token!.scopes);
    const personal = scopes.has("personal");
    return json({
      id: user!.id,
      age: personal ? info.age : null,
      weight: personal ? info.weight : null,
      height: personal ? info.height : null,
      biological_sex: personal ? info.biological_sex : null,
      email: scopes.has("email") ? user!.email : null,
    });
  }
  const collection = name as Collection;

  // 422
  const q = url.searchParams;
  const issues: ValidationIssue[] = [];
  const bounds: Partial<Record<"start_date" | "end_date", DateBound>> = {};
  if (documentId === undefined) {
    for (const param of ["start_date", "end_date"] as const) {
      const raw = q.get(param);
      if (raw === null || raw === "") continue;
      const parsed = parseDateBound(raw);
      if (parsed) bounds[param] = parsed;
      else
        issues.push({
          loc: ["query", param],
          msg: "Input should be a valid datetime or date (YYYY-MM-DD or an ISO 8601 date-time)",
          type: "datetime_from_date_parsing",
          input: raw,
        });
    }
  } else if (documentId === "") {
    issues.push({ loc: ["path", "document_id"], msg: "Field required", type: "missing" });
  }
  if (issues.length > 0) return validationError(issues);

  // 403
  if (family === "user") {
    const needed = COLLECTION_SCOPE[collection];
    if (!token!.scopes.includes(needed)) return problem(403, `Missing scopes: this data requires the "${needed}" scope.`);
    if (user!.subscription === "expired") return problem(403, "The user's membership has expired, so this data is unavailable.");
  }

  const all: readonly RingDocument[] = family === "sandbox" ? sandboxDocuments(collection) : user!.docs.list(collection);

  // Single document
  if (documentId !== undefined) {
    const doc =
      family === "sandbox" ? all.find((d) => d.id === documentId) : user!.docs.findById(collection, documentId);
    return doc ? json(doc) : documentNotFound();
  }

  // List
  const ownerKey = family === "sandbox" ? "sandbox" : user!.id;
  const nextToken = q.get("next_token");
  let start: string;
  let end: string;
  let after = "";
  let fields = q.get("fields");
  if (nextToken) {
    const cursor = deps.cursors.decode(nextToken);
    if (!cursor || cursor.f !== family || cursor.c !== collection || cursor.u !== ownerKey)
      return problem(400, "Invalid or expired next_token.");
    start = cursor.s;
    end = cursor.e;
    after = cursor.a;
    if (!fields) fields = cursor.p;
  } else {
    // Omitted bounds: end = today, start = end - 1 day. The sandbox's fixed sample days lie in
    // the past, so there the defaults cover the whole sample instead.
    const today = family === "sandbox" ? shiftDay(SANDBOX_LAST_DAY, 1) : ctx.state.today();
    end = bounds.end_date?.wall ?? `${today}T00:00:00`;
    const defaultStart = family === "sandbox" && !bounds.end_date ? SANDBOX_FIRST_DAY : shiftDay(end.slice(0, 10), -1);
    start = bounds.start_date?.wall ?? `${defaultStart}T00:00:00`;
    if (start > end) return problem(400, "Start date must be before end date.");
  }

  const inWindow = windowPredicate(family, collection, start, end);
  const pageSize = ctx.config.pageSize;
  const page: RingDocument[] = [];
  let more = false;
  for (const doc of all) {
    if (!inWindow(doc)) continue;
    if (after && orderKey(doc) <= after) continue;
    if (page.length === pageSize) {
      more = true;
      break;
    }
    page.push(doc);
  }
  const next = more
    ? deps.cursors.encode({ f: family, c: collection, u: ownerKey, s: start, e: end, a: orderKey(page[page.length - 1]!), p: fields || null })
    : null;
  const data = family === "sandbox" ? [...page] : project(page, collection, fields);
  return json({ data, next_token: next });
}
