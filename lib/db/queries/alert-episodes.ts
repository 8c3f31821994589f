import "server-only";
import { clock } from "@/lib/clock";
import { prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { DELIVERY, deliveryData, EPISODE, toDelivery } from "@/lib/db/queries/alert-records";
import {
  episodeFields,
  type AlertDeliveryRow,
  type AlertEpisodeRow,
  type DeliveryStatus,
  type DueDelivery,
  type NewDelivery,
  type NewEpisode,
} from "@/lib/db/queries/alert-rows";

// The alert episodes and their deliveries (prisma/schema.prisma "Alerts and digests"): each change to an
// episode and its deliveries in one transaction, the deliveries claimed by one worker at a time. The
// settings, rules and channels are in alerts.ts.

// ---------------------------------------------------------------------------------------
// Episodes
// ---------------------------------------------------------------------------------------

export function listOpenEpisodes(userId: string): Promise<AlertEpisodeRow[]> {
  return prisma().alertEpisode.findMany({ where: { userId, endedAt: null }, select: EPISODE, orderBy: { id: "asc" } });
}

export async function episodeExists(dedupeKey: string): Promise<boolean> {
  return (await prisma().alertEpisode.findUnique({ where: { dedupeKey }, select: { id: true } })) !== null;
}

/** The episode and its deliveries in one transaction (one nested create); null when the dedupeKey is taken. */
export async function openEpisode(e: NewEpisode, deliveries: NewDelivery[], firstAttemptAt: Date): Promise<AlertEpisodeRow | null> {
  const now = clock.date();
  try {
    return await prisma().alertEpisode.create({
      data: {
        ...episodeFields(e),
        deliveries: {
          create: deliveries.map((d) => ({
            userId: e.userId,
            ...deliveryData(d),
            status: "pending",
            attempts: 0,
            nextAttemptAt: firstAttemptAt,
            createdAt: now,
            updatedAt: now,
          })),
        },
      },
      select: EPISODE,
    });
  } catch (err) {
    // the dedupeKey is unique: an episode open already (or a digest sent for the slot) writes nothing
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return null;
    throw err;
  }
}

export async function touchEpisode(id: number, at: Date): Promise<void> {
  await prisma().alertEpisode.updateMany({ where: { id, endedAt: null }, data: { lastSeenAt: at } });
}

export async function endEpisode(id: number, at: Date): Promise<void> {
  await prisma().alertEpisode.updateMany({ where: { id, endedAt: null }, data: { endedAt: at, lastSeenAt: at, dedupeKey: null } });
}

// ---------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------

const WITH_EPISODE = { ...DELIVERY, episode: { select: { kind: true, key: true, startedAt: true, endedAt: true } } } as const;

/**
 * Takes up to `limit` due deliveries (each gets one more attempt and a lease until
 * `leaseUntil`). Several processes may claim at once (PostgreSQL): each delivery is taken by one,
 * since a row is only taken while it is still due — the update's own condition, which PostgreSQL
 * evaluates again on a row another claim changed meanwhile, after that claim commits (and then
 * leaves it alone). On SQLite the transaction is IMMEDIATE: one claim at a time.
 */
export function claimDueDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
  return prisma().$transaction(async (tx) => {
    const due = { status: "pending", nextAttemptAt: { lte: now } };
    const candidates = await tx.alertDelivery.findMany({ where: due, select: { id: true }, orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }], take: limit });
    const claimed: DueDelivery[] = [];
    for (const { id } of candidates) {
      const taken = await tx.alertDelivery.updateMany({
        where: { id, ...due },
        data: { attempts: { increment: 1 }, nextAttemptAt: leaseUntil, updatedAt: clock.date() },
      });
      if (taken.count !== 1) continue;
      const r = await tx.alertDelivery.findUnique({ where: { id }, select: WITH_EPISODE });
      if (!r) continue;
      const { episode, ...delivery } = r;
      claimed.push({ ...toDelivery(delivery), episode: episode && { kind: episode.kind, key: episode.key, startedAt: episode.startedAt } });
    }
    return claimed;
  });
}

export async function finishDelivery(
  id: number,
  outcome: { status: DeliveryStatus; nextAttemptAt: Date | null; lastError: string | null; sentAt: Date | null },
): Promise<void> {
  await prisma().alertDelivery.updateMany({ where: { id }, data: { ...outcome, updatedAt: clock.date() } });
}

export async function recordDelivery(
  userId: string,
  d: NewDelivery,
  outcome: { status: DeliveryStatus; lastError: string | null; sentAt: Date | null; at: Date },
): Promise<AlertDeliveryRow> {
  const row = await prisma().alertDelivery.create({
    data: {
      userId,
      episodeId: null,
      ...deliveryData(d),
      status: outcome.status,
      attempts: 1,
      lastError: outcome.lastError,
      sentAt: outcome.sentAt,
      createdAt: outcome.at,
      updatedAt: clock.date(),
    },
    select: DELIVERY,
  });
  return toDelivery(row);
}

export type AlertHistoryRow = AlertDeliveryRow & { episode: { kind: string; key: string; startedAt: Date; endedAt: Date | null } | null };

/** The person's newest deliveries, newest first. */
export async function listAlertHistory(userId: string, limit: number): Promise<AlertHistoryRow[]> {
  const rows = await prisma().alertDelivery.findMany({
    where: { userId },
    select: WITH_EPISODE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(({ episode, ...d }) => ({ ...toDelivery(d), episode }));
}

/**
 * Keeps each person's newest `keep` deliveries younger than `before` (pending ones always
 * stay), then removes ended episodes left without deliveries. Returns the deliveries removed.
 */
export function pruneAlertHistory(opts: { before: Date; keep: number }): Promise<number> {
  const { before } = opts;
  return prisma().$transaction(async (tx) => {
    let removed = (await tx.alertDelivery.deleteMany({ where: { createdAt: { lt: before }, status: { not: "pending" } } })).count;
    const people = await tx.alertDelivery.groupBy({ by: ["userId"], _count: { _all: true } });
    for (const p of people) {
      if (p._count._all <= opts.keep) continue;
      const newestFirst = await tx.alertDelivery.findMany({
        where: { userId: p.userId },
        select: { id: true, status: true },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      });
      const old = newestFirst.slice(opts.keep).filter((d) => d.status !== "pending");
      if (old.length > 0) removed += (await tx.alertDelivery.deleteMany({ where: { id: { in: old.map((d) => d.id) } } })).count;
    }
    await tx.alertEpisode.deleteMany({ where: { endedAt: { not: null }, startedAt: { lt: before }, deliveries: { none: {} } } });
    return removed;
  });
}
