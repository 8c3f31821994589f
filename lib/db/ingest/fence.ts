import "server-only";
import { announceDataChange } from "@/lib/db/data-changes";
import { SyncStoppedError } from "@/lib/db/queries/sync-fence";
import { get, ingestTransaction, run, statement, type Work } from "./driver";

// The person's rows a page's transaction reads and writes besides its data: the sync generation
// (issue 50's fence, lib/db/queries/sync-fence.ts: the same statement and lock as Prisma Client's
// form), cycle tracking (a page of the cycle's phases is stored only while the person tracks)
// and the data version.

// On PostgreSQL the check holds the person's row for key share until the page commits: a delete
// (which takes it FOR UPDATE) waits for the page and removes what it stored.
const GENERATION = statement("generation", {
  sqlite: `SELECT "syncGeneration" AS g FROM "User" WHERE id = ?`,
  postgres: `SELECT "syncGeneration" AS g FROM "User" WHERE id = $1 FOR KEY SHARE`,
});

/** Throws SyncStoppedError (rolling the page back) unless the person's sync generation is still `generation` (the page's first statement). */
export function* checkSyncGeneration(userId: string, generation: number): Work<void> {
  const row = yield* get<{ g: number | string }>(GENERATION, userId);
  if (row === undefined || Number(row.g) !== generation) throw new SyncStoppedError(userId);
}

/** `work` in one write transaction that commits only while the person's sync generation is `generation` (else SyncStoppedError). */
export function fencedIngest<T>(userId: string, generation: number, work: () => Work<T>): Promise<T> {
  return ingestTransaction(function* () {
    yield* checkSyncGeneration(userId, generation);
    return yield* work();
  });
}

// On PostgreSQL the settings row is read FOR SHARE: a change of tracking waits for the commit, or
// the commit for the change, never both at once (turning tracking off then deletes what was
// committed before it: lib/db/queries/cycle.ts saveCycleSettingsRow).
const TRACKING = statement("cycle_tracking", {
  sqlite: `SELECT tracking FROM cycle_settings WHERE "userId" = ?`,
  postgres: `SELECT tracking FROM cycle_settings WHERE "userId" = $1 FOR SHARE`,
});

/** Whether the person tracks their cycle (a step of a page's transaction: no cycle document is written unless this says yes). */
export function* cycleTrackingIn(userId: string): Work<boolean> {
  const row = yield* get<{ tracking: number | boolean }>(TRACKING, userId);
  return Boolean(row?.tracking);
}

const BUMP = statement("data_version", {
  sqlite: `UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = ?`,
  postgres: `UPDATE "User" SET "dataVersion" = "dataVersion" + 1 WHERE id = $1`,
});

/** Moves the person's data version forward (lib/db/queries/data-version.ts; a step of the page's transaction). */
export function* bumpDataVersion(userId: string): Work<void> {
  yield* run(BUMP, userId);
  announceDataChange(userId);
}
