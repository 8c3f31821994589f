// 2. Webhook abuse against the production process: 1,000 notifications (quick: 200) with 10%
// duplicates, 5% forged signatures, 5% stale timestamps and 5% malformed bodies. Every genuine
// one is applied once, none of the others is applied, no answer is a 5xx, the process stays
// healthy. Genuine notifications are real changes at the emulator (edited days, deleted
// documents), signed as the service signs them; forged and stale ones point at documents that
// really changed upstream too, so applying one would show in the database.
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "@/lib/emulator/webhooks";
import { COLLECTIONS, TABLE_OF, openAppDb, waitFor, type Collection, SYNCED } from "./support/app-db";
import { collectionForWebhookDataType } from "@/lib/resources";
import { connect } from "./support/browser";
import { startChaosEmulator, type Emulator, type SyncEvent } from "./support/emulator";
import { ALLOWED_DOMAIN, CHAOS_CLIENT, pick } from "./support/env";
import { recordFigures, rng } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { findLeaks } from "./support/secrets";

const TOTAL = pick(200, 1000);
const HISTORY_DAYS = pick(90, 400);
const COUNTS = {
  duplicate: Math.round(TOTAL * 0.1),
  forged: Math.round(TOTAL * 0.05),
  stale: Math.round(TOTAL * 0.05),
  malformed: Math.round(TOTAL * 0.05),
};
const GENUINE = TOTAL - COUNTS.duplicate - COUNTS.forged - COUNTS.stale - COUNTS.malformed;
const GENUINE_DELETES = Math.round(GENUINE * 0.05);

type Kind = "genuine" | "duplicate" | "forged" | "stale" | "malformed";
type Outgoing = { kind: Kind; body: string; headers: Record<string, string>; event?: SyncEvent };

let emu: Emulator;
let app: ProdApp;
let db: Database.Database | undefined;

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 100, historyDays: HISTORY_DAYS });
  app = await startProdApp({ name: "webhook-abuse" });
});

afterAll(async () => {
  db?.close();
  await app?.stop();
  await emu?.close();
});

const now = () => Math.floor(clock.now() / 1000);

function signed(body: string, ts = String(now())): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-oura-timestamp": ts,
    "x-oura-signature": signWebhook(CHAOS_CLIENT.client_secret, ts, body),
  };
}

function forgedHeaders(body: string, random: () => number): Record<string, string> {
  const ts = String(now());
  const variants: Array<() => Record<string, string>> = [
    () => ({ "x-oura-timestamp": ts, "x-oura-signature": signWebhook("not-the-client-secret", ts, body) }),
    () => ({ "x-oura-timestamp": ts, "x-oura-signature": crypto.randomBytes(32).toString("hex").toUpperCase() }),
    () => ({ "x-oura-timestamp": ts, "x-oura-signature": signWebhook(CHAOS_CLIENT.client_secret, ts, body + " ") }),
    () => ({ "x-oura-timestamp": String(Number(ts) - 1), "x-oura-signature": signWebhook(CHAOS_CLIENT.client_secret, ts, body) }),
    () => ({ "x-oura-timestamp": ts }),
    () => ({ "x-oura-signature": signWebhook(CHAOS_CLIENT.client_secret, ts, body) }),
    () => ({ "x-oura-timestamp": ts, "x-oura-signature": signWebhook(CHAOS_CLIENT.client_secret, ts, body).slice(0, 63) }),
  ];
  return { "content-type": "application/json", ...variants[Math.floor(random() * variants.length)]!() };
}

function staleTimestamp(random: () => number): string {
  const r = random();
  if (r < 0.4) return String(now() - 301 - Math.floor(random() * 86_400)); // older than 5 minutes
  if (r < 0.7) return String(now() + 301 + Math.floor(random() * 86_400)); // from the future
  if (r < 0.85) return String((now() - 3_600) * 1000); // an hour old, in milliseconds
  return String(now() - 30 * 86_400);
}

