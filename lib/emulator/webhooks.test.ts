import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { validateResponse } from "./openapi";
import type { RunningEmulator } from "./server";
import {
  Receiver,
  TEST_TODAY,
  call,
  connect,
  registerClient,
  startManualClockEmulator,
  startTestEmulator,
  wornEmail,
  type Client,
} from "@/lib/test/emulator-kit";
import { signWebhook } from "./webhooks";

// A manual clock: deliveries happen when the test moves time (emu.advance), so "it arrives"
// and "nothing arrives" are exact, with no waiting.
let emu: RunningEmulator & { advance(ms: number): Promise<void> };
let base: string;
let client: Client;
let rx: Receiver;

beforeAll(async () => {
  emu = await startManualClockEmulator({ webhookDelayMs: 0, webhookRetryMs: 20, subscriptionTtlS: 3600 });
  base = emu.url;
  client = await registerClient(base);
  rx = await Receiver.start();
});
afterAll(async () => {
  await emu.close();
  await rx.close();
});
afterEach(() => {
  rx.posts.length = 0;
  rx.gets.length = 0;
  rx.handshake = "echo";
  rx.answer = () => 200;
});

/** Runs every delivery due within a minute, then returns what `probe` finds (which must exist). */
async function delivered<T>(probe: () => T | undefined, what: string): Promise<T> {
  await emu.advance(60_000);
  const found = probe();
  expect(found, what).toBeDefined();
  return found as T;
}

const creds = (c: Client) => ({ "x-client-id": c.client_id, "x-client-secret": c.client_secret });

function sub(c: Client, method: string, path = "", body?: unknown, emuBase = base) {
  return call(emuBase, `/v2/webhook/subscription${path}`, { method, headers: creds(c), json: body });
}

function expectValid(path: string, method: string, status: number, body: unknown) {
  const r = validateResponse(path, method, status, body);
  expect(r.ok, JSON.stringify(r)).toBe(true);
}

async function subscribe(c: Client, event_type: string, data_type: string, path = "/hook", emuBase = base, receiver = rx) {
  const r = await sub(c, "POST", "", { callback_url: receiver.url(path), verification_token: receiver.token, event_type, data_type }, emuBase);
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; expiration_time: string };
}

describe("signWebhook", () => {
  it("is the upper-case hex HMAC-SHA256 of timestamp + raw body keyed with the client secret", () => {
    const body = '{"event_type":"update"}';
    const expected = createHmac("sha256", "secret").update(`1234567890${body}`).digest("hex").toUpperCase();
    expect(signWebhook("secret", "1234567890", body)).toBe(expected);
    expect(expected).toMatch(/^[0-9A-F]{64}$/);
  });
});

