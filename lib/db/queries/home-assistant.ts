import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type Db } from "@/lib/db/prisma";
import { bumpDataVersion } from "@/lib/db/queries/data-version";

// Home Assistant over MQTT (prisma/schema.prisma HomeAssistantPublish and HomeAssistantRetraction):
// who publishes which data kinds, and the devices whose retained messages at the broker are still
// to be emptied. Rows in, rows out. Every change moves the person's data version in its
// transaction: that is the publisher's signal (lib/db/data-changes.ts) to publish or empty.

export type HomeAssistantPublishRow = { enabled: boolean; kinds: string };

export type PublishingPerson = { userId: string; name: string | null; email: string | null; kinds: string };

/** The person's setting as stored (kinds: JSON text), or null when they never changed it. */
export function findHomeAssistantPublish(userId: string): Promise<HomeAssistantPublishRow | null> {
  return prisma().homeAssistantPublish.findUnique({ where: { userId }, select: { enabled: true, kinds: true } });
}

const PERSON = { kinds: true, user: { select: { id: true, name: true, email: true } } } as const;
const asPerson = (row: { kinds: string; user: { id: string; name: string | null; email: string | null } }): PublishingPerson => ({
  userId: row.user.id,
  name: row.user.name,
  email: row.user.email,
  kinds: row.kinds,
});

/** One person who publishes, with what their device is named after; null when they do not (or are gone). */
export async function findPublishingPerson(userId: string): Promise<PublishingPerson | null> {
  const row = await prisma().homeAssistantPublish.findFirst({ where: { userId, enabled: true }, select: PERSON });
  return row && asPerson(row);
}

/** Everyone who publishes. */
export async function listPublishingPeople(): Promise<PublishingPerson[]> {
  return (await prisma().homeAssistantPublish.findMany({ where: { enabled: true }, select: PERSON, orderBy: { userId: "asc" } })).map(asPerson);
}

/**
 * Stores the person's setting. Turned off, their device joins the retractions (its retained
 * messages are to be emptied); turned on, a pending retraction of it is dropped.
 */
export function saveHomeAssistantPublish(userId: string, nodeId: string, setting: HomeAssistantPublishRow): Promise<void> {
  const now = clock.date();
  return prisma().$transaction(async (tx) => {
    // first the person's setting row (on PostgreSQL its lock orders two changes of one person, and so their retractions)
    await tx.homeAssistantPublish.upsert({
      where: { userId },
      create: { userId, enabled: setting.enabled, kinds: setting.kinds, createdAt: now, updatedAt: now },
      update: { enabled: setting.enabled, kinds: setting.kinds, updatedAt: now },
      select: { userId: true },
    });
    if (setting.enabled) await tx.homeAssistantRetraction.deleteMany({ where: { nodeId } });
    else await retractionAdd(tx, nodeId, now);
    await bumpDataVersion(tx, userId);
  });
}

/**
 * Ends the person's publishing for good (their data deleted, or they are removed): the setting goes,
 * and their device joins the retractions when it ever published. True when it did.
 */
export function endHomeAssistantPublish(userId: string, nodeId: string): Promise<boolean> {
  const now = clock.date();
  return prisma().$transaction(async (tx) => {
    if ((await tx.homeAssistantPublish.deleteMany({ where: { userId } })).count === 0) return false;
    await retractionAdd(tx, nodeId, now);
    await bumpDataVersion(tx, userId);
    return true;
  });
}

/** The device joins the retractions, unless it is there already (a step of a transaction that changed the person's setting row first). */
async function retractionAdd(tx: Db, nodeId: string, now: Date): Promise<void> {
  if (await tx.homeAssistantRetraction.findUnique({ where: { nodeId }, select: { nodeId: true } })) return;
  await tx.homeAssistantRetraction.create({ data: { nodeId, createdAt: now }, select: { nodeId: true } });
}

/** The devices whose retained messages are still to be emptied. */
export async function listHomeAssistantRetractions(): Promise<string[]> {
  const rows = await prisma().homeAssistantRetraction.findMany({ select: { nodeId: true }, orderBy: [{ createdAt: "asc" }, { nodeId: "asc" }] });
  return rows.map((r) => r.nodeId);
}

/** Whether the device's retained messages are still to be emptied. */
export async function hasHomeAssistantRetraction(nodeId: string): Promise<boolean> {
  return (await prisma().homeAssistantRetraction.findUnique({ where: { nodeId }, select: { nodeId: true } })) !== null;
}

/** The device's retained messages are emptied. */
export async function deleteHomeAssistantRetraction(nodeId: string): Promise<void> {
  await prisma().homeAssistantRetraction.deleteMany({ where: { nodeId } });
}
