import "server-only";
import { clock } from "@/lib/clock";
import { toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction } from "@/lib/db/sql";
import { bumpDataVersion } from "@/lib/db/queries/data-version";

// Home Assistant over MQTT (prisma/schema.prisma HomeAssistantPublish and HomeAssistantRetraction):
// who publishes which data kinds, and the devices whose retained messages at the broker are still
// to be emptied. Rows in, rows out. Every change moves the person's data version in its
// transaction: that is the publisher's signal (lib/db/data-changes.ts) to publish or empty.

export type HomeAssistantPublishRow = { enabled: boolean; kinds: string };

export type PublishingPerson = { userId: string; name: string | null; email: string | null; kinds: string };

/** The person's setting as stored (kinds: JSON text), or null when they never changed it. */
export async function findHomeAssistantPublish(userId: string): Promise<HomeAssistantPublishRow | null> {
  const row = await query(get<{ enabled: number | boolean; kinds: string }>(`SELECT enabled, kinds FROM home_assistant_publish WHERE userId = ?`, userId));
  return row ? { enabled: Boolean(row.enabled), kinds: row.kinds } : null;
}

/** One person who publishes, with what their device is named after; null when they do not (or are gone). */
export async function findPublishingPerson(userId: string): Promise<PublishingPerson | null> {
  const row = await query(
    get<PublishingPerson>(
      `SELECT u.id AS userId, u.name, u.email, h.kinds FROM home_assistant_publish h JOIN "User" u ON u.id = h.userId WHERE h.userId = ? AND h.enabled = ?`,
      userId,
      true,
    ),
  );
  return row ?? null;
}

/** Everyone who publishes. */
export function listPublishingPeople(): Promise<PublishingPerson[]> {
  return query(
    all<PublishingPerson>(
      `SELECT u.id AS userId, u.name, u.email, h.kinds FROM home_assistant_publish h JOIN "User" u ON u.id = h.userId WHERE h.enabled = ? ORDER BY u.id`,
      true,
    ),
  );
}

/**
 * Stores the person's setting. Turned off, their device joins the retractions (its retained
 * messages are to be emptied); turned on, a pending retraction of it is dropped.
 */
export function saveHomeAssistantPublish(userId: string, nodeId: string, setting: HomeAssistantPublishRow): Promise<void> {
  const now = toDbTime(clock.date());
  return transaction(function* () {
    yield* run(
      `INSERT INTO home_assistant_publish (userId, enabled, kinds, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(userId) DO UPDATE SET enabled = excluded.enabled, kinds = excluded.kinds, updatedAt = excluded.updatedAt`,
      userId,
      setting.enabled,
      setting.kinds,
      now,
      now,
    );
    if (setting.enabled) yield* run(`DELETE FROM home_assistant_retraction WHERE nodeId = ?`, nodeId);
    else yield* retractionInsert(nodeId, now);
    yield* bumpDataVersion(userId);
  });
}

/**
 * Ends the person's publishing for good (their data deleted, or they are removed): the setting goes,
 * and their device joins the retractions when it ever published. True when it did.
 */
export function endHomeAssistantPublish(userId: string, nodeId: string): Promise<boolean> {
  const now = toDbTime(clock.date());
  return transaction(function* () {
    const removed = yield* run(`DELETE FROM home_assistant_publish WHERE userId = ?`, userId);
    if (removed === 0) return false;
    yield* retractionInsert(nodeId, now);
    yield* bumpDataVersion(userId);
    return true;
  });
}

function retractionInsert(nodeId: string, now: string) {
  return run(`INSERT INTO home_assistant_retraction (nodeId, createdAt) VALUES (?, ?) ON CONFLICT(nodeId) DO NOTHING`, nodeId, now);
}

/** The devices whose retained messages are still to be emptied. */
export async function listHomeAssistantRetractions(): Promise<string[]> {
  return (await query(all<{ nodeId: string }>(`SELECT nodeId FROM home_assistant_retraction ORDER BY createdAt, nodeId`))).map((r) => r.nodeId);
}

/** Whether the device's retained messages are still to be emptied. */
export async function hasHomeAssistantRetraction(nodeId: string): Promise<boolean> {
  return (await query(get<{ nodeId: string }>(`SELECT nodeId FROM home_assistant_retraction WHERE nodeId = ?`, nodeId))) !== undefined;
}

/** The device's retained messages are emptied. */
export async function deleteHomeAssistantRetraction(nodeId: string): Promise<void> {
  await query(run(`DELETE FROM home_assistant_retraction WHERE nodeId = ?`, nodeId));
}
