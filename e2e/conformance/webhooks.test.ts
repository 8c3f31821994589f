// Conformance: interface spec §4.4/§6 as made concrete by ring-api-facts §6 — the six
// subscription routes (x-client-id + x-client-secret), the verification handshake, signed
// notifications, retries, 410 cancellation, expiration and renewal — and the emulator
// contract's webhook decisions (local callbacks, delivery log, 403 for unknown ids).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wornEmail } from "@/lib/test/emulator-kit";
import { addDays } from "@/lib/days";
import {
  TODAY,
  type Connection,
  type Ring,
  type TestClient,
  WebhookReceiver,
  expectOpenApiResponse,
  expectSchema,
  signatureOf,
  useEmulator,
  waitUntil,
} from "@/e2e/conformance/support";

// Every emulator here but `hanging` runs on a manual clock: time passes only through
// ring.advance(ms), which runs the deliveries and retries due and waits for them, so "after the
// delay", "the delay doubles" and "nothing else arrives" are exact, with no sleeping.
const TTL_S = 3600;
/** Longer than every delivery and retry schedule below: advancing this far lets everything due happen. */
const LONG_MS = 60_000;
const manual = { clock: "manual" } as const;
const hooks: Ring = useEmulator({ webhookDelayMs: 50, webhookRetryMs: 20, subscriptionTtlS: TTL_S, historyDays: 20 }, manual);
const retry: Ring = useEmulator({ webhookDelayMs: 0, webhookRetryMs: 5, historyDays: 20 }, manual);
const slow: Ring = useEmulator({ webhookDelayMs: 400, historyDays: 20 }, manual);
const expiring: Ring = useEmulator({ webhookDelayMs: 20, subscriptionTtlS: 1, historyDays: 20 }, manual);
/** The callback timeout (10 s) is the HTTP client's own, on real time. */
const hanging: Ring = useEmulator({ webhookDelayMs: 0, webhookRetryMs: 5, historyDays: 20 });

const receivers: WebhookReceiver[] = [];
async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

type Sub = { id: string; callback_url: string; event_type: string; data_type: string; expiration_time: string };
type Notification = { event_type: string; data_type: string; object_id: string; event_time: string; user_id: string };
type SyncEvent = { event_type: string; data_type: string; object_id: string | null; user_id: string };

const SUBS = "/v2/webhook/subscription";
const DATA_TYPES = [
  "tag",
  "enhanced_tag",
  "workout",
  "session",
  "sleep",
  "daily_sleep",
  "daily_readiness",
  "daily_activity",
  "daily_spo2",
  "sleep_time",
  "rest_mode_period",
  "ring_configuration",
  "daily_stress",
  "daily_cardiovascular_age",
  "daily_resilience",
  "vo2_max",
  "meal",
];

