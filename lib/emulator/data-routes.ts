// Data routes: /v2/usercollection/<collection>[/{document_id}], /v2/usercollection/personal_info
// and the sandbox family /v2/sandbox/usercollection/<collection>[/{document_id}].
// Three route families (facts §1): date-range collections (start_date, end_date, next_token,
// fields, and GET /{document_id}), ring_configuration (next_token, fields, /{document_id}) and the
// datetime time series heartrate and ring_battery_level (start_datetime, end_datetime, next_token,
// latest, fields; no single-document route).
// Order of checks: bearer (401) → rate limit (429) → parameters (422) → scope and
// subscription (403) → window/next_token (400) → document (404).
import type { EmulatorContext, RequestMeta } from "./context";
import { parseDateBound, wallClock, type DateBound } from "./date-params";
import { documentNotFound, json, problem, unauthorized, validationError, type ValidationIssue } from "./errors";
import { generatePersonalInfo } from "./generator";
import { rateLimitHeaders } from "./rate-limit";
import { TIME_SERIES, dayKeyOf, type TimeSeries } from "./resources";
import { SANDBOX_FIRST_DAY, SANDBOX_LAST_DAY, sandboxDocuments, sandboxSeries } from "./sandbox-data";
import type { Scope } from "./providers";
import { fingerprint, type AccessToken } from "./store";
import { CursorCodec, type Family } from "./cursor";
import { batteryRow, heartRateRow, localDayOf, type Series } from "./timeseries";
import { addDays, dayToIndex, utcDay } from "@/lib/days";
import { DOCUMENT_COLLECTIONS, firstAfter, orderKeyOf, type AnyDocument, type DocumentCollection, type UserDocuments } from "./user-data";

export type DataResource = DocumentCollection | TimeSeries;

/**
 * The scope each resource needs. Facts §5.6 for the documented ones; ring_battery_level and
 * ring_configuration have no source: they need `daily` here (device data that comes with the
 * daily summaries; a token without any data scope reads none of it). daily_cycle_phases needs
 * reproductive_cycle (cycle-facts.md). See lib/emulator/README.md.
 */
export const COLLECTION_SCOPE: Record<DataResource, Scope> = {
  daily_activity: "daily",
  daily_cardiovascular_age: "daily",
  daily_readiness: "daily",
  daily_resilience: "daily",
  daily_sleep: "daily",
  daily_spo2: "spo2Daily",
  daily_stress: "daily",
  daily_cycle_phases: "reproductive_cycle",
  sleep: "daily",
  enhanced_tag: "tag",
  tag: "tag",
  workout: "workout",
  session: "session",
  vO2_max: "daily",
  sleep_time: "daily",
  rest_mode_period: "daily",
  ring_configuration: "daily",
  heartrate: "heartrate",
  ring_battery_level: "daily",
};

/** Fields returned whatever `fields` asks for (facts §2.3). */
function alwaysReturned(resource: DataResource): readonly string[] {
  switch (resource) {
    case "sleep":
      return ["id", "day", "bedtime_start"];
    case "enhanced_tag":
      return ["id", "start_day", "start_time"];
    case "rest_mode_period":
      return ["id", "start_day"];
    case "ring_configuration":
      return ["id"];
    case "heartrate":
    case "ring_battery_level":
      return ["timestamp"];
    default:
      return ["id", "day", "timestamp"];
  }
}

/** A list window: local wall-clock bounds and the same bounds as instants (epoch ms). */
export type Window = { start: string; end: string; startMs: number; endMs: number };

const instantOf = (v: unknown) => (typeof v === "string" ? Date.parse(v) : NaN);

/**
 * How a list window applies to a collection (facts §2.4 where it says, our choice where it is
 * silent — see lib/emulator/README.md). Wall keys are local wall-clock times; a date-only bound is
 * local midnight (as an instant: UTC midnight).
 *  - daily_activity, vO2_max: the document's timestamp within [start, end] — so a date-only
 *    end_date=D excludes day D, end_date=DT23:59:59 includes it;
 *  - sleep: the period's day within [start, end) — end=D misses day D; start inclusive;
 *  - workout, session: the start instant within [start, end) (facts: UTC start time, end-exclusive);
 *  - other dailies, sleep_time, tag: the day within [start, end]; enhanced_tag, rest_mode_period:
 *    the start_day within [start, end] — end-inclusive on the day;
 *  - ring_configuration: no window;
 *  - sandbox: the day (start_day) within [start, end) everywhere.
 */
