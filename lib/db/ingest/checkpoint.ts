import "server-only";
import { clock } from "@/lib/clock";
import { PATCHABLE, type SyncStatePatch } from "@/lib/db/queries/sync-state";
import { dbTime, get, ident, run, statement, type IngestValue, type Statement, type Work } from "./driver";
import { bumpDataVersion } from "./fence";

// A backfill page's checkpoint: its collection's SyncState row updated in the page's transaction,
// so a crash at any point resumes with no gap and no duplicate. It only updates the row (only
// lib/db/queries/sync-state.ts ensureSyncStates creates one): a row a delete removed stays removed.
// A paused collection (its account disconnected or needing a reconnect) stays paused: a page of a
// sync that was already running when it was paused must not mark it idle or backfilling again.

const NEWEST_DAY = statement("sync_state_newest_day", {
  sqlite: `SELECT "newestDay" FROM sync_state WHERE "userId" = ? AND collection = ?`,
  postgres: `SELECT "newestDay" FROM sync_state WHERE "userId" = $1 AND collection = $2`,
});

const updates = new Map<string, Statement>();

/** The UPDATE of these fields (sorted, of PATCHABLE), made once per set of fields. */
function updateOf(keys: readonly string[]): Statement {
  const name = keys.join(",");
  let st = updates.get(name);
  if (!st) {
    const sets = (p: (i: number) => string) => [
      ...keys.map((k, i) => (k === "status" ? `status = CASE WHEN sync_state.status = 'paused' THEN 'paused' ELSE ${p(i)} END` : `${ident(k)} = ${p(i)}`)),
      `"updatedAt" = ${p(keys.length)}`,
    ];
    const n = keys.length;
    st = statement(`checkpoint_${keys.join("_")}`, {
      sqlite: `UPDATE sync_state SET ${sets(() => "?").join(", ")} WHERE "userId" = ? AND collection = ?`,
      postgres: `UPDATE sync_state SET ${sets((i) => `$${i + 1}`).join(", ")} WHERE "userId" = $${n + 2} AND collection = $${n + 3}`,
    });
    updates.set(name, st);
  }
  return st;
}

/** Updates some fields of the collection's row, as a step of the page's transaction; false when there is no row. */
export function* checkpointWrite(userId: string, collection: string, patch: SyncStatePatch): Work<boolean> {
  const keys = Object.keys(patch)
    .filter((k) => PATCHABLE.has(k))
    .sort();
  const values = keys.map((k): IngestValue => {
    const v: unknown = Reflect.get(patch, k);
    return v instanceof Date ? dbTime(v) : typeof v === "string" || typeof v === "number" ? v : null;
  });
  // the calendar's "not yet synced" reads newestDay: a new one changes answers. The person's row
  // is written before the sync state's (on PostgreSQL the other order deadlocks against a page).
  const before = "newestDay" in patch ? yield* get<{ newestDay: string | null }>(NEWEST_DAY, userId, collection) : undefined;
  if (before && (before.newestDay ?? null) !== (patch.newestDay ?? null)) yield* bumpDataVersion(userId);
  return (yield* run(updateOf(keys), ...values, dbTime(clock.date()), userId, collection)) > 0;
}