/** Correctly signed bodies that are not a notification: not JSON, not an object, wrong or missing fields, too large. */
function malformedBodies(n: number, seed: number): string[] {
  const notification = fc.record({
    event_type: fc.constantFrom("create", "update", "delete"),
    data_type: fc.constantFrom("daily_sleep", "sleep"),
    object_id: fc.uuid(),
    event_time: fc.constant(clock.date().toISOString()),
    user_id: fc.string({ minLength: 1, maxLength: 20 }),
  });
  const broken = fc.oneof(
    fc.string().filter((s) => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    }),
    fc.constantFrom("", "{", "[]", "null", "42", '"create"', "{}", '{"event_type":"update"}'),
    fc
      .jsonValue()
      .filter((v) => v === null || typeof v !== "object" || Array.isArray(v))
      .map((v) => JSON.stringify(v)),
    notification.map((e) => JSON.stringify({ ...e, event_type: "upsert" })),
    notification.map((e) => JSON.stringify({ ...e, user_id: undefined })),
    notification.map((e) => JSON.stringify({ ...e, data_type: "" })),
    notification.map((e) => JSON.stringify({ ...e, data_type: 7 })),
    notification.map((e) => JSON.stringify({ ...e, object_id: { $ne: null } })),
    notification.map((e) => JSON.stringify({ ...e, user_id: "x".repeat(300) })),
    notification.map((e) => JSON.stringify({ ...e, padding: "x".repeat(70 * 1024) })),
  );
  return fc.sample(broken, { numRuns: n, seed });
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** The collection a notification is about (its data type: the collection's name, vo2_max for vO2_max). */
const isDocumentCollection = (c: string | null): boolean => c !== null && (COLLECTIONS as readonly string[]).includes(c);
const collectionOf = (e: { data_type: string }): Collection => collectionForWebhookDataType(e.data_type) as Collection;

describe("[CHAOS 2] webhook abuse", () => {
  it(`${TOTAL} notifications: every genuine one applied once, no forged, stale or malformed one applied, no 5xx`, async () => {
    const random = rng();
    const email = `hooks-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const ring = await emu.createUser(email, { history_days: HISTORY_DAYS });
    const { landed, browser } = await connect(email);
    expect(landed.pathname).toBe("/");
    db = openAppDb(app.dbFile);
    const { id: userId } = db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ring.user_id) as { id: string };
    await waitFor(
      "the backfill",
      () =>
        (db!.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(userId) as { n: number }).n === SYNCED.length,
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const rawOf = (c: Collection, key: string) =>
      (db!.prepare(`SELECT raw FROM "${TABLE_OF[c]}" WHERE userId = ? AND documentId = ?`).get(userId, key) as { raw: string } | undefined)?.raw ?? null;

    // Real changes upstream: edited days (update events), then deleted documents (delete events).
    const updates: SyncEvent[] = [];
    const needUpdates = GENUINE - GENUINE_DELETES + COUNTS.forged + COUNTS.stale;
    const firstDay = ring.first_day;
    const lastEditable = new Date(clock.now() - 20 * 86_400_000).toISOString().slice(0, 10); // outside the trailing re-check
    const days: string[] = [];
    for (let d = new Date(`${firstDay}T00:00:00Z`); d.toISOString().slice(0, 10) <= lastEditable; d.setUTCDate(d.getUTCDate() + 1))
      days.push(d.toISOString().slice(0, 10));
    const editedDays = new Set<string>();
    for (const day of days) {
      if (updates.length >= needUpdates) break;
      const r = await emu.sync(ring.user_id, day);
      editedDays.add(day);
      // Events of the document collections this app stores (their data types: the collection
      // names, vo2_max for vO2_max). A time series' notification is applied by reading its window
      // again, not by fetching one document, so it is not counted here.
      updates.push(...r.events.filter((e) => e.event_type !== "delete" && isDocumentCollection(collectionForWebhookDataType(e.data_type))));
    }
    expect(updates.length).toBeGreaterThanOrEqual(needUpdates);
    const deletes: SyncEvent[] = [];
    for (const c of ["daily_readiness", "daily_activity", "sleep"] as const) {
      const docs = (await emu.documents(ring.user_id, c)).filter((d) => !editedDays.has(String(d.day)));
      for (const d of docs.slice(0, Math.ceil((GENUINE_DELETES + 4) / 3))) deletes.push(...(await emu.deleteDocument(ring.user_id, c, String(d.id))).events);
    }
    const genuineEvents = shuffle([...updates.slice(0, GENUINE - GENUINE_DELETES), ...deletes.slice(0, GENUINE_DELETES)], random);
    const baitEvents = [...updates.slice(GENUINE - GENUINE_DELETES, needUpdates), ...deletes.slice(GENUINE_DELETES)];
    expect(genuineEvents.length).toBe(GENUINE);
    const genuineIds = new Set(genuineEvents.map((e) => `${e.data_type}|${e.object_id}`));
    // Bait that is also the object of a genuine notification would be applied by that one: leave it out.
    const bait = shuffle(
      baitEvents.filter((e) => !genuineIds.has(`${e.data_type}|${e.object_id}`)),
      random,
    );
    expect(bait.length).toBeGreaterThanOrEqual(COUNTS.forged + COUNTS.stale);
    const baitBefore = bait.map((e) => ({ e, raw: rawOf(collectionOf(e), e.object_id) }));
    expect(baitBefore.every((b) => b.raw !== null)).toBe(true);

    // The 1,000 (or 200) requests.
    const out: Outgoing[] = [];
    for (const e of genuineEvents) {
      const body = JSON.stringify(e);
      out.push({ kind: "genuine", body, headers: signed(body), event: e });
    }
    for (let i = 0; i < COUNTS.duplicate; i++) {
      const original = out[Math.floor(random() * GENUINE)]!;
      // half are replays of the very same request, half are the service's retries (fresh timestamp)
      out.push({ kind: "duplicate", body: original.body, headers: random() < 0.5 ? original.headers : signed(original.body), event: original.event });
    }
    for (const e of bait.slice(0, COUNTS.forged)) {
      const body = JSON.stringify(e);
      out.push({ kind: "forged", body, headers: forgedHeaders(body, random), event: e });
    }
    for (const e of bait.slice(COUNTS.forged, COUNTS.forged + COUNTS.stale)) {
      const body = JSON.stringify(e);
      out.push({ kind: "stale", body, headers: signed(body, staleTimestamp(random)), event: e });
    }
    for (const body of malformedBodies(COUNTS.malformed, Math.floor(random() * 2 ** 31))) out.push({ kind: "malformed", body, headers: signed(body) });
    expect(out.length).toBe(TOTAL);

    await emu.clearRequests();
    const order = shuffle(out, random);
    const answers: Array<{ kind: Kind; status: number; body: string }> = [];
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < order.length; i = next++) {
          const o = order[i]!;
          const res = await fetch(`${app.url}/api/webhooks/ring`, { method: "POST", headers: o.headers, body: o.body });
          answers.push({ kind: o.kind, status: res.status, body: await res.text() });
        }
      }),
    );
    const sendMs = performance.now() - started;

    // No 5xx; genuine and duplicates acknowledged; the rest refused with the error envelope.
    const byKind = (k: Kind) => answers.filter((a) => a.kind === k);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(byKind("genuine").every((a) => a.status === 200)).toBe(true);
    expect(byKind("duplicate").every((a) => a.status === 200)).toBe(true);
    for (const k of ["forged", "stale"] as const)
      expect(
        byKind(k)
          .map((a) => a.status)
          .filter((s) => s !== 401),
      ).toEqual([]);
    expect(
      byKind("malformed")
        .map((a) => a.status)
        .filter((s) => s !== 400 && s !== 413),
    ).toEqual([]);
    for (const a of answers.filter((x) => x.status >= 400)) {
      const parsed = JSON.parse(a.body) as { error?: { code?: unknown; message?: unknown } };
      expect(typeof parsed.error?.code).toBe("string");
      expect(typeof parsed.error?.message).toBe("string");
    }

    // Every genuine notification recorded once and applied.
    await waitFor(
      "every notification applied",
      () => (db!.prepare(`SELECT COUNT(*) AS n FROM webhook_event WHERE status = 'queued'`).get() as { n: number }).n === 0,
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const rows = db.prepare(`SELECT ringUserId, dataType, eventType, objectId, status, error FROM webhook_event`).all() as Array<{
      ringUserId: string;
      dataType: string;
      eventType: string;
      objectId: string;
      status: string;
      error: string | null;
    }>;
    expect(rows.length).toBe(GENUINE);
    expect(rows.filter((r) => r.status !== "applied").slice(0, 5)).toEqual([]);
    const recorded = new Set(rows.map((r) => `${r.dataType}|${r.objectId}|${r.eventType}`));
    expect(genuineEvents.filter((e) => !recorded.has(`${e.data_type}|${e.object_id}|${e.event_type}`))).toEqual([]);

    // Applied once: one fetch per genuine notification (a delete is applied only when the
    // service answers 404 for the document), none for anything else.
    const fetches = (await emu.requests({ kind: "data" })).filter((r) => /\/v2\/usercollection\/[A-Za-z_0-9]+\/[^/]+$/.test(r.path));
    const fetchCount = new Map<string, number>();
    for (const f of fetches) fetchCount.set(f.path, (fetchCount.get(f.path) ?? 0) + 1);
    for (const e of genuineEvents) {
      expect({
        type: e.data_type,
        event: e.event_type,
        id: e.object_id,
        fetches: fetchCount.get(`/v2/usercollection/${collectionOf(e)}/${e.object_id}`) ?? 0,
      }).toEqual({ type: e.data_type, event: e.event_type, id: e.object_id, fetches: 1 });
    }
    expect(fetches.length).toBe(genuineEvents.length);

    // The database: genuine changes in, genuine deletions out, bait untouched.
    const current = new Map<string, string>();
    for (const c of COLLECTIONS) for (const d of await emu.documents(ring.user_id, c)) current.set(`${c}|${String(d.id)}`, JSON.stringify(d));
    for (const e of genuineEvents) {
      const raw = rawOf(collectionOf(e), e.object_id);
      if (e.event_type === "delete") expect({ id: e.object_id, raw }).toEqual({ id: e.object_id, raw: null });
      else expect({ id: e.object_id, same: raw === current.get(`${collectionOf(e)}|${e.object_id}`) }).toEqual({ id: e.object_id, same: true });
    }
    const sentBait = baitBefore.slice(0, COUNTS.forged + COUNTS.stale);
    for (const b of sentBait) {
      expect({ id: b.e.object_id, unchanged: rawOf(collectionOf(b.e), b.e.object_id) === b.raw }).toEqual({ id: b.e.object_id, unchanged: true });
    }
    expect(sentBait.some((b) => b.raw !== current.get(`${collectionOf(b.e)}|${b.e.object_id}`))).toBe(true);

    // Still healthy, and still serving the person.
    expect((await app.request("/api/health")).status).toBe(200);
    expect((await browser.fetch("/api/me")).status).toBe(200);
    expect(app.logs()).not.toMatch(/"level":"error"/);
    expect(findLeaks(emu.issuedSecrets(), [app.dbFile, `${app.dbFile}-wal`, app.logFile])).toEqual([]);

    recordFigures("webhook-abuse", {
      notifications: TOTAL,
      genuine: GENUINE,
      genuineDeletes: GENUINE_DELETES,
      ...COUNTS,
      statuses: Object.fromEntries([...new Set(answers.map((a) => a.status))].map((s) => [s, answers.filter((a) => a.status === s).length])),
      applied: rows.length,
      fetches: fetches.length,
      baitApplied: 0,
      fiveXx: 0,
      sendMs,
    });
  });
});