describe("subscription routes", () => {
  it("rejects missing or wrong x-client-id / x-client-secret with 401", async () => {
    expect((await call(base, "/v2/webhook/subscription")).status).toBe(401);
    const bad = await call(base, "/v2/webhook/subscription", { headers: { "x-client-id": client.client_id, "x-client-secret": "nope" } });
    expect(bad.status).toBe(401);
    expect(bad.body.detail).toBeTruthy();
  });

  it("creates after a successful handshake, then lists, reads, updates, renews and deletes", async () => {
    const c = await registerClient(base);
    const created = await sub(c, "POST", "", { callback_url: rx.url("/crud"), verification_token: rx.token, event_type: "create", data_type: "daily_sleep" });
    expect(created.status).toBe(201);
    expectValid("/v2/webhook/subscription", "post", 201, created.body);
    expect(rx.gets).toHaveLength(1);
    expect(rx.gets[0]!.get("verification_token")).toBe(rx.token);
    expect(rx.gets[0]!.get("challenge")).toBeTruthy();
    const expiry = Date.parse(created.body.expiration_time);
    expect(Math.floor(expiry / 1000)).toBe(Math.floor((emu.emulator.clock.now() + 3600_000) / 1000));

    const listed = await sub(c, "GET");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body]);
    expectValid("/v2/webhook/subscription", "get", 200, listed.body);

    const read = await sub(c, "GET", `/${created.body.id}`);
    expect(read.body).toEqual(created.body);

    const updated = await sub(c, "PUT", `/${created.body.id}`, { verification_token: rx.token, event_type: "update" });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, event_type: "update", data_type: "daily_sleep" });
    expectValid("/v2/webhook/subscription/{id}", "put", 200, updated.body);

    await emu.advance(1100);
    const renewed = await sub(c, "PUT", `/renew/${created.body.id}`);
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.expiration_time)).toBeGreaterThan(expiry);
    expectValid("/v2/webhook/subscription/renew/{id}", "put", 200, renewed.body);

    const del = await sub(c, "DELETE", `/${created.body.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await sub(c, "GET", `/${created.body.id}`)).status).toBe(403);
    expect((await sub(c, "GET")).body).toEqual([]);
  });

  it("answers 403 for unknown ids and for another application's subscriptions", async () => {
    const mine = await subscribe(client, "delete", "daily_stress", "/mine");
    const other = await registerClient(base);
    for (const [method, path] of [
      ["GET", `/${mine.id}`],
      ["PUT", `/renew/${mine.id}`],
      ["DELETE", `/${mine.id}`],
      ["GET", "/00000000-0000-4000-8000-000000000000"],
    ] as const) {
      const r = await sub(other, method, path);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.detail).toBe("Webhook with specified id does not exist.");
    }
    expect((await sub(client, "GET", `/${mine.id}`)).status).toBe(200);
    await sub(client, "DELETE", `/${mine.id}`);
  });

  it.each([
    ["a missing field", { verification_token: "x", event_type: "create", data_type: "sleep" }, ["body", "callback_url"], "missing"],
    [
      "a bad event_type",
      { callback_url: "http://127.0.0.1:1/x", verification_token: "x", event_type: "upsert", data_type: "sleep" },
      ["body", "event_type"],
      "enum",
    ],
    [
      "a bad data_type",
      { callback_url: "http://127.0.0.1:1/x", verification_token: "x", event_type: "create", data_type: "heartrate" },
      ["body", "data_type"],
      "enum",
    ],
    [
      "a non-URL callback",
      { callback_url: "not a url", verification_token: "x", event_type: "create", data_type: "sleep" },
      ["body", "callback_url"],
      "value_error",
    ],
  ])("answers 422 HTTPValidationError for %s", async (_name, body, loc, type) => {
    const r = await sub(client, "POST", "", body);
    expect(r.status).toBe(422);
    expectValid("/v2/webhook/subscription", "post", 422, r.body);
    expect(r.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, type })]));
  });

  it("answers 422 for a body that is not JSON", async () => {
    const r = await call(base, "/v2/webhook/subscription", {
      method: "POST",
      headers: { ...creds(client), "content-type": "application/json" },
      json: undefined,
    });
    expect(r.status).toBe(422);
  });

  it.each([
    ["the callback refuses the token", "401" as const],
    ["the callback echoes a wrong challenge", "wrong" as const],
  ])("answers 400 and stores nothing when %s", async (_name, mode) => {
    rx.handshake = mode;
    const c = await registerClient(base);
    const r = await sub(c, "POST", "", { callback_url: rx.url(), verification_token: rx.token, event_type: "create", data_type: "sleep" });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/verification/i);
    expect((await sub(c, "GET")).body).toEqual([]);
  });

  it("answers 400 when the callback is unreachable", async () => {
    const c = await registerClient(base);
    const r = await sub(c, "POST", "", { callback_url: "http://127.0.0.1:9/none", verification_token: "t", event_type: "create", data_type: "sleep" });
    expect(r.status).toBe(400);
  });

  it("answers 409 for a second subscription with the same (event_type, data_type), also on update", async () => {
    const c = await registerClient(base);
    const a = await subscribe(c, "update", "sleep");
    const dup = await sub(c, "POST", "", { callback_url: rx.url("/other"), verification_token: rx.token, event_type: "update", data_type: "sleep" });
    expect(dup.status).toBe(409);
    const b = await subscribe(c, "create", "sleep");
    const clash = await sub(c, "PUT", `/${b.id}`, { verification_token: rx.token, event_type: "update" });
    expect(clash.status).toBe(409);
    // another application may hold the same pair
    await subscribe(await registerClient(base), "update", "sleep");
    expect((await sub(c, "GET")).body.map((s: { id: string }) => s.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe("notifications", () => {
  it("POSTs signed notifications for synced changes to subscriptions of applications the user authorized", async () => {
    const c = await registerClient(base);
    await subscribe(c, "update", "daily_readiness", "/readiness");
    await subscribe(c, "create", "sleep", "/sleep-create");
    const outsider = await registerClient(base);
    await subscribe(outsider, "update", "daily_readiness", "/outsider");
    const user = await connect(base, { client_id: c.client_id, client_secret: c.client_secret, redirect_uri: c.redirect_uri }, { email: wornEmail() });

    const sync = await call(base, `/_emulator/users/${user.user_id}/sync`, { json: { day: TEST_TODAY } });
    expect(sync.status).toBe(200);
    const readinessEvents = sync.body.events.filter((e: { data_type: string }) => e.data_type === "daily_readiness");
    expect(readinessEvents).toHaveLength(1);
    expect(readinessEvents[0].event_type).toBe("update");

    const post = await delivered(() => rx.posts.find((p) => p.path === "/readiness"), "readiness notification");
    expect(post.body).toEqual({
      event_type: "update",
      data_type: "daily_readiness",
      object_id: readinessEvents[0].object_id,
      event_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
      user_id: user.user_id,
    });
    const ts = post.headers["x-oura-timestamp"] as string;
    expect(ts).toMatch(/^\d{10}$/);
    expect(Number(ts)).toBeLessThanOrEqual(Math.floor(emu.emulator.clock.now() / 1000));
    expect(Number(ts)).toBeGreaterThan(Math.floor(emu.emulator.clock.now() / 1000) - 120);
    expect(post.headers["x-oura-signature"]).toBe(
      createHmac("sha256", c.client_secret)
        .update(ts + post.raw)
        .digest("hex")
        .toUpperCase(),
    );
    expect(post.headers["content-type"]).toBe("application/json");

    // the object can be fetched
    const doc = await call(base, `/v2/usercollection/daily_readiness/${post.body.object_id}`, { token: user.access_token });
    expect(doc.status).toBe(200);
    expect(doc.body.day).toBe(TEST_TODAY);

    // a new day → create events
    await call(base, `/_emulator/users/${user.user_id}/sync`, { json: { day: "2026-03-16" } });
    const created = await delivered(() => rx.posts.find((p) => p.path === "/sleep-create"), "sleep create");
    expect(created.body.event_type).toBe("create");
    expect(rx.posts.filter((p) => p.path === "/outsider")).toHaveLength(0);

    const deliveries = (await call(base, "/_emulator/webhook-deliveries")).body.deliveries;
    expect(
      deliveries.some(
        (d: { callback_url: string; ok: boolean; attempt: number; status: number }) =>
          d.callback_url.endsWith("/readiness") && d.ok && d.attempt === 1 && d.status === 200,
      ),
    ).toBe(true);
  });

  it("sends a delete event when a document is deleted, and the document is gone", async () => {
    const c = await registerClient(base);
    await subscribe(c, "delete", "daily_sleep", "/deleted");
    const user = await connect(base, { client_id: c.client_id, client_secret: c.client_secret, redirect_uri: c.redirect_uri });
    const doc = (await call(base, `/_emulator/users/${user.user_id}/documents/daily_sleep`)).body.data[3];
    const del = await call(base, `/_emulator/users/${user.user_id}/documents/daily_sleep/${doc.id}/delete`, { method: "POST" });
    expect(del.status).toBe(200);
    const post = await delivered(() => rx.posts.find((p) => p.path === "/deleted"), "delete notification");
    expect(post.body).toMatchObject({ event_type: "delete", data_type: "daily_sleep", object_id: doc.id, user_id: user.user_id });
    expect((await call(base, `/v2/usercollection/daily_sleep/${doc.id}`, { token: user.access_token })).status).toBe(404);
  });

  it("stops notifying users whose grant was revoked", async () => {
    const c = await registerClient(base);
    await subscribe(c, "update", "daily_stress", "/revoked");
    const user = await connect(base, { client_id: c.client_id, client_secret: c.client_secret, redirect_uri: c.redirect_uri });
    await call(base, `/oauth/revoke?access_token=${user.access_token}`);
    await call(base, `/_emulator/users/${user.user_id}/sync`, { json: {} });
    await emu.advance(60_000);
    expect(rx.posts.filter((p) => p.path === "/revoked")).toHaveLength(0);
  });
});

describe("delivery timing, retries, cancellation, expiry (on a manual clock)", () => {
  async function setup(overrides: Parameters<typeof startTestEmulator>[0]) {
    const e = await startManualClockEmulator(overrides);
    const c = await registerClient(e.url);
    const user = await connect(e.url, { client_id: c.client_id, client_secret: c.client_secret, redirect_uri: c.redirect_uri }, { email: wornEmail() });
    return { e, c, user };
  }
  /** Runs `fn` on a fresh emulator (setup), then closes it whatever happens. */
  async function withSetup(overrides: Parameters<typeof startTestEmulator>[0], fn: (s: Awaited<ReturnType<typeof setup>>) => Promise<void>) {
    const s = await setup(overrides);
    try {
      await fn(s);
    } finally {
      await s.e.close();
    }
  }
  const postsTo = (path: string) => rx.posts.filter((p) => p.path === path);

  it("waits webhookDelayMs after the change", async () => {
    await withSetup({ webhookDelayMs: 400 }, async ({ e, c, user }) => {
      await subscribe(c, "update", "daily_sleep", "/delayed", e.url);
      await call(e.url, `/_emulator/users/${user.user_id}/sync`, { json: {} });
      await e.advance(399);
      expect(postsTo("/delayed")).toHaveLength(0);
      await e.advance(1);
      expect(postsTo("/delayed")).toHaveLength(1);
    });
  });

  it("retries failed deliveries (5xx, dropped connection) with doubling delays and records every attempt", async () => {
    await withSetup({ webhookRetryMs: 100 }, async ({ e, c, user }) => {
      const s = await subscribe(c, "update", "daily_sleep", "/flaky", e.url);
      rx.answer = (n) => (n === 0 ? 503 : n === 1 ? "drop" : 200);
      await call(e.url, `/_emulator/users/${user.user_id}/sync`, { json: {} });
      await e.advance(0);
      expect(postsTo("/flaky")).toHaveLength(1);
      // the first retry 100 ms after the failure, the second 200 ms after the next one
      await e.advance(99);
      expect(postsTo("/flaky")).toHaveLength(1);
      await e.advance(1);
      expect(postsTo("/flaky")).toHaveLength(2);
      await e.advance(199);
      expect(postsTo("/flaky")).toHaveLength(2);
      await e.advance(1);
      const posts = postsTo("/flaky");
      expect(posts).toHaveLength(3);
      expect(posts.map((p) => p.raw)).toEqual([posts[0]!.raw, posts[0]!.raw, posts[0]!.raw]); // same body each time
      const records = (await call(e.url, `/_emulator/webhook-deliveries?subscription_id=${s.id}`)).body.deliveries;
      expect(records.map((r: { attempt: number; status: number | null; ok: boolean }) => [r.attempt, r.status, r.ok])).toEqual([
        [1, 503, false],
        [2, null, false],
        [3, 200, true],
      ]);
      expect(records[1].error).toBeTruthy();
      expect(records[0].next_retry_at).toBeTruthy();
      expect(records[2].next_retry_at).toBeNull();
    });
  });

  it("gives up after 10 retries (11 attempts)", async () => {
    await withSetup({ webhookRetryMs: 1 }, async ({ e, c, user }) => {
      await subscribe(c, "update", "daily_readiness", "/always-500", e.url);
      rx.answer = () => 500;
      await call(e.url, `/_emulator/users/${user.user_id}/sync`, { json: {} });
      await e.advance(2 ** 11); // 1 + 2 + … + 512 ms of backoff fit in it
      expect(postsTo("/always-500")).toHaveLength(11);
      await e.advance(86_400_000); // and nothing more, ever
      expect(postsTo("/always-500")).toHaveLength(11);
      const records = (await call(e.url, "/_emulator/webhook-deliveries")).body.deliveries.filter((d: { callback_url: string }) =>
        d.callback_url.endsWith("/always-500"),
      );
      expect(records.map((r: { attempt: number }) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(records.at(-1).next_retry_at).toBeNull();
    });
  });

  it("cancels (deletes) the subscription when the callback answers 410", async () => {
    await withSetup({}, async ({ e, c, user }) => {
      const s = await subscribe(c, "update", "daily_activity", "/gone", e.url);
      rx.answer = () => 410;
      await call(e.url, `/_emulator/users/${user.user_id}/sync`, { json: {} });
      await e.advance(0);
      expect(postsTo("/gone")).toHaveLength(1);
      await e.advance(86_400_000); // no retry of a 410
      expect(postsTo("/gone")).toHaveLength(1);
      expect((await sub(c, "GET", `/${s.id}`, undefined, e.url)).status).toBe(403);
    });
  });

  it("does not deliver to expired subscriptions until renewed", async () => {
    await withSetup({ subscriptionTtlS: 1 }, async ({ e, c, user }) => {
      const s = await subscribe(c, "update", "daily_readiness", "/expiring", e.url);
      await e.advance(1_100);
      await call(e.url, `/_emulator/users/${user.user_id}/sync`, { json: {} });
      await e.advance(60_000);
      expect(postsTo("/expiring")).toHaveLength(0);
      const listed = (await sub(c, "GET", "", undefined, e.url)).body;
      expect(Date.parse(listed[0].expiration_time)).toBeLessThan(e.clock.now());
      await sub(c, "PUT", `/renew/${s.id}`, undefined, e.url);
      await call(e.url, `/_emulator/users/${user.user_id}/sync`, { json: {} });
      await e.advance(0);
      expect(postsTo("/expiring").length).toBeGreaterThan(0);
    });
  });
});
