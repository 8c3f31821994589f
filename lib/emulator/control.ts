// Control API under /_emulator/ (emulator only; JSON in and out; zod-validated: malformed JSON
// → 400, a body that parses but breaks the schema → 422 HTTPValidationError).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { EmulatorContext } from "./context";
import { isoWithOffset, parseDateBound } from "./date-params";
import { json, problem, toValidationIssues, validationError } from "./errors";
import { dayToIndex, isDay, utcDay } from "@/lib/days";
import { ALL_SCOPES, PORTALS, SCOPE_NAMES, developerNameFor, grantedScopes, type Scope } from "./providers";
import { TIME_SERIES, webhookDataType, type TimeSeries } from "./resources";
import type { User } from "./store";
import { batteryRow, heartRateRow, localDayOf } from "./timeseries";
import { DOCUMENT_COLLECTIONS, type DocumentCollection } from "./user-data";
import type { WebhookEvent } from "./webhooks";
import { NIGHT_KINDS } from "./generator";

const day = z.string().refine(isDay, "Input should be a valid date YYYY-MM-DD");

const clientSchema = z.object({
  client_id: z.string().min(1).max(200),
  client_secret: z.string().min(1).max(500),
  redirect_uris: z.array(z.url()).min(1),
  approved: z.boolean().default(false),
  /** The portal the application was registered in: "developer" = the newer identity provider. */
  portal: z.enum(PORTALS).default("legacy"),
});
const userSchema = z.object({
  email: z.email().max(254),
  history_days: z.number().int().min(1).max(36_500).optional(),
  subscription: z.enum(["active", "expired"]).optional(),
  // A test person: data from a key of the test's (not the e-mail), worn every day but the
  // days it names, in its own time zone. They apply when the user is created.
  data_key: z.string().min(1).max(200).optional(),
  wear: z.enum(["generated", "always"]).optional(),
  not_worn_days: z.array(day).max(1_000).optional(),
  // nights planted without a sleep: in the charger all night, worn without a sleep, rest mode on
  nights: z
    .record(day, z.enum(NIGHT_KINDS))
    .refine((n) => Object.keys(n).length <= 1_000, { message: "At most 1000 nights" })
    .optional(),
  tz_offset_minutes: z.number().int().min(-720).max(840).optional(),
});
const patchUserSchema = z.object({
  subscription: z.enum(["active", "expired"]).optional(),
  history_days: z.number().int().min(1).max(36_500).optional(),
});
const syncSchema = z.object({ day: day.optional() });
/** Fields to set on a document: any JSON values (new enum values, nulls, wrong types on purpose). */
const editSchema = z
  .record(z.string().min(1).max(100), z.unknown())
  .refine((f) => Object.keys(f).length > 0 && Object.keys(f).length <= 100, { message: "Give between 1 and 100 fields" })
  .refine((f) => !("id" in f) && !("day" in f), { message: "id and day cannot be edited" });
const faultSchema = z
  .object({
    status: z.union([z.literal(0), z.literal("drop"), z.number().int().min(400).max(599)]).optional(),
    count: z.number().int().min(1).max(1_000_000).default(1),
    path_prefix: z.string().startsWith("/").optional(),
    retry_after: z.number().int().min(0).max(86_400).optional(),
    tier: z.enum(["token", "application"]).default("token"),
    delay_ms: z.number().int().min(0).max(120_000).default(0),
  })
  .refine((f) => f.status !== undefined || f.delay_ms > 0, { message: "Give a status, a delay_ms, or both", path: ["status"] });
const tokenSchema = z
  .object({
    client_id: z.string().min(1),
    user_id: z.string().min(1).optional(),
    email: z.email().optional(),
    scope: z.string().optional(),
    expires_in: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 86_400)
      .optional(),
  })
  .refine((t) => t.user_id !== undefined || t.email !== undefined, { message: "Give user_id or email", path: ["user_id"] });

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

async function parseBody<T>(req: Request, schema: z.ZodType<T>): Promise<Parsed<T>> {
  const text = await req.text();
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, response: problem(400, "The body is not valid JSON.") };
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, response: validationError(toValidationIssues(parsed.error, "body")) };
  return { ok: true, value: parsed.data };
}

function userView(ctx: EmulatorContext, user: User) {
  return {
    user_id: user.id,
    email: user.email,
    history_days: user.historyDays,
    subscription: user.subscription,
    first_day: user.docs.firstDay,
    last_day: ctx.state.today(),
  };
}