export function windowPredicate(family: Family, collection: DocumentCollection, w: Window): (doc: AnyDocument) => boolean {
  if (collection === "ring_configuration") return () => true;
  const dayKey = (doc: AnyDocument) => `${dayKeyOf(collection, doc) ?? ""}T00:00:00`;
  const { start, end } = w;
  if (family === "sandbox") return (doc) => dayKey(doc) >= start && dayKey(doc) < end;
  switch (collection) {
    case "daily_activity":
    case "vO2_max":
      return (doc) => {
        const key = typeof doc.timestamp === "string" ? wallClock(doc.timestamp) : dayKey(doc);
        return key >= start && key <= end;
      };
    case "sleep":
      return (doc) => dayKey(doc) >= start && dayKey(doc) < end;
    case "workout":
    case "session":
      return (doc) => {
        const t = instantOf(doc.start_datetime);
        return t >= w.startMs && t < w.endMs;
      };
    default:
      return (doc) => dayKey(doc) >= start && dayKey(doc) <= end;
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

function isDocumentCollection(name: string): name is DocumentCollection {
  return (DOCUMENT_COLLECTIONS as readonly string[]).includes(name);
}

function isTimeSeries(name: string): name is TimeSeries {
  return (TIME_SERIES as readonly string[]).includes(name);
}

function project<T extends Record<string, unknown>>(docs: readonly T[], resource: DataResource, fieldsParam: string | null): Record<string, unknown>[] {
  if (!fieldsParam || resource === "daily_resilience") return [...docs];
  const requested = fieldsParam
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const present = new Set<string>();
  for (const d of docs) for (const k of Object.keys(d)) present.add(k);
  const valid = requested.filter((f) => present.has(f));
  if (valid.length === 0) return [...docs];
  const keep = new Set([...alwaysReturned(resource), ...valid]);
  return docs.map((d) => Object.fromEntries(Object.entries(d).filter(([k]) => keep.has(k))));
}

/** Pydantic's lenient boolean: true/false, 1/0, yes/no, on/off, t/f, y/n (any case). */
function parseBool(raw: string): boolean | null {
  const v = raw.trim().toLowerCase();
  if (["true", "1", "yes", "on", "t", "y"].includes(v)) return true;
  if (["false", "0", "no", "off", "f", "n"].includes(v)) return false;
  return null;
}

/** End of the served data: now on the data's last day, else the end of that day (tests fix "today"). */
function dataNow(ctx: EmulatorContext): number {
  const [today, now] = [ctx.state.today(), ctx.now()];
  return utcDay(now) === today ? now : Date.parse(`${addDays(today, 1)}T00:00:00Z`) - 1000;
}

// ---- time series -------------------------------------------------------------------------

type SeriesSource = {
  day(idx: number): Series;
  first: number;
  last: number;
  offsetMinutes: number;
  /** Samples after this instant are not served (they have not happened yet). */
  until: number;
};

function rowOf(kind: TimeSeries): (s: Series, i: number) => Record<string, unknown> {
  return kind === "heartrate" ? heartRateRow : batteryRow;
}

/** Rows with startMs ≤ t ≤ endMs (or < endMs when end-exclusive) and t > afterMs, in time order, at most `limit` + 1. */
function collectRows(src: SeriesSource, kind: TimeSeries, w: { startMs: number; endMs: number; endExclusive: boolean }, afterMs: number, limit: number) {
  const rows: Record<string, unknown>[] = [];
  const times: number[] = [];
  const from = Math.max(w.startMs, afterMs + 1);
  const to = Math.min(w.endMs, src.until);
  if (from > to) return { rows, times };
  const toRow = rowOf(kind);
  const firstDay = Math.max(src.first, localDayOf(from, src.offsetMinutes));
  const lastDay = Math.min(src.last, localDayOf(to, src.offsetMinutes));
  for (let idx = firstDay; idx <= lastDay && rows.length <= limit; idx++) {
    const s = src.day(idx);
    let lo = 0;
    let hi = s.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s.t[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < s.n && rows.length <= limit; i++) {
      const t = s.t[i]!;
      if (t > to || (w.endExclusive && t >= w.endMs)) break;
      rows.push(toRow(s, i));
      times.push(t);
    }
  }
  return { rows, times };
}

/** The most recent row in [startMs, endMs] (looking back day by day to the first day). */
function latestRow(src: SeriesSource, kind: TimeSeries, startMs: number, endMs: number): Record<string, unknown> | null {
  const to = Math.min(endMs, src.until);
  const stop = Math.max(src.first, localDayOf(startMs, src.offsetMinutes));
  for (let idx = Math.min(src.last, localDayOf(to, src.offsetMinutes)); idx >= stop; idx--) {
    const s = src.day(idx);
    for (let i = s.n - 1; i >= 0; i--) if (s.t[i]! <= to && s.t[i]! >= startMs) return rowOf(kind)(s, i);
  }
  return null;
}

function userSeries(ctx: EmulatorContext, docs: UserDocuments, kind: TimeSeries): SeriesSource {
  const { first, last } = docs.seriesDays();
  const now = ctx.now();
  return {
    day: (idx) => docs.seriesDay(kind, idx),
    first,
    last,
    offsetMinutes: docs.offsetMinutes,
    // On the data's last day, samples stop at "now" (a day synced after today was recorded whole).
    until: utcDay(now) === ctx.state.today() && last <= dayToIndex(ctx.state.today()) ? now : Infinity,
  };
}

// ---- the route -------------------------------------------------------------------------

export type DataRouteDeps = { cursors: CursorCodec };
type Bounds = Partial<Record<"start_date" | "end_date" | "start_datetime" | "end_datetime", DateBound>>;

export async function handleDataRoute(ctx: EmulatorContext, deps: DataRouteDeps, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  const parts = url.pathname.split("/").filter(Boolean); // v2, [sandbox], usercollection, name, [id]
  const family: Family = parts[1] === "sandbox" ? "sandbox" : "user";
  const rest = family === "sandbox" ? parts.slice(3) : parts.slice(2);
  meta.kind = family === "sandbox" ? "sandbox" : "data";
  const [name, documentId, ...extra] = rest;
  const servable =
    name !== undefined &&
    extra.length === 0 &&
    (isDocumentCollection(name) ||
      (isTimeSeries(name) && documentId === undefined) ||
      (family === "user" && name === "personal_info" && documentId === undefined));
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
  const resource = name as DataResource;
  const series = isTimeSeries(resource);

  // 422
  const q = url.searchParams;
  const issues: ValidationIssue[] = [];
  const bounds: Bounds = {};
  let latest = false;
  if (documentId === undefined && resource !== "ring_configuration") {
    const params = series ? (["start_datetime", "end_datetime"] as const) : (["start_date", "end_date"] as const);
    for (const param of params) {
      const raw = q.get(param);
      if (raw === null || raw === "") continue;
      const parsed = parseDateBound(raw);
      if (parsed) bounds[param] = parsed;
      else
        issues.push({
          loc: ["query", param],
          msg: series ? "Input should be a valid datetime" : "Input should be a valid datetime or date (YYYY-MM-DD or an ISO 8601 date-time)",
          type: series ? "datetime_parsing" : "datetime_from_date_parsing",
          input: raw,
        });
    }
    const rawLatest = q.get("latest");
    if (series && family === "user" && rawLatest !== null && rawLatest !== "") {
      const b = parseBool(rawLatest);
      if (b === null) issues.push({ loc: ["query", "latest"], msg: "Input should be a valid boolean", type: "bool_parsing", input: rawLatest });
      else latest = b;
    }
  } else if (documentId === "") {
    issues.push({ loc: ["path", "document_id"], msg: "Field required", type: "missing" });
  }
  if (issues.length > 0) return validationError(issues);

  // 403
  if (family === "user") {
    const needed = COLLECTION_SCOPE[resource];
    if (!token!.scopes.includes(needed)) return problem(403, `Missing scopes: this data requires the "${needed}" scope.`);
    if (user!.subscription === "expired") return problem(403, "The user's membership has expired, so this data is unavailable.");
  }

  const ownerKey = family === "sandbox" ? "sandbox" : user!.id;
  const nextToken = q.get("next_token");
  const fieldsParam = q.get("fields");

  if (series) {
    const src: SeriesSource = family === "sandbox" ? sandboxSeries(resource) : userSeries(ctx, user!.docs, resource);
    let startMs: number;
    let endMs: number;
    let after = -Infinity;
    let fields = family === "sandbox" ? null : fieldsParam;
    if (nextToken) {
      const cursor = deps.cursors.decode(nextToken);
      if (!cursor || cursor.f !== family || cursor.c !== resource || cursor.u !== ownerKey || cursor.si === undefined || cursor.ei === undefined)
        return problem(400, "Invalid or expired next_token.");
      startMs = cursor.si;
      endMs = cursor.ei;
      after = Number(cursor.a);
      if (!fields && family === "user") fields = cursor.p;
    } else {
      // Omitted bounds: about the last 24 hours (facts §2.4). The sandbox's samples are fixed
      // days in the past, so there the defaults cover the whole sample instead.
      if (family === "sandbox") {
        startMs = bounds.start_datetime?.instant ?? Date.parse(`${SANDBOX_FIRST_DAY}T00:00:00Z`);
        endMs = bounds.end_datetime?.instant ?? Date.parse(`${addDays(SANDBOX_LAST_DAY, 1)}T00:00:00Z`);
      } else {
        endMs = bounds.end_datetime?.instant ?? dataNow(ctx);
        startMs = bounds.start_datetime?.instant ?? endMs - 86_400_000;
      }
      if (startMs > endMs) return problem(400, "Start datetime must be before end datetime.");
      const maxDays = ctx.config.timeseriesMaxDays;
      if (family === "user" && maxDays > 0 && endMs - startMs > maxDays * 86_400_000)
        return problem(400, `The requested time range is longer than ${maxDays} days; request it in smaller windows.`);
    }
    if (latest) {
      const row = latestRow(src, resource, bounds.start_datetime ? startMs : -Infinity, endMs);
      return json({ data: row ? project([row], resource, fields) : [], next_token: null });
    }
    const pageSize = ctx.config.timeseriesPageSize;
    const { rows, times } = collectRows(src, resource, { startMs, endMs, endExclusive: family === "sandbox" }, after, pageSize);
    const more = rows.length > pageSize;
    if (more) {
      rows.length = pageSize;
      times.length = pageSize;
    }
    const next = more
      ? deps.cursors.encode({
          f: family,
          c: resource,
          u: ownerKey,
          s: "",
          e: "",
          si: startMs,
          ei: endMs,
          a: String(times[times.length - 1]),
          p: fields || null,
        })
      : null;
    return json({ data: project(rows, resource, fields), next_token: next });
  }

  const collection = resource as DocumentCollection;
  const all: readonly AnyDocument[] = family === "sandbox" ? sandboxDocuments(collection) : user!.docs.list(collection);

  // Single document
  if (documentId !== undefined) {
    const doc = family === "sandbox" ? all.find((d) => d.id === documentId) : user!.docs.findById(collection, documentId);
    return doc ? json(doc) : documentNotFound();
  }

  // List
  let window: Window;
  let after = "";
  let fields = fieldsParam;
  if (nextToken) {
    const cursor = deps.cursors.decode(nextToken);
    if (!cursor || cursor.f !== family || cursor.c !== collection || cursor.u !== ownerKey) return problem(400, "Invalid or expired next_token.");
    window = { start: cursor.s, end: cursor.e, startMs: cursor.si ?? Date.parse(`${cursor.s}Z`), endMs: cursor.ei ?? Date.parse(`${cursor.e}Z`) };
    after = cursor.a;
    if (!fields) fields = cursor.p;
  } else {
    // Omitted bounds: end = today, start = end - 1 day. The sandbox's fixed sample days lie in
    // the past, so there the defaults cover the whole sample instead.
    const today = family === "sandbox" ? addDays(SANDBOX_LAST_DAY, 1) : ctx.state.today();
    const end = bounds.end_date?.wall ?? `${today}T00:00:00`;
    const defaultStart = family === "sandbox" && !bounds.end_date ? SANDBOX_FIRST_DAY : addDays(end.slice(0, 10), -1);
    const start = bounds.start_date?.wall ?? `${defaultStart}T00:00:00`;
    window = {
      start,
      end,
      startMs: bounds.start_date?.instant ?? Date.parse(`${start}Z`),
      endMs: bounds.end_date?.instant ?? Date.parse(`${end}Z`),
    };
    // Collections compared on instants (workout, session) order the bounds as instants.
    const startAfterEnd = collection === "workout" || collection === "session" ? window.startMs > window.endMs : start > end;
    if (collection !== "ring_configuration" && startAfterEnd) return problem(400, "Start date must be before end date.");
  }

  const inWindow = windowPredicate(family, collection, window);
  const pageSize = ctx.config.pageSize;
  const page: AnyDocument[] = [];
  let more = false;
  // a user's list is sorted by order key: a continuation starts after the last one sent
  for (let i = after && family === "user" ? firstAfter(collection, all, after) : 0; i < all.length; i++) {
    const doc = all[i]!;
    if (!inWindow(doc)) continue;
    if (after && orderKeyOf(collection, doc) <= after) continue;
    if (page.length === pageSize) {
      more = true;
      break;
    }
    page.push(doc);
  }
  const next = more
    ? deps.cursors.encode({
        f: family,
        c: collection,
        u: ownerKey,
        s: window.start,
        e: window.end,
        si: window.startMs,
        ei: window.endMs,
        a: orderKeyOf(collection, page[page.length - 1]!),
        p: fields || null,
      })
    : null;
  const data = family === "sandbox" ? [...page] : project(page, collection, fields);
  return json({ data, next_token: next });
}
