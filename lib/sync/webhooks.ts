import "server-only";
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { AppError } from "@/lib/http/errors";
import { readBody } from "@/lib/http/body";
import { resolveSecret } from "@/lib/secrets";
import { ringWebhookNotificationSchema } from "@/lib/ring/schemas";
import { collectionForWebhookDataType } from "@/lib/resources";
import { recordWebhookEvent, listQueuedWebhookEvents, markWebhookEvent, markWebhookEvents, type WebhookEventRow } from "@/lib/db/queries/webhook-events";
import { findUserIdByRingUserId } from "@/lib/db/queries/sync-state";
import { enqueueJob } from "@/lib/db/queries/jobs";
import { readSyncGeneration } from "@/lib/db/queries/sync-fence";
import { classifyError, type SyncEngine } from "@/lib/sync/engine";

// Inbound webhooks (facts §6.2–6.3), in the house order (HOUSE-STYLE §4.3.11):
//   raw body → size cap → HMAC signature (timing-safe, length first) → timestamp skew →
//   zod → one INSERT OR IGNORE (dedupe) → 200 at once.
// Fetching the document happens later, in the scheduler (drainWebhookEvents), so the
// receiver stays a few hundred microseconds of work per notification.

export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;
/** How much of an oversized notification is read and dropped at most (so the sender sees the 413). */
export const WEBHOOK_DRAIN_MAX_BYTES = 1024 * 1024;
export const MAX_TIMESTAMP_SKEW_S = 300;

/** Upper-case hex HMAC-SHA256(key = client secret, message = timestamp + raw body). */
export function signWebhookBody(secret: string, timestamp: string, rawBody: string | Buffer): string {
  return crypto.createHmac("sha256", secret).update(timestamp).update(rawBody).digest("hex").toUpperCase();
}

/** Compares the x-oura-signature header with the expected one: case-insensitive, timing-safe. */
export function verifyWebhookSignature(secret: string, timestamp: string, rawBody: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(signWebhookBody(secret, timestamp, rawBody), "utf8");
  const given = Buffer.from(signature.trim().toUpperCase(), "utf8");
  if (given.length !== expected.length) return false;
  return crypto.timingSafeEqual(given, expected);
}

/** x-oura-timestamp in seconds (milliseconds accepted too); null when it is not a number. */
export function parseWebhookTimestamp(value: string): number | null {
  if (!/^\d{1,16}(\.\d+)?$/.test(value.trim())) return null;
  const n = Number(value);
  return n > 1e11 ? n / 1000 : n;
}

export function webhookDedupeKey(e: { user_id: string; data_type: string; event_type: string; object_id?: string | null; event_time?: string | null }): string {
  return crypto
    .createHash("sha256")
    .update([e.user_id, e.data_type, e.event_type, e.object_id ?? "", e.event_time ?? ""].join("\u001f"))
    .digest("hex");
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
const errorJson = (status: number, code: string, message: string) => json({ error: { code, message } }, status);

export type WebhookReceiveOptions = {
  /** the key of the signature (the app's client secret) */
  secret?: string;
  nowMs?: number;
  /** called after a new notification was recorded */
  onRecorded?: () => void;
};

/** POST /api/webhooks/ring */
export async function receiveWebhook(req: Request, opts: WebhookReceiveOptions = {}): Promise<Response> {
  let body: Buffer;
  try {
    // Stops at 64 KB whatever content-length says (or without one): nothing more is kept.
    body = await readBody(req, { maxBytes: MAX_WEBHOOK_BODY_BYTES, drainMaxBytes: WEBHOOK_DRAIN_MAX_BYTES });
  } catch (err) {
    if (err instanceof AppError && err.code === "payload_too_large") {
      logger.warn({ capBytes: MAX_WEBHOOK_BODY_BYTES }, "webhook notification refused: body too large");
      const res = errorJson(413, "payload_too_large", "The notification is too large.");
      res.headers.set("connection", "close"); // the rest of the body was not read: no reuse
      return res;
    }
    throw err;
  }

  const signature = req.headers.get("x-oura-signature");
  const timestamp = req.headers.get("x-oura-timestamp");
  const secret = opts.secret ?? env.RING_CLIENT_SECRET;
  if (!secret || !signature || !timestamp || !verifyWebhookSignature(secret, timestamp, body, signature)) {
    return errorJson(401, "unauthorized", "The signature does not match.");
  }
  const ts = parseWebhookTimestamp(timestamp);
  const nowS = (opts.nowMs ?? clock.now()) / 1000;
  if (ts === null || Math.abs(nowS - ts) > MAX_TIMESTAMP_SKEW_S) {
    return errorJson(401, "unauthorized", "The notification is too old or from the future.");
  }

  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    return errorJson(400, "bad_request", "The body is not valid JSON.");
  }
  const parsed = ringWebhookNotificationSchema.safeParse(payload);
  if (!parsed.success) return errorJson(400, "bad_request", "The notification does not have the expected fields.");
  const e = parsed.data;

  const isNew = await recordWebhookEvent({
    dedupeKey: webhookDedupeKey(e),
    ringUserId: e.user_id,
    dataType: e.data_type,
    eventType: e.event_type,
    objectId: e.object_id ?? null,
    eventTime: e.event_time ?? null,
  });
  if (isNew) opts.onRecorded?.();
  // Unknown users and duplicates get the same answer: nothing leaks about who is here.
  return json({ status: "ok" }, 200);
}

