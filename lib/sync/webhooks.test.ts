// End to end through a real HTTP server: subscriptions are created at the emulator (with the
// verification handshake against our GET route), an emulator sync sends signed notifications
// to our POST route, the scheduler fetches the documents, and the new day is in SQLite.
// Forged, stale, duplicate, oversized and malformed notifications change nothing.
import { waitFor } from "@/lib/test/wait";
import { clock } from "@/lib/clock";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "@/lib/emulator/webhooks";
import { wornEmail } from "@/lib/test/emulator-kit";
import { compareWithEmulator, connectPerson, emulatorControl, startSyncTestEnv, type ConnectedPerson, type SyncTestEnv } from "@/lib/test/sync-kit";
import { sqlAll, sqlValue } from "@/lib/test/sql";

let t: SyncTestEnv;
let server: http.Server;
let appUrl = "";
let handler: { GET: (r: Request) => Promise<Response>; POST: (r: Request) => Promise<Response> } | null = null;
let m: {
  engine: typeof import("@/lib/sync/engine");
  scheduler: typeof import("@/lib/sync/scheduler");
  subs: typeof import("@/lib/sync/subscriptions");
  docs: typeof import("@/lib/db/queries/ring-documents");
  raw: typeof import("@/lib/db");
};
let person: ConnectedPerson;

function startServer(): Promise<string> {
  server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const request = new Request(`${appUrl}${req.url}`, { method: req.method, headers, body: req.method === "POST" ? body : undefined });
      const response = req.method === "GET" ? await handler!.GET(request) : await handler!.POST(request);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  appUrl = await startServer();
  t = await startSyncTestEnv({ historyDays: 30, pageSize: 7, webhookDelayMs: 0 }, { PUBLIC_URL: appUrl });
  handler = await import("@/app/api/webhooks/ring/route");
  m = {
    engine: await import("@/lib/sync/engine"),
    scheduler: await import("@/lib/sync/scheduler"),
    subs: await import("@/lib/sync/subscriptions"),
    docs: await import("@/lib/db/queries/ring-documents"),
    raw: await import("@/lib/db"),
  };
  // a generated person who wears the ring tomorrow (the day the notification test syncs)
  person = await connectPerson(t, { tracksCycle: true, email: wornEmail("hook", [tomorrow()], []) });
  await new m.engine.SyncEngine().backfillUser(person.userId);
  // The route wakes the process's scheduler: install one (housekeeping far away).
  await m.scheduler.replaceScheduler(new m.scheduler.Scheduler(new m.engine.SyncEngine(), { housekeepingMs: 3_600_000, idleMs: 200 }));
});

afterAll(async () => {
  await m?.scheduler.replaceScheduler(null);
  await t?.close();
  await new Promise<void>((r) => server?.close(() => r()));
});

/**
 * waitFor, whose failure also says where the notifications stopped: the emulator's deliveries
 * (status, error) and the inbox's rows (status, error), and whether the scheduler was busy.
 */
async function waitForApplied(what: string, check: () => Promise<boolean>): Promise<void> {
  try {
    await waitFor(what, check);
  } catch (err) {
    const { deliveries } = (await emulatorControl(t, "GET", "/webhook-deliveries")) as { deliveries: Array<Record<string, unknown>> };
    const sent = deliveries.slice(-20).map((d) => `${d.event_type}/${d.data_type}#${d.attempt}:${d.status ?? d.error}`);
    const inbox = await sqlAll<Record<string, unknown>>("SELECT id, dataType, eventType, status, error FROM webhook_event ORDER BY id DESC LIMIT 20");
    const rows = inbox.map((r) => `${r.id} ${r.eventType}/${r.dataType}:${r.status}${r.error ? ` (${String(r.error).slice(0, 80)})` : ""}`);
    throw new Error(
      `${(err as Error).message}; deliveries: ${sent.join(", ")}; inbox: ${rows.join(", ")}; scheduler busy: ${m.scheduler.getScheduler()?.busy}`,
    );
  }
}

const countEvents = async () => Number(await sqlValue("SELECT COUNT(*) AS n FROM webhook_event"));
const tomorrow = () => new Date(clock.now() + 86_400_000).toISOString().slice(0, 10);

