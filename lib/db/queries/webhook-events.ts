import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type ProcessDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { processSingleton } from "@/lib/process-singleton";

// Webhook notifications as received. The receiver's hot path is one insert; a duplicate
// (dedupeKey unique) changes nothing and is acknowledged. One contract (`WebhookEventStore`),
// one implementation on Prisma Client, held to the same tests on both databases
// (lib/db/queries/webhook-events.test.ts).

export type WebhookEventInput = {
  dedupeKey: string;
  ringUserId: string;
  dataType: string;
  eventType: string;
  objectId: string | null;
  eventTime: string | null;
};

/** A stored notification (its status "queued", "applied", "ignored" or "failed"). */
export type WebhookEventRow = Prisma.WebhookEventModel;

export type SettledStatus = "applied" | "ignored" | "failed";

export interface WebhookEventStore {
  /** Records a notification; false when the same notification was recorded before. */
  record(e: WebhookEventInput): Promise<boolean>;
  /**
   * The oldest notifications still waiting to be applied, from id `fromId` on (status has no
   * index: the caller keeps a watermark below which nothing is queued, so the scan is short).
   */
  listQueued(limit: number, excludeIds?: number[], fromId?: number): Promise<WebhookEventRow[]>;
  /** The id of the oldest queued notification from `fromId` on, or null; and the newest id of all. */
  watermark(fromId?: number): Promise<{ firstQueuedId: number | null; maxId: number }>;
  mark(id: number, status: SettledStatus, error?: string): Promise<void>;
  /** Settles many notifications at once (one statement per distinct reason, in one transaction). */
  markMany(rows: Array<{ id: number; reason: string }>, status: SettledStatus): Promise<void>;
  /** Forgets processed notifications received before `before`. */
  prune(before: number): Promise<number>;
}

/** The inbox on a database (by default the process's). */
export function webhookEventStore(db: ProcessDb = prisma()): WebhookEventStore {
  return {
    async record(e) {
      try {
        await db.webhookEvent.create({ data: { ...e, receivedAt: clock.date(), status: "queued" }, select: { id: true } });
        return true;
      } catch (err) {
        // the same notification again (dedupeKey unique): acknowledged, nothing changes
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return false;
        throw err;
      }
    },

    listQueued(limit, excludeIds = [], fromId = 0) {
      return db.webhookEvent.findMany({ where: { id: { gte: fromId, notIn: excludeIds }, status: "queued" }, orderBy: { id: "asc" }, take: limit });
    },

    async watermark(fromId = 0) {
      const [first, all] = await Promise.all([
        db.webhookEvent.findFirst({ where: { id: { gte: fromId }, status: "queued" }, select: { id: true }, orderBy: { id: "asc" } }),
        db.webhookEvent.aggregate({ _max: { id: true } }),
      ]);
      return { firstQueuedId: first?.id ?? null, maxId: all._max.id ?? 0 };
    },

    async mark(id, status, error) {
      await db.webhookEvent.updateMany({ where: { id }, data: { status, error: error?.slice(0, 500) ?? null, processedAt: clock.date() } });
    },

    async markMany(rows, status) {
      if (rows.length === 0) return;
      const processedAt = clock.date();
      const byReason = new Map<string, number[]>();
      for (const r of rows) {
        const reason = r.reason.slice(0, 500);
        byReason.set(reason, [...(byReason.get(reason) ?? []), r.id]);
      }
      await db.$transaction(async (tx) => {
        for (const [error, ids] of byReason) await tx.webhookEvent.updateMany({ where: { id: { in: ids } }, data: { status, error, processedAt } });
      });
    },

    async prune(before) {
      return (await db.webhookEvent.deleteMany({ where: { status: { not: "queued" }, receivedAt: { lt: new Date(before) } } })).count;
    },
  };
}

// The process's inbox.
const store = (): WebhookEventStore => processSingleton("webhookEventStore", () => webhookEventStore());

export const recordWebhookEvent = (e: WebhookEventInput) => store().record(e);
export const listQueuedWebhookEvents = (limit: number, excludeIds?: number[], fromId?: number) => store().listQueued(limit, excludeIds, fromId);
export const queuedWebhookWatermark = (fromId?: number) => store().watermark(fromId);
export const markWebhookEvent = (id: number, status: SettledStatus, error?: string) => store().mark(id, status, error);
export const markWebhookEvents = (rows: Array<{ id: number; reason: string }>, status: SettledStatus) => store().markMany(rows, status);
export const pruneWebhookEvents = (before: number) => store().prune(before);