/** GET /api/webhooks/ring?verification_token=…&challenge=… (subscription handshake). */
export function answerWebhookVerification(req: Request): Response {
  const url = new URL(req.url);
  const given = url.searchParams.get("verification_token") ?? "";
  const challenge = url.searchParams.get("challenge");
  const expected = resolveSecret("webhook-verification-token") ?? "";
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  if (!expected || !given || !crypto.timingSafeEqual(a, b) || !challenge || challenge.length > 512) {
    return errorJson(401, "unauthorized", "Unknown verification token.");
  }
  return json({ challenge }, 200);
}

// ---------------------------------------------------------------------------
// Worker: applies recorded notifications (called by the scheduler)
// ---------------------------------------------------------------------------

function eventKey(e: WebhookEventRow): string {
  return `${e.ringUserId}|${e.dataType}|${e.objectId ?? ""}`;
}

/**
 * `fromId`: the watermark that keeps the scans of the inbox short (its status has no index).
 * Nothing below it was queued when it was set; but an id is handed out when a notification's
 * insert begins and seen when it commits, so on PostgreSQL a burst of notifications can commit
 * out of order and one appear below ids already seen, and a look at the watermark can run
 * between two inserts. Each scan therefore starts WEBHOOK_SCAN_LOOKBACK ids below it (a range
 * of the primary key: cheap), and the scheduler's housekeeping clears it now and then.
 */
export type WebhookDrainState = { inflight: Set<string>; fromId?: number };

/** How far below the watermark every scan of the inbox starts again (ids). */
export const WEBHOOK_SCAN_LOOKBACK = 1024;

/** Where a scan of the inbox starts: the watermark less the lookback. */
export const webhookScanFrom = (state: WebhookDrainState): number => Math.max(0, (state.fromId ?? 0) - WEBHOOK_SCAN_LOOKBACK);

/**
 * Applies queued notifications: those about unknown people or data types Ringside does not
 * store are settled at once (no I/O); the rest are fetched by `limit` workers, one at a time
 * per document (so a delete never overtakes the create before it). Resolves when done.
 */
export async function drainWebhookEvents(
  engine: SyncEngine,
  state: WebhookDrainState,
  limit: number,
  batchSize = 500,
  /** filled with the people whose notifications were applied */
  touched?: Set<string>,
): Promise<number> {
  const queued = await listQueuedWebhookEvents(batchSize, [], webhookScanFrom(state));
  const users = new Map<string, string | undefined>();
  const ignored: Array<{ id: number; reason: string }> = [];
  const work: Array<{ e: WebhookEventRow; userId: string }> = [];
  const keys = new Set<string>();
  let leftQueued: number | null = null;
  for (const e of queued) {
    const k = eventKey(e);
    if (state.inflight.has(k) || keys.has(k)) {
      leftQueued ??= e.id;
      continue;
    }
    if (!users.has(e.ringUserId)) users.set(e.ringUserId, await findUserIdByRingUserId(e.ringUserId));
    const userId = users.get(e.ringUserId);
    if (!userId) ignored.push({ id: e.id, reason: "unknown user" });
    else if (!collectionForWebhookDataType(e.dataType)) ignored.push({ id: e.id, reason: "data type not stored" });
    else {
      keys.add(k);
      work.push({ e, userId });
    }
  }
  await markWebhookEvents(ignored, "ignored");
  for (const k of keys) state.inflight.add(k);
  const worker = async () => {
    for (let item = work.shift(); item; item = work.shift()) {
      try {
        await applyWebhookEvent(engine, item.e, item.userId);
        touched?.add(item.userId);
      } finally {
        state.inflight.delete(eventKey(item.e));
      }
    }
  };
  const total = ignored.length + work.length;
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  // Everything seen below the first one left queued (or past the batch) is settled now.
  const last = queued.at(-1);
  if (last) state.fromId = leftQueued ?? last.id + 1;
  return total;
}

async function applyWebhookEvent(engine: SyncEngine, e: WebhookEventRow, userId: string): Promise<void> {
  const collection = collectionForWebhookDataType(e.dataType);
  if (!collection) return markWebhookEvent(e.id, "ignored", "data type not stored");
  const eventType = e.eventType === "delete" ? "delete" : e.eventType === "update" ? "update" : "create";
  // The apply is a run of the person's sync: it starts with their sync generation, and nothing
  // of it (a document, a job) is stored once a delete moved it on (lib/db/queries/sync-fence.ts).
  const at = await readSyncGeneration(userId);
  if (!at || at.paused) return markWebhookEvent(e.id, "ignored", "the person's sync is stopped");
  const { generation } = at;
  if (!e.objectId) {
    // Nothing to fetch by id: re-check the collection's recent days instead.
    await enqueueJob({ kind: "incremental", userId, collection, ifAbsent: true, generation });
    return markWebhookEvent(e.id, "ignored", "no object_id; recent days re-checked");
  }
  try {
    const result = await engine.applyDocumentEvent({ userId, collection, eventType, objectId: e.objectId }, { generation });
    await markWebhookEvent(e.id, result);
  } catch (err) {
    const c = classifyError(err);
    const message = err instanceof Error ? err.message : String(err);
    await markWebhookEvent(e.id, c.kind === "paused" || c.kind === "stop" || c.kind === "stopped" ? "ignored" : "failed", message);
    if (c.kind === "retry" || c.kind === "postpone") {
      // The trailing-window re-check picks the change up (and any delete) once possible.
      await enqueueJob({
        kind: "incremental",
        userId,
        collection,
        runAt: c.kind === "postpone" ? c.until : clock.now() + 60_000,
        ifAbsent: true,
        generation,
      });
    }
    if (c.kind === "stopped") logger.info({ eventId: e.id, dataType: e.dataType }, "webhook notification dropped: the person's sync was stopped");
    else logger.warn({ eventId: e.id, dataType: e.dataType, kind: c.kind }, "webhook notification could not be applied");
  }
}