async function post(body: string, headers: Record<string, string>) {
  return fetch(`${appUrl}/api/webhooks/ring`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

function signed(body: string, ts = String(Math.floor(clock.now() / 1000)), secret = t.client.client_secret) {
  return { "x-oura-timestamp": ts, "x-oura-signature": signWebhook(secret, ts, body) };
}

describe("webhook subscriptions", () => {
  it("answers the handshake only for our verification token", async () => {
    const ok = await fetch(`${appUrl}/api/webhooks/ring?verification_token=test-webhook-verification-token&challenge=abc123`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ challenge: "abc123" });
    const bad = await fetch(`${appUrl}/api/webhooks/ring?verification_token=nope&challenge=abc123`);
    expect(bad.status).toBe(401);
    expect(await bad.text()).not.toContain("abc123");
  });

  it("subscribes every stored data type × event type and renews before expiry", async () => {
    const first = await m.subs.syncWebhookSubscriptions();
    // (The scheduler's own upkeep job may have made some of them first.)
    expect(first).toMatchObject({ enabled: true, failed: 0 });
    // every data type of OpenAPI 1.37 (facts §6.1) but `meal`, which Ringside does not store: 16 × 3 events
    const { WEBHOOK_DATA_TYPES } = await import("@/lib/resources");
    expect([...WEBHOOK_DATA_TYPES].sort()).toEqual(
      [
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
      ].sort(),
    );
    expect(first.created + first.unchanged).toBe(48);
    expect(await m.subs.webhookOverview()).toMatchObject({ mode: "active", active: 48, expected: 48 });
    const again = await m.subs.syncWebhookSubscriptions();
    expect(again).toMatchObject({ created: 0, unchanged: 48 });
    // Seen from 89 days on, every subscription is close to its expiry: renewed.
    const later = await m.subs.syncWebhookSubscriptions({ now: clock.now() + 89 * 86_400_000 });
    expect(later).toMatchObject({ renewed: 48, failed: 0 });
  });
});

describe("notifications", () => {
  it("brings an emulator sync's new day into SQLite", async () => {
    const day = tomorrow();
    const result = (await emulatorControl(t, "POST", `/users/${person.ringUserId}/sync`, { day })) as { created: number };
    expect(result.created).toBeGreaterThan(3);
    await waitForApplied("the day's activity stored", async () => (await m.docs.listRawDocuments("daily_activity", person.userId)).some((d) => d.day === day));
    await waitForApplied("the day's readiness stored", async () =>
      (await m.docs.listRawDocuments("daily_readiness", person.userId)).some((d) => d.day === day),
    );
    // Every collection ends up identical to the service (creates and updates alike).
    await waitForApplied("the edited documents stored", async () => {
      for (const c of ["daily_activity", "daily_readiness", "daily_sleep", "sleep", "daily_stress"] as const) {
        const diff = await compareWithEmulator(t, person, c);
        if (diff.missing.length || diff.extra.length || diff.changed.length) return false;
      }
      return true;
    });
  });

  it("applies a delete notification", async () => {
    const docs = await m.docs.listRawDocuments("daily_stress", person.userId);
    const victim = docs.at(-1)!;
    await emulatorControl(t, "POST", `/users/${person.ringUserId}/documents/daily_stress/${victim.documentId}/delete`);
    await waitForApplied(
      "the deleted stress document gone",
      async () => !(await m.docs.listRawDocuments("daily_stress", person.userId)).some((d) => d.documentId === victim.documentId),
    );
  });

  it("a delete notification for a document the service still has deletes nothing", async () => {
    const victim = (await m.docs.listRawDocuments("daily_stress", person.userId)).at(-2)!;
    const body = JSON.stringify({
      event_type: "delete",
      data_type: "daily_stress",
      object_id: victim.documentId,
      event_time: clock.date().toISOString(),
      user_id: person.ringUserId,
    });
    expect((await post(body, signed(body))).status).toBe(200);
    const settled = () => sqlValue<string>("SELECT status FROM webhook_event WHERE objectId = ? AND eventType = 'delete'", victim.documentId);
    await waitFor("the notification ignored", async () => (await settled()) === "ignored");
    expect((await m.docs.listRawDocuments("daily_stress", person.userId)).some((d) => d.documentId === victim.documentId)).toBe(true);
  });

  it("records a duplicate once and acknowledges it", async () => {
    const body = JSON.stringify({
      event_type: "update",
      data_type: "daily_sleep",
      object_id: "dup-1",
      event_time: "2026-01-01T08:00:00+00:00",
      user_id: "someone-else",
    });
    const before = await countEvents();
    const a = await post(body, signed(body));
    const b = await post(body, signed(body));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await countEvents()).toBe(before + 1);
  });

  it("rejects forged, stale, oversized and malformed notifications without recording anything", async () => {
    const body = JSON.stringify({
      event_type: "create",
      data_type: "daily_activity",
      object_id: "x-1",
      event_time: "2026-01-01T08:00:00+00:00",
      user_id: person.ringUserId,
    });
    const before = await countEvents();
    const forged = await post(body, signed(body, undefined, "not-the-client-secret"));
    expect(forged.status).toBe(401);
    const tampered = await post(body.replace("x-1", "x-2"), signed(body));
    expect(tampered.status).toBe(401);
    const noSignature = await post(body, { "x-oura-timestamp": String(Math.floor(clock.now() / 1000)) });
    expect(noSignature.status).toBe(401);
    const staleTs = String(Math.floor(clock.now() / 1000) - 3600);
    const stale = await post(body, signed(body, staleTs));
    expect(stale.status).toBe(401);
    const big = JSON.stringify({ pad: "x".repeat(70_000) });
    expect((await post(big, signed(big))).status).toBe(413);
    const notJson = "{not json";
    expect((await post(notJson, signed(notJson))).status).toBe(400);
    const wrongShape = JSON.stringify({ event_type: "explode", data_type: "daily_activity", user_id: "u" });
    expect((await post(wrongShape, signed(wrongShape))).status).toBe(400);
    expect(await countEvents()).toBe(before);
    // Lower-case signatures are the same signature.
    const ts = String(Math.floor(clock.now() / 1000));
    const lower = await post(body, { "x-oura-timestamp": ts, "x-oura-signature": signWebhook(t.client.client_secret, ts, body).toLowerCase() });
    expect(lower.status).toBe(200);
    expect(await countEvents()).toBe(before + 1);
  });

  it("acknowledges notifications about unknown people the same way and ignores them", async () => {
    const body = JSON.stringify({
      event_type: "create",
      data_type: "daily_activity",
      object_id: "nobody-doc",
      event_time: "2026-02-01T08:00:00+00:00",
      user_id: "unknown-ring-user",
    });
    const res = await post(body, signed(body));
    expect(res.status).toBe(200);
    await waitFor(
      "the unknown person's notification ignored",
      async () => (await sqlValue("SELECT status FROM webhook_event WHERE objectId = 'nobody-doc'")) === "ignored",
    );
  });
});