async function subscribe(
  ring: Ring,
  client: TestClient,
  rcv: WebhookReceiver,
  event_type: string,
  data_type: string,
  path = `/${event_type}/${data_type}`,
): Promise<Sub> {
  const r = await ring.webhook<Sub>(client, "POST", SUBS, {
    callback_url: rcv.url(path),
    verification_token: rcv.verificationToken,
    event_type,
    data_type,
  });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** Sync a day; returns the notification events the emulator says it scheduled. */
async function syncDay(ring: Ring, userId: string, day: string): Promise<SyncEvent[]> {
  const r = await ring.sync(userId, day);
  const events = (r.body as { events?: SyncEvent[] }).events;
  expect(Array.isArray(events), `sync answer lists its events: ${r.text.slice(0, 200)}`).toBe(true);
  return events as SyncEvent[];
}

/** A day outside every test user's history: sync creates its documents (create events). */
let freshDay = addDays(TODAY, -200);
function newDay(): string {
  freshDay = addDays(freshDay, -1);
  return freshDay;
}

/** Syncs a fresh day of a person who wore the ring (PERSON): it creates a document of `dataType`. */
async function syncFresh(ring: Ring, userId: string, dataType: string): Promise<SyncEvent[]> {
  const ev = await syncDay(ring, userId, newDay());
  expect(
    ev.some((e) => e.data_type === dataType && e.event_type === "create"),
    `a ${dataType} created`,
  ).toBe(true);
  return ev;
}

/**
 * A person who wore the ring every day (the emulator's `wear: "always"`): every fresh day synced
 * brings one document of each daily collection and a sleep, whatever the seed.
 */
const PERSON = { history_days: 20, wear: "always" } as const;

async function setup(ring: Ring, email?: string): Promise<{ client: TestClient; conn: Connection; userId: string }> {
  const client = await ring.registerClient();
  const user = await ring.createUser({ ...PERSON, ...(email ? { email } : {}) });
  const conn = await ring.connect(client, { email: user.email });
  return { client, conn, userId: user.user_id };
}

async function deliveries(ring: Ring, subscriptionId?: string): Promise<Array<Record<string, unknown>>> {
  const r = await ring.control<{ deliveries?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>>("GET", "/_emulator/webhook-deliveries");
  expect(r.status).toBe(200);
  const all = Array.isArray(r.body) ? r.body : (r.body.deliveries ?? []);
  return subscriptionId ? all.filter((d) => d.subscription_id === subscriptionId) : all;
}

describe("facts §6.1 — subscription routes (x-client-id and x-client-secret)", () => {
  let client: TestClient;
  let rcv: WebhookReceiver;
  beforeAll(async () => {
    client = await hooks.registerClient();
    rcv = await receiver();
  });

  it("POST /v2/webhook/subscription: 201 with WebhookSubscriptionModel (id uuid4, callback_url, event_type, data_type, expiration_time)", async () => {
    const before = hooks.now();
    const r = await hooks.webhook<Sub>(client, "POST", SUBS, {
      callback_url: rcv.url("/routes/create"),
      verification_token: rcv.verificationToken,
      event_type: "create",
      data_type: "daily_sleep",
    });
    expect(r.status, r.text).toBe(201);
    expectSchema("WebhookSubscriptionModel", r.body);
    expectOpenApiResponse(SUBS, "post", 201, r.body);
    expect(r.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.body.callback_url).toBe(rcv.url("/routes/create"));
    expect(r.body.event_type).toBe("create");
    expect(r.body.data_type).toBe("daily_sleep");
    // expiration_time has whole seconds
    expect(Math.floor(Date.parse(r.body.expiration_time) / 1000)).toBe(Math.floor((before + TTL_S * 1000) / 1000));
  });

  it("POST: every ExtApiV2DataType value and every WebhookOperation is accepted", async () => {
    const c = await hooks.registerClient();
    for (const data_type of DATA_TYPES) {
      const r = await hooks.webhook(c, "POST", SUBS, {
        callback_url: rcv.url(`/all/${data_type}`),
        verification_token: rcv.verificationToken,
        event_type: "delete",
        data_type,
      });
      expect(r.status, `${data_type}: ${r.text}`).toBe(201);
    }
    for (const event_type of ["create", "update"]) {
      const r = await hooks.webhook(c, "POST", SUBS, {
        callback_url: rcv.url(`/all/${event_type}`),
        verification_token: rcv.verificationToken,
        event_type,
        data_type: "sleep",
      });
      expect(r.status, r.text).toBe(201);
    }
  });

  it("POST: a missing field or a value outside the enums gives 422 HTTPValidationError", async () => {
    const good = {
      callback_url: rcv.url("/bad"),
      verification_token: rcv.verificationToken,
      event_type: "create",
      data_type: "daily_activity",
    };
    for (const body of [
      { ...good, data_type: "heartrate" },
      { ...good, data_type: "personal_info" },
      { ...good, event_type: "upsert" },
      { ...good, callback_url: undefined },
      { ...good, verification_token: undefined },
      { ...good, event_type: undefined },
      { ...good, data_type: undefined },
    ]) {
      const r = await hooks.webhook(client, "POST", SUBS, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expectSchema("HTTPValidationError", r.body);
      expectOpenApiResponse(SUBS, "post", 422, r.body);
    }
  });

  it("GET /v2/webhook/subscription: 200 with a bare array of the application's subscriptions", async () => {
    const c = await hooks.registerClient();
    const a = await subscribe(hooks, c, rcv, "create", "daily_activity", "/list/a");
    const b = await subscribe(hooks, c, rcv, "update", "daily_activity", "/list/b");
    const r = await hooks.webhook<Sub[]>(c, "GET", SUBS);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expectOpenApiResponse(SUBS, "get", 200, r.body);
    for (const s of r.body) expectSchema("WebhookSubscriptionModel", s);
    expect(r.body.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("GET /v2/webhook/subscription/{id}: 200 with the subscription; an unknown id gives 403", async () => {
    const s = await subscribe(hooks, client, rcv, "update", "daily_readiness");
    const r = await hooks.webhook<Sub>(client, "GET", `${SUBS}/${s.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(s);
    expectOpenApiResponse(`${SUBS}/{id}`, "get", 200, r.body);
    const unknown = await hooks.webhook(client, "GET", `${SUBS}/3f0e6a43-9f1b-4b8e-8c39-2f1a5f0c8d11`);
    expect(unknown.status).toBe(403);
  });

  it("PUT /v2/webhook/subscription/{id}: 200 with the changed fields; verification_token is required (422 without)", async () => {
    const s = await subscribe(hooks, client, rcv, "create", "daily_stress");
    const other = await receiver();
    const r = await hooks.webhook<Sub>(client, "PUT", `${SUBS}/${s.id}`, {
      verification_token: other.verificationToken,
      callback_url: other.url("/moved"),
      event_type: "update",
    });
    expect(r.status, r.text).toBe(200);
    expectSchema("WebhookSubscriptionModel", r.body);
    expectOpenApiResponse(`${SUBS}/{id}`, "put", 200, r.body);
    expect(r.body.id).toBe(s.id);
    expect(r.body.callback_url).toBe(other.url("/moved"));
    expect(r.body.event_type).toBe("update");
    expect(r.body.data_type).toBe("daily_stress");
    expect((await hooks.webhook<Sub>(client, "GET", `${SUBS}/${s.id}`)).body).toEqual(r.body);
    const missing = await hooks.webhook(client, "PUT", `${SUBS}/${s.id}`, { event_type: "delete" });
    expect(missing.status).toBe(422);
    expectSchema("HTTPValidationError", missing.body);
    const unknown = await hooks.webhook(client, "PUT", `${SUBS}/3f0e6a43-9f1b-4b8e-8c39-2f1a5f0c8d11`, {
      verification_token: rcv.verificationToken,
    });
    expect(unknown.status).toBe(403);
  });

  it("DELETE /v2/webhook/subscription/{id}: 204 with an empty body; the deleted id then gives 403", async () => {
    const s = await subscribe(hooks, client, rcv, "delete", "daily_spo2");
    const r = await hooks.webhook(client, "DELETE", `${SUBS}/${s.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect((await hooks.webhook(client, "GET", `${SUBS}/${s.id}`)).status).toBe(403);
    expect((await hooks.webhook(client, "DELETE", `${SUBS}/${s.id}`)).status).toBe(403);
    const list = await hooks.webhook<Sub[]>(client, "GET", SUBS);
    expect(list.body.map((x) => x.id)).not.toContain(s.id);
  });

  it("PUT /v2/webhook/subscription/renew/{id}: 200 with a later expiration_time (now + lifetime); unknown id gives 403", async () => {
    const s = await subscribe(hooks, client, rcv, "create", "daily_resilience");
    await hooks.advance(1500);
    const r = await hooks.webhook<Sub>(client, "PUT", `${SUBS}/renew/${s.id}`);
    expect(r.status, r.text).toBe(200);
    expectSchema("WebhookSubscriptionModel", r.body);
    expectOpenApiResponse(`${SUBS}/renew/{id}`, "put", 200, r.body);
    expect(Date.parse(r.body.expiration_time)).toBeGreaterThanOrEqual(Date.parse(s.expiration_time) + 1000);
    expect(Math.floor(Date.parse(r.body.expiration_time) / 1000)).toBe(Math.floor((hooks.now() + TTL_S * 1000) / 1000));
    const unknown = await hooks.webhook(client, "PUT", `${SUBS}/renew/3f0e6a43-9f1b-4b8e-8c39-2f1a5f0c8d11`);
    expect(unknown.status).toBe(403);
  });

  it("all six routes need both x-client-id and x-client-secret: missing or wrong credentials are refused (401/403)", async () => {
    const s = await subscribe(hooks, client, rcv, "update", "daily_spo2");
    const body = { callback_url: rcv.url("/x"), verification_token: rcv.verificationToken, event_type: "create", data_type: "tag" };
    const calls: Array<[string, string, unknown]> = [
      ["GET", SUBS, undefined],
      ["POST", SUBS, body],
      ["GET", `${SUBS}/${s.id}`, undefined],
      ["PUT", `${SUBS}/${s.id}`, { verification_token: rcv.verificationToken }],
      ["DELETE", `${SUBS}/${s.id}`, undefined],
      ["PUT", `${SUBS}/renew/${s.id}`, undefined],
    ];
    for (const [method, path, b] of calls) {
      const none = await hooks.webhook(null, method, path, b);
      expect([401, 403], `${method} ${path} without credentials`).toContain(none.status);
      const idOnly = await hooks.webhook(null, method, path, b, { "x-client-id": client.client_id });
      expect([401, 403], `${method} ${path} without secret`).toContain(idOnly.status);
      const wrong = await hooks.webhook({ client_id: client.client_id, client_secret: "wrong" }, method, path, b);
      expect([401, 403], `${method} ${path} wrong secret`).toContain(wrong.status);
      const bearer = await hooks.webhook(null, method, path, b, { authorization: "Bearer something" });
      expect([401, 403], `${method} ${path} bearer instead`).toContain(bearer.status);
    }
    expect((await hooks.webhook(client, "GET", `${SUBS}/${s.id}`)).status).toBe(200);
  });

  it("one subscription per (event_type, data_type) pair: a duplicate create is refused and not stored", async () => {
    const c = await hooks.registerClient();
    await subscribe(hooks, c, rcv, "create", "sleep", "/dup/1");
    const r = await hooks.webhook(c, "POST", SUBS, {
      callback_url: rcv.url("/dup/2"),
      verification_token: rcv.verificationToken,
      event_type: "create",
      data_type: "sleep",
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    const list = await hooks.webhook<Sub[]>(c, "GET", SUBS);
    expect(list.body.filter((s) => s.event_type === "create" && s.data_type === "sleep")).toHaveLength(1);
  });

  it("the same callback URL may serve many subscriptions", async () => {
    const c = await hooks.registerClient();
    await subscribe(hooks, c, rcv, "create", "daily_sleep", "/shared");
    await subscribe(hooks, c, rcv, "update", "daily_sleep", "/shared");
    await subscribe(hooks, c, rcv, "create", "daily_activity", "/shared");
    expect((await hooks.webhook<Sub[]>(c, "GET", SUBS)).body).toHaveLength(3);
  });

  it("subscriptions are per application: another application neither lists nor reads them (403)", async () => {
    const mine = await hooks.registerClient();
    const theirs = await hooks.registerClient();
    const s = await subscribe(hooks, mine, rcv, "create", "workout", "/own");
    expect((await hooks.webhook<Sub[]>(theirs, "GET", SUBS)).body.map((x) => x.id)).not.toContain(s.id);
    expect((await hooks.webhook(theirs, "GET", `${SUBS}/${s.id}`)).status).toBe(403);
    expect((await hooks.webhook(theirs, "DELETE", `${SUBS}/${s.id}`)).status).toBe(403);
    expect((await hooks.webhook(mine, "GET", `${SUBS}/${s.id}`)).status).toBe(200);
  });

  it("callback URLs may be http://localhost or http://127.0.0.1 (emulator contract)", async () => {
    const c = await hooks.registerClient();
    for (const host of ["localhost", "127.0.0.1"] as const) {
      const r = await hooks.webhook(c, "POST", SUBS, {
        callback_url: rcv.url(`/host/${host}`, host),
        verification_token: rcv.verificationToken,
        event_type: "create",
        data_type: host === "localhost" ? "tag" : "session",
      });
      expect(r.status, r.text).toBe(201);
    }
  });
});

describe("facts §6.2 — verification handshake", () => {
  it("on create, GET <callback_url>?verification_token=…&challenge=… is answered with {challenge} before the 201", async () => {
    const client = await hooks.registerClient();
    const rcv = await receiver();
    const s = await subscribe(hooks, client, rcv, "create", "daily_sleep", "/handshake");
    const gets = rcv.gets.filter((g) => g.path === "/handshake");
    expect(gets).toHaveLength(1);
    expect(gets[0]!.query.get("verification_token")).toBe(rcv.verificationToken);
    expect(gets[0]!.query.get("challenge")).toMatch(/\S/);
    expect(gets[0]!.answered).toBe(200);
    expect(s.id).toBeTruthy();
  });

  it("a callback that answers the wrong challenge fails the create; no subscription is stored", async () => {
    const client = await hooks.registerClient();
    const rcv = await receiver();
    rcv.handshake = "wrong-challenge";
    const r = await hooks.webhook(client, "POST", SUBS, {
      callback_url: rcv.url("/wrong"),
      verification_token: rcv.verificationToken,
      event_type: "create",
      data_type: "daily_sleep",
    });
    expect(r.status).not.toBe(201);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(rcv.gets.length).toBeGreaterThanOrEqual(1);
    expect((await hooks.webhook<Sub[]>(client, "GET", SUBS)).body).toEqual([]);
  });

  it("a callback that rejects the verification token (401) fails the create; no subscription is stored", async () => {
    const client = await hooks.registerClient();
    const rcv = await receiver();
    const r = await hooks.webhook(client, "POST", SUBS, {
      callback_url: rcv.url("/reject"),
      verification_token: "not-the-receivers-token",
      event_type: "create",
      data_type: "daily_sleep",
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(rcv.gets.length).toBeGreaterThanOrEqual(1);
    for (const g of rcv.gets) expect(g.answered).toBe(401);
    expect((await hooks.webhook<Sub[]>(client, "GET", SUBS)).body).toEqual([]);
  });

  it("an unreachable callback fails the create", async () => {
    const client = await hooks.registerClient();
    const rcv = await receiver();
    const url = rcv.url("/gone");
    await rcv.close();
    const r = await hooks.webhook(client, "POST", SUBS, {
      callback_url: url,
      verification_token: "t",
      event_type: "create",
      data_type: "daily_sleep",
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect((await hooks.webhook<Sub[]>(client, "GET", SUBS)).body).toEqual([]);
  });
});

describe("facts §6.3 — notifications", () => {
  let client: TestClient;
  let conn: Connection;
  let userId: string;
  let rcv: WebhookReceiver;
  let events: SyncEvent[];
  let posts: WebhookReceiver["posts"];

  beforeAll(async () => {
    // a person whose today changes its activity and sleep when synced again (update events; never luck)
    ({ client, conn, userId } = await setup(hooks, wornEmail("notify", [TODAY], ["daily_activity", "sleep"])));
    rcv = await receiver();
    await subscribe(hooks, client, rcv, "create", "daily_activity", "/n/create-activity");
    await subscribe(hooks, client, rcv, "create", "sleep", "/n/create-sleep");
    events = await syncDay(hooks, userId, newDay());
    const expected = events.filter((e) => e.event_type === "create" && (e.data_type === "daily_activity" || e.data_type === "sleep")).length;
    expect(expected).toBeGreaterThan(0);
    await hooks.advance(LONG_MS); // the delay and any retry
    posts = [...rcv.posts];
    expect(posts).toHaveLength(expected);
  });

  it("after data syncs, POST <callback_url> with JSON event_type, data_type, object_id, event_time, user_id", async () => {
    for (const p of posts) {
      expect(p.headers["content-type"] ?? "").toContain("application/json");
      const n = p.body as Notification;
      expect(Object.keys(n).sort()).toEqual(["data_type", "event_time", "event_type", "object_id", "user_id"]);
      expect(n.event_type).toBe("create");
      expect(Number.isNaN(Date.parse(n.event_time))).toBe(false);
      expect(n.user_id).toBe(userId);
    }
  });

  it("one notification per changed document of a subscribed (event_type, data_type) pair, and only those", async () => {
    const wanted = events
      .filter((e) => e.event_type === "create" && (e.data_type === "daily_activity" || e.data_type === "sleep"))
      .map((e) => `${e.data_type}/${e.object_id}`)
      .sort();
    const got = posts.map((p) => `${String(p.body.data_type)}/${String(p.body.object_id)}`).sort();
    expect(got).toEqual(wanted);
    for (const p of rcv.postsTo("/n/create-activity")) expect(p.body.data_type).toBe("daily_activity");
    for (const p of rcv.postsTo("/n/create-sleep")) expect(p.body.data_type).toBe("sleep");
    // an update of the same kinds is not subscribed: nothing arrives
    const before = rcv.posts.length;
    const updates = await syncDay(hooks, userId, TODAY);
    expect(updates.some((e) => e.event_type === "update")).toBe(true);
    await hooks.advance(LONG_MS);
    expect(rcv.posts.length).toBe(before);
  });

  it("notify-only: object_id is fetched at GET /v2/usercollection/<data_type>/<object_id>", async () => {
    for (const p of posts) {
      const n = p.body as Notification;
      const r = await hooks.api(`/v2/usercollection/${n.data_type}/${n.object_id}`, { token: conn.accessToken });
      expect(r.status, `${n.data_type}/${n.object_id}`).toBe(200);
      expect((r.body as { id: string }).id).toBe(n.object_id);
    }
  });

  it("user_id is the id of the user's personal_info (emulator contract)", async () => {
    const info = await hooks.personalInfo(conn.accessToken);
    for (const p of posts) expect(p.body.user_id).toBe(info.id);
  });

  it("x-oura-signature is upper-case hex HMAC-SHA256(client_secret, x-oura-timestamp + raw body)", async () => {
    for (const p of posts) {
      const ts = p.headers["x-oura-timestamp"];
      const sig = p.headers["x-oura-signature"];
      expect(typeof ts).toBe("string");
      expect(ts).toMatch(/^\d+$/);
      expect(sig).toMatch(/^[0-9A-F]{64}$/);
      expect(sig).toBe(signatureOf(client.client_secret, String(ts), p.raw));
      expect(sig).not.toBe(signatureOf("ringside-demo-secret", String(ts), p.raw));
    }
  });

  it("x-oura-timestamp is Unix time in seconds: the time of the delivery attempt", async () => {
    const log = await deliveries(hooks);
    for (const p of posts) {
      const ts = p.headers["x-oura-timestamp"];
      const attempt = log.find((d) => d.object_id === p.body.object_id && d.callback_url === rcv.url(p.path));
      expect(attempt, `delivery record of ${String(p.body.object_id)}`).toBeDefined();
      expect(Number(ts)).toBe(Math.floor(Date.parse(String(attempt!.time)) / 1000));
    }
  });

  it("subscriptions cover all users who authorised the application, and only them", async () => {
    const second = await hooks.createUser(PERSON);
    await hooks.connect(client, { email: second.email });
    const stranger = await hooks.createUser(PERSON);
    const before = rcv.posts.length;
    const strangerEvents = await syncDay(hooks, stranger.user_id, newDay());
    expect(strangerEvents.length).toBeGreaterThan(0);
    const secondEvents = await syncDay(hooks, second.user_id, newDay());
    const expected = secondEvents.filter((e) => e.event_type === "create" && (e.data_type === "daily_activity" || e.data_type === "sleep")).length;
    expect(expected).toBeGreaterThan(0);
    await hooks.advance(LONG_MS);
    const fresh = rcv.posts.slice(before);
    expect(fresh).toHaveLength(expected);
    for (const p of fresh) expect(p.body.user_id).toBe(second.user_id);
  });

  it("a deleted subscription receives nothing more", async () => {
    const { client: c, userId: u } = await setup(hooks);
    const r = await receiver();
    const s = await subscribe(hooks, c, r, "create", "daily_sleep", "/deleted");
    expect((await hooks.webhook(c, "DELETE", `${SUBS}/${s.id}`)).status).toBe(204);
    await syncFresh(hooks, u, "daily_sleep");
    await hooks.advance(LONG_MS);
    expect(r.posts).toHaveLength(0);
  });

  it("a notification follows a data change after RING_EMULATOR_WEBHOOK_DELAY_MS, not before", async () => {
    const { client: c, userId: u } = await setup(slow);
    const r = await receiver();
    await subscribe(slow, c, r, "create", "daily_readiness", "/slow");
    await syncFresh(slow, u, "daily_readiness");
    await slow.advance(399);
    expect(r.posts).toHaveLength(0);
    await slow.advance(1);
    expect(r.posts.length).toBeGreaterThan(0);
  });
});

describe("facts §6.3 — retries and 410", () => {
  async function oneEvent(answer: WebhookReceiver["answer"]): Promise<{ rcv: WebhookReceiver; sub: Sub; client: TestClient; userId: string }> {
    const { client, userId } = await setup(retry);
    const rcv = await receiver();
    const sub = await subscribe(retry, client, rcv, "create", "daily_readiness", "/r");
    rcv.answer = answer;
    const ev = await syncDay(retry, userId, newDay());
    expect(ev.filter((e) => e.data_type === "daily_readiness" && e.event_type === "create")).toHaveLength(1);
    return { rcv, sub, client, userId };
  }

  it("a failing callback (5xx) is retried up to 10 times (11 attempts), then given up", async () => {
    const { rcv, sub } = await oneEvent(() => 500);
    await retry.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(11);
    const bodies = new Set(rcv.posts.map((p) => p.raw));
    expect(bodies.size).toBe(1); // the same notification each time
    const log = await deliveries(retry, sub.id);
    expect(log.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    for (const d of log) expect(d.status).toBe(500);
    expect(log.at(-1)!.next_retry_at ?? null).toBeNull();
  });

  it("the first retry comes after RING_EMULATOR_WEBHOOK_RETRY_MS, and the delay then doubles", async () => {
    const { rcv, sub } = await oneEvent(() => 503);
    await retry.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(11);
    const at = (await deliveries(retry, sub.id)).map((d) => Date.parse(String(d.time)));
    for (let k = 1; k < at.length; k++) {
      expect(at[k]! - at[k - 1]!, `gap before attempt ${k + 1}`).toBe(5 * 2 ** (k - 1));
    }
  });

  it("4xx answers are retried as well, until a 2xx ends the delivery", async () => {
    const { rcv, sub } = await oneEvent((n) => (n < 2 ? 404 : 200));
    await retry.advance(LONG_MS);
    expect(rcv.posts.map((p) => p.answered)).toEqual([404, 404, 200]);
    const log = await deliveries(retry, sub.id);
    expect(log.map((d) => d.status)).toEqual([404, 404, 200]);
  });

  it("a connection error (no answer) counts as a failure and is retried", async () => {
    const { rcv, sub } = await oneEvent((n) => (n === 0 ? "drop" : 200));
    await retry.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(2);
    const log = await deliveries(retry, sub.id);
    expect(log).toHaveLength(2);
    expect(log[0]!.status ?? null).toBeNull();
    expect(String(log[0]!.error ?? "")).toMatch(/\S/);
    expect(log[1]!.status).toBe(200);
  });

  it("a callback that does not answer within 10 s counts as a failure (timeout) and is retried", async () => {
    // Real time here: the 10 s limit is the HTTP client's own timeout.
    const { client, userId } = await setup(hanging);
    const rcv = await receiver();
    const sub = await subscribe(hanging, client, rcv, "create", "daily_readiness", "/hang");
    rcv.answer = (n) => (n === 0 ? "hang" : 200);
    await syncFresh(hanging, userId, "daily_readiness");
    const [first] = await waitUntil(() => rcv.posts.length >= 1 && rcv.posts, 5_000, "the first attempt");
    await waitUntil(
      () => rcv.posts.some((p) => p.answered === 200 && p.body.object_id === first!.body.object_id) && true,
      20_000,
      "the retry after a timeout",
      100,
    );
    const log = (await deliveries(hanging, sub.id)).filter((d) => d.object_id === first!.body.object_id);
    expect(log.map((d) => d.attempt)).toEqual([1, 2]);
    expect(log[0]!.status ?? null).toBeNull();
    expect(String(log[0]!.error ?? "")).toMatch(/timeout/);
    expect(Number(log[0]!.duration_ms)).toBeGreaterThanOrEqual(9_500);
    expect(log[1]!.status).toBe(200);
  }, 30_000);

  it("answering 410 cancels the subscription: no more attempts, the id then gives 403, later changes are not sent", async () => {
    const { rcv, sub, client, userId } = await oneEvent(() => 410);
    await retry.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(1);
    expect((await retry.webhook(client, "GET", `${SUBS}/${sub.id}`)).status).toBe(403);
    expect((await retry.webhook<Sub[]>(client, "GET", SUBS)).body.map((s) => s.id)).not.toContain(sub.id);
    await syncDay(retry, userId, newDay());
    await retry.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(1);
  });

  it("GET /_emulator/webhook-deliveries records subscription id, callback URL, attempt number, status or error, and time", async () => {
    const { rcv, sub } = await oneEvent((n) => (n === 0 ? 500 : 204));
    await retry.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(2);
    const log = await deliveries(retry, sub.id);
    expect(log).toHaveLength(2);
    for (const [i, d] of log.entries()) {
      expect(d.subscription_id).toBe(sub.id);
      expect(d.callback_url).toBe(sub.callback_url);
      expect(d.attempt).toBe(i + 1);
      expect(Number.isNaN(Date.parse(String(d.time)))).toBe(false);
    }
    expect(log.map((d) => d.status)).toEqual([500, 204]);
  });
});

describe("facts §6.4 — expiration and renewal", () => {
  it("expiration_time is the creation time plus the subscription lifetime (RING_EMULATOR_SUBSCRIPTION_TTL_S)", async () => {
    const { client } = await setup(expiring);
    const rcv = await receiver();
    const t0 = expiring.now();
    const s = await subscribe(expiring, client, rcv, "create", "daily_sleep");
    expect(Math.floor(Date.parse(s.expiration_time) / 1000)).toBe(Math.floor((t0 + 1000) / 1000));
  });

  it("an expired subscription receives no notifications; PUT /renew/{id} restores delivery", async () => {
    const { client, userId } = await setup(expiring);
    const rcv = await receiver();
    const s = await subscribe(expiring, client, rcv, "create", "daily_readiness", "/exp");
    await expiring.advance(1300);
    await syncFresh(expiring, userId, "daily_readiness");
    await expiring.advance(LONG_MS);
    expect(rcv.posts).toHaveLength(0);
    const renewed = await expiring.webhook<Sub>(client, "PUT", `${SUBS}/renew/${s.id}`);
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.expiration_time)).toBeGreaterThan(expiring.now());
    await syncFresh(expiring, userId, "daily_readiness");
    await expiring.advance(20);
    expect(rcv.posts.length).toBeGreaterThan(0);
    expect(rcv.posts[0]!.body.data_type).toBe("daily_readiness");
  });
});
