// Integration: the webhook inbox's watermark is a hint, never a wall. A notification that shows
// up below ids the drain has already passed (on PostgreSQL an insert that commits after a later
// one; a look at the inbox that ran between two inserts) is still applied: by the next drain,
// and, however far below it lies, by the scheduler after its next housekeeping pass. On both
// databases. No ring service: the notifications are about a ring account nobody here has, which
// the drain settles as "ignored" without a request.
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { clock, ManualClock, setClock } from "@/lib/clock";
import { onPostgres, sqlRun, sqlValue } from "@/lib/test/sql";
import { waitFor } from "@/lib/test/wait";

let m: {
  webhooks: typeof import("@/lib/sync/webhooks");
  inbox: typeof import("@/lib/db/queries/webhook-events");
  scheduler: typeof import("@/lib/sync/scheduler");
  engine: typeof import("@/lib/sync/engine");
  client: typeof import("@/lib/db/client");
};

beforeAll(async () => {
  m = {
    webhooks: await import("@/lib/sync/webhooks"),
    inbox: await import("@/lib/db/queries/webhook-events"),
    scheduler: await import("@/lib/sync/scheduler"),
    engine: await import("@/lib/sync/engine"),
    client: await import("@/lib/db/client"),
  };
});

afterEach(async () => {
  await m.scheduler.replaceScheduler(null);
  setClock(undefined);
});

const HOUR = 3_600_000;

let seq = 0;
const notification = () => {
  const n = ++seq;
  return { dedupeKey: `wm-${n}`, ringUserId: "ring-nobody", dataType: "daily_sleep", eventType: "update", objectId: `doc-${n}`, eventTime: null };
};

const statusOf = (id: number) => sqlValue<string>("SELECT status FROM webhook_event WHERE id = ?", id);
const idOf = async (dedupeKey: string) => Number(await sqlValue("SELECT id FROM webhook_event WHERE dedupeKey = ?", dedupeKey));

/** Inserts a notification with the id given (queued unless said otherwise). */
async function insertWithId(id: number, e: ReturnType<typeof notification>, status = "queued") {
  await sqlRun(
    "INSERT INTO webhook_event (id, dedupeKey, ringUserId, dataType, eventType, objectId, eventTime, receivedAt, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    e.dedupeKey,
    e.ringUserId,
    e.dataType,
    e.eventType,
    e.objectId,
    e.eventTime,
    (await onPostgres()) ? clock.date().toISOString() : clock.now(),
    status,
  );
}

describe("the webhook inbox's watermark", () => {
  it("a notification that commits after a later one is still applied by the next drain", async () => {
    const engine = new m.engine.SyncEngine();
    const state = { inflight: new Set<string>() };
    const early = notification();
    const late = notification();
    // The early notification's id is handed out first, but it is seen only after the drain passed the later one.
    let earlyId: number;
    let commitEarly: () => Promise<void>;
    if (await onPostgres()) {
      // PostgreSQL: the early insert commits last
      const conn = await (await m.client.postgresPool()).connect();
      // however the test ends, the connection goes back (rolled back if it never committed)
      onTestFinished(async () => {
        await conn.query("ROLLBACK").catch(() => undefined);
        conn.release();
      });
      await conn.query("BEGIN");
      const row = await conn.query<{ id: number }>(
        `INSERT INTO webhook_event ("dedupeKey", "ringUserId", "dataType", "eventType", "objectId", "receivedAt", status) VALUES ($1, $2, $3, $4, $5, now(), 'queued') RETURNING id`,
        [early.dedupeKey, early.ringUserId, early.dataType, early.eventType, early.objectId],
      );
      earlyId = Number(row.rows[0]!.id);
      commitEarly = async () => void (await conn.query("COMMIT"));
    } else {
      // SQLite has one writer, so its ids commit in order: the same view is planted (an id
      // taken by a settled placeholder, given to the early notification once the drain passed)
      const placeholder = notification();
      await m.inbox.recordWebhookEvent(placeholder);
      earlyId = await idOf(placeholder.dedupeKey);
      await sqlRun("UPDATE webhook_event SET status = 'applied' WHERE id = ?", earlyId);
      commitEarly = async () => {
        await sqlRun("DELETE FROM webhook_event WHERE id = ?", earlyId);
        await insertWithId(earlyId, early);
      };
    }
    expect(await m.inbox.recordWebhookEvent(late)).toBe(true);
    expect(earlyId).toBeLessThan(await idOf(late.dedupeKey));
    expect(await m.webhooks.drainWebhookEvents(engine, state, 4)).toBe(1);
    expect(await statusOf(await idOf(late.dedupeKey))).toBe("ignored");
    await commitEarly();
    expect(await statusOf(earlyId)).toBe("queued");
    expect(await m.webhooks.drainWebhookEvents(engine, state, 4)).toBe(1);
    expect(await statusOf(earlyId)).toBe("ignored");
  });

  it("the scheduler applies a notification far below its watermark after its next housekeeping pass", async () => {
    // A notification with a high id, settled by the scheduler: its watermark moves past it.
    const high = 50_000;
    await insertWithId(high, notification(), "applied");
    if (await onPostgres()) await sqlValue("SELECT setval(pg_get_serial_sequence('webhook_event', 'id'), ?)", high);
    const first = notification();
    expect(await m.inbox.recordWebhookEvent(first)).toBe(true);
    const scheduler = new m.scheduler.Scheduler(new m.engine.SyncEngine(), { housekeepingMs: HOUR, idleMs: 50 });
    await m.scheduler.replaceScheduler(scheduler);
    await waitFor("the first notification settled", async () => (await statusOf(await idOf(first.dedupeKey))) === "ignored");
    // One appears further below it than a scan looks back, then a later one arrives:
    const lowId = high - m.webhooks.WEBHOOK_SCAN_LOOKBACK - 500;
    await insertWithId(lowId, notification());
    const later = notification();
    expect(await m.inbox.recordWebhookEvent(later)).toBe(true);
    m.scheduler.wakeScheduler();
    // the later one is applied and the low one passed over …
    await waitFor("the later notification settled", async () => (await statusOf(await idOf(later.dedupeKey))) === "ignored");
    expect(await statusOf(lowId)).toBe("queued");
    expect(scheduler.housekeepingRuns).toBe(1);
    // … until the next housekeeping pass (an hour on) looks at the whole inbox again.
    setClock(new ManualClock(clock.now() + HOUR));
    m.scheduler.wakeScheduler();
    await waitFor("the low notification settled", async () => (await statusOf(lowId)) === "ignored");
    expect(scheduler.housekeepingRuns).toBe(2);
  });
});