function isCollection(name: string | undefined): name is DocumentCollection {
  return name !== undefined && (DOCUMENT_COLLECTIONS as readonly string[]).includes(name);
}

function isTimeSeries(name: string | undefined): name is TimeSeries {
  return name !== undefined && (TIME_SERIES as readonly string[]).includes(name);
}

/** Samples one listing may hold (about twenty years of heart rate). */
const MAX_LISTED_SAMPLES = 2_000_000;
const UNKNOWN_COLLECTION = `Unknown collection; one of ${[...DOCUMENT_COLLECTIONS, ...TIME_SERIES].join(", ")}.`;
const NOT_A_DOCUMENT = "Time-series samples (heartrate, ring_battery_level) are not documents: they cannot be edited or deleted one by one.";

/**
 * Every sample of a user's time series within [start, end] (query `start` / `end`: a date =
 * that day's midnight UTC, `end` as a date includes that whole day; or a date-time); default the
 * whole history.
 */
function listSamples(
  user: User,
  kind: TimeSeries,
  url: URL,
  now: number,
  today: string,
): { ok: true; data: Record<string, unknown>[] } | { ok: false; response: Response } {
  const bound = (param: "start" | "end") => {
    const raw = url.searchParams.get(param);
    if (raw === null || raw === "") return { ok: true as const, ms: param === "start" ? -Infinity : Infinity };
    const b = parseDateBound(raw);
    if (!b)
      return {
        ok: false as const,
        response: validationError([{ loc: ["query", param], msg: "Input should be a date or a date-time", type: "datetime_parsing", input: raw }]),
      };
    return { ok: true as const, ms: param === "end" && b.dateOnly ? b.instant + 86_399_999 : b.instant };
  };
  const start = bound("start");
  if (!start.ok) return start;
  const end = bound("end");
  if (!end.ok) return end;
  const docs = user.docs;
  const { first, last } = docs.seriesDays();
  const toRow = kind === "heartrate" ? heartRateRow : batteryRow;
  const from = Number.isFinite(start.ms) ? Math.max(first, localDayOf(start.ms, docs.offsetMinutes)) : first;
  const to = Number.isFinite(end.ms) ? Math.min(last, localDayOf(end.ms, docs.offsetMinutes)) : last;
  // What the data routes serve: on the data's last day, nothing after now.
  const until = Math.min(end.ms, utcDay(now) === today ? now : Infinity);
  const data: Record<string, unknown>[] = [];
  for (let idx = from; idx <= to; idx++) {
    const s = docs.seriesDay(kind, idx);
    for (let i = 0; i < s.n; i++) if (s.t[i]! >= start.ms && s.t[i]! <= until) data.push(toRow(s, i));
    if (data.length > MAX_LISTED_SAMPLES)
      return { ok: false, response: problem(400, `More than ${MAX_LISTED_SAMPLES} samples: narrow the listing with start and end.`) };
  }
  return { ok: true, data };
}

/** Turns document changes into webhook events and schedules them (a collection without a webhook data type has none). */
function emitEvents(
  ctx: EmulatorContext,
  user: User,
  changes: Array<{ collection: DocumentCollection; event_type: WebhookEvent["event_type"]; document: { id?: string } }>,
): WebhookEvent[] {
  const eventTime = isoWithOffset(ctx.now());
  const events: WebhookEvent[] = [];
  for (const c of changes) {
    const dataType = webhookDataType(c.collection);
    if (dataType === null) continue;
    events.push({ event_type: c.event_type, data_type: dataType, object_id: c.document.id ?? null, event_time: eventTime, user_id: user.id });
  }
  ctx.webhooks.notify(events);
  return events;
}

