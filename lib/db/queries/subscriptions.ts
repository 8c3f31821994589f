import "server-only";
import { clock } from "@/lib/clock";
import { prisma } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// Webhook subscriptions Ringside holds at the ring service (one per event type × data type).

export type WebhookSubscriptionStatus = "active" | "expired" | "error";

/** A stored subscription (its status one of WebhookSubscriptionStatus, as written below). */
export type WebhookSubscriptionRow = Prisma.WebhookSubscriptionModel;

export function listWebhookSubscriptions(): Promise<WebhookSubscriptionRow[]> {
  return prisma().webhookSubscription.findMany({ orderBy: [{ dataType: "asc" }, { eventType: "asc" }] });
}

/** Saves what the service answered for one (event type, data type) pair. */
export async function saveWebhookSubscription(s: {
  id: string;
  callbackUrl: string;
  eventType: string;
  dataType: string;
  expirationTime: string;
  status: WebhookSubscriptionStatus;
  lastError?: string | null;
}): Promise<void> {
  const row = { ...s, lastError: s.lastError ?? null, updatedAt: clock.date() };
  await prisma().$transaction(async (tx) => {
    await tx.webhookSubscription.deleteMany({ where: { eventType: s.eventType, dataType: s.dataType, id: { not: s.id } } });
    await tx.webhookSubscription.upsert({ where: { id: s.id }, create: row, update: row });
  });
}

export async function markWebhookSubscription(id: string, status: WebhookSubscriptionStatus, lastError: string | null): Promise<void> {
  await prisma().webhookSubscription.updateMany({ where: { id }, data: { status, lastError: lastError?.slice(0, 500) ?? null, updatedAt: clock.date() } });
}