export async function handleControl(ctx: EmulatorContext, req: Request, url: URL, reset: () => void): Promise<Response> {
  const parts = url.pathname.split("/").filter(Boolean).slice(1); // after "_emulator"
  const route = `${req.method} /${parts.map((p, i) => (i === 1 && parts[0] === "users" ? ":id" : p)).join("/")}`;
  const { state } = ctx;

  switch (true) {
    case route === "GET /health":
      return json({ status: "ok", users: state.users.size, clients: state.clients.size, pending_webhooks: ctx.webhooks.pending });

    case route === "GET /config":
      return json(ctx.config);

    case route === "POST /reset":
      reset();
      return json({ status: "reset" });

    case route === "POST /clients": {
      const body = await parseBody(req, clientSchema);
      if (!body.ok) return body.response;
      const { client, created } = state.upsertClient({
        clientId: body.value.client_id,
        clientSecret: body.value.client_secret,
        redirectUris: body.value.redirect_uris,
        approved: body.value.approved,
        portal: body.value.portal,
      });
      return json({ client_id: client.clientId, redirect_uris: client.redirectUris, approved: client.approved, portal: client.portal }, created ? 201 : 200);
    }

    case route === "GET /clients":
      return json({
        clients: [...state.clients.values()].map((c) => ({
          client_id: c.clientId,
          redirect_uris: c.redirectUris,
          approved: c.approved,
          portal: c.portal,
          authorized_users: c.authorizedUsers.size,
        })),
      });

    case route === "POST /users": {
      const body = await parseBody(req, userSchema);
      if (!body.ok) return body.response;
      const { user, created } = state.ensureUser(body.value.email, {
        historyDays: body.value.history_days,
        subscription: body.value.subscription,
        dataKey: body.value.data_key,
        wear: body.value.wear,
        notWornDays: body.value.not_worn_days,
        nights: body.value.nights,
        tzOffsetMinutes: body.value.tz_offset_minutes,
      });
      return json(userView(ctx, user), created ? 201 : 200);
    }

    case route === "GET /users":
      return json({ users: [...state.users.values()].map((u) => userView(ctx, u)) });

    case route === "GET /users/:id" || route === "PATCH /users/:id": {
      const user = state.users.get(parts[1]!);
      if (!user) return problem(404, "No such user.");
      if (req.method === "PATCH") {
        const body = await parseBody(req, patchUserSchema);
        if (!body.ok) return body.response;
        state.ensureUser(user.email, { subscription: body.value.subscription, historyDays: body.value.history_days });
      }
      return json(userView(ctx, user));
    }

    case route === "POST /users/:id/sync": {
      const user = state.users.get(parts[1]!);
      if (!user) return problem(404, "No such user.");
      const body = await parseBody(req, syncSchema);
      if (!body.ok) return body.response;
      const result = user.docs.sync(body.value.day ?? state.today());
      const events = emitEvents(ctx, user, result.changes);
      const documents: Record<string, unknown[]> = {};
      for (const c of DOCUMENT_COLLECTIONS) documents[c] = [];
      for (const change of result.changes) if (change.event_type !== "delete") documents[change.collection]!.push(change.document);
      // The day's time series follow from the documents: how many samples the day now has.
      const idx = dayToIndex(result.day);
      const samples = Object.fromEntries(TIME_SERIES.map((k) => [k, user.docs.seriesDay(k, idx).n]));
      return json({
        user_id: user.id,
        day: result.day,
        revision: result.revision,
        created: result.changes.filter((c) => c.event_type === "create").length,
        updated: result.changes.filter((c) => c.event_type === "update").length,
        deleted: result.changes.filter((c) => c.event_type === "delete").length,
        documents,
        samples,
        events,
      });
    }

    case route.startsWith("GET /users/:id/documents/") && parts.length === 4: {
      const user = state.users.get(parts[1]!);
      if (!user) return problem(404, "No such user.");
      const collection = parts[3];
      if (isTimeSeries(collection)) {
        const listed = listSamples(user, collection, url, ctx.now(), state.today());
        if (!listed.ok) return listed.response;
        return json({ collection, count: listed.data.length, data: listed.data });
      }
      if (!isCollection(collection)) return problem(404, UNKNOWN_COLLECTION);
      const data = user.docs.list(collection);
      return json({ collection, count: data.length, data });
    }

    case route.startsWith("PATCH /users/:id/documents/") && parts.length === 5: {
      const user = state.users.get(parts[1]!);
      if (!user) return problem(404, "No such user.");
      const collection = parts[3];
      if (isTimeSeries(collection)) return problem(404, NOT_A_DOCUMENT);
      if (!isCollection(collection)) return problem(404, UNKNOWN_COLLECTION);
      const body = await parseBody(req, editSchema);
      if (!body.ok) return body.response;
      const doc = user.docs.edit(collection, parts[4]!, body.value);
      if (!doc) return json({ detail: "Document not found." }, 404);
      const events = emitEvents(ctx, user, [{ collection, event_type: "update", document: doc }]);
      return json({ document: doc, events });
    }

    case route.startsWith("POST /users/:id/documents/") && parts.length === 6 && parts[5] === "delete": {
      const user = state.users.get(parts[1]!);
      if (!user) return problem(404, "No such user.");
      const collection = parts[3];
      if (isTimeSeries(collection)) return problem(404, NOT_A_DOCUMENT);
      if (!isCollection(collection)) return problem(404, UNKNOWN_COLLECTION);
      const doc = user.docs.delete(collection, parts[4]!);
      if (!doc) return json({ detail: "Document not found." }, 404);
      const events = emitEvents(ctx, user, [{ collection, event_type: "delete", document: doc }]);
      return json({ deleted: doc, events });
    }

    case route === "POST /tokens": {
      const body = await parseBody(req, tokenSchema);
      if (!body.ok) return body.response;
      const client = state.clients.get(body.value.client_id);
      if (!client) return problem(404, "No such client.");
      const user = body.value.user_id ? state.users.get(body.value.user_id) : state.ensureUser(body.value.email!).user;
      if (!user) return problem(404, "No such user.");
      // Names of the client's provider; internal (legacy) names are accepted for either.
      const portal = client.portal;
      const requested = (body.value.scope ?? "").trim();
      const parts = requested === "" ? [...ALL_SCOPES] : [...new Set(requested.split(/\s+/))];
      const known = (p: string) => (ALL_SCOPES as readonly string[]).includes(p) || SCOPE_NAMES[portal].some((s) => s.name === p);
      const unknown = parts.filter((p) => !known(p));
      if (unknown.length) return validationError([{ loc: ["body", "scope"], msg: `Unknown scope: ${unknown.join(" ")}`, type: "value_error" }]);
      const names = [
        ...new Set(parts.map((p) => (portal === "developer" && (ALL_SCOPES as readonly string[]).includes(p) ? developerNameFor(p as Scope) : p))),
      ];
      client.authorizedUsers.add(user.id);
      const ttl = body.value.expires_in ?? ctx.config.tokenTtlS;
      const { access, refresh } = state.issueTokens({
        clientId: client.clientId,
        userId: user.id,
        scopes: grantedScopes(portal, names),
        scopeNames: names,
        provider: portal,
        flow: "control",
        withRefresh: true,
        ttlS: ttl,
        grantId: randomUUID(),
      });
      return json(
        {
          token_type: "bearer",
          access_token: access.value,
          expires_in: ttl,
          refresh_token: refresh!.value,
          scope: access.scopeNames.join(" "),
          ...(portal === "developer" ? { id_token: null } : {}),
          user_id: user.id,
        },
        201,
      );
    }

    case route === "POST /faults": {
      const body = await parseBody(req, faultSchema);
      if (!body.ok) return body.response;
      const f = body.value;
      const fault = state.addFault({
        status: f.status === "drop" ? 0 : (f.status ?? null),
        remaining: f.count,
        pathPrefix: f.path_prefix ?? null,
        retryAfter: f.retry_after ?? null,
        tier: f.tier,
        delayMs: f.delay_ms,
      });
      return json(faultView(fault), 201);
    }

    case route === "GET /faults":
      return json({ faults: state.faults.map(faultView) });

    case route === "DELETE /faults":
      state.faults = [];
      return json({ faults: [] });

    case route === "GET /webhook-deliveries": {
      const sub = url.searchParams.get("subscription_id");
      const deliveries = sub ? state.deliveries.filter((d) => d.subscription_id === sub) : state.deliveries;
      return json({ deliveries, pending: ctx.webhooks.pending });
    }

    case route === "GET /requests": {
      const kind = url.searchParams.get("kind");
      const prefix = url.searchParams.get("path_prefix");
      const requests = state.requests.filter((r) => (!kind || r.kind === kind) && (!prefix || r.path.startsWith(prefix)));
      return json({ requests });
    }

    case route === "DELETE /requests":
      state.requests = [];
      return json({ requests: [] });

    default:
      return problem(404, `Unknown control route ${req.method} ${url.pathname}. See lib/emulator/README.md.`);
  }
}

function faultView(f: {
  id: string;
  status: number | null;
  remaining: number;
  pathPrefix: string | null;
  retryAfter: number | null;
  tier: string;
  delayMs: number;
}) {
  return { id: f.id, status: f.status, remaining: f.remaining, path_prefix: f.pathPrefix, retry_after: f.retryAfter, tier: f.tier, delay_ms: f.delayMs };
}
