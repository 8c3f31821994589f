import "server-only";
import { announceDataChange } from "@/lib/db/data-changes";
import { get, query, run, type Work } from "@/lib/db/sql";

// The person's data version (User.dataVersion): one counter that every write able to change
// an answer about the person moves forward — a sync or webhook page, an import, a note or
// tag edit, a preference, "delete my data". The conditional requests (lib/api/conditional.ts)
// build their ETags from it, so an answer is computed again only after something changed.
// Every write bumps it inside its own transaction (`yield* bumpDataVersion(…)`), so a reader
// never pairs new data with an old version, nor an old answer with a new one. Each move is
// announced to whoever follows the person's data (lib/db/data-changes.ts: the Home Assistant
// publisher): in the process on SQLite, by a trigger's notification on PostgreSQL.

/** Moves the person's data version forward (a step of the caller's transaction). */
export function* bumpDataVersion(userId: string): Work<void> {
  yield* run(`UPDATE "User" SET dataVersion = dataVersion + 1 WHERE id = ?`, userId);
  announceDataChange(userId);
}

/** Moves every person's data version forward (a change to everyone's data). */
export function* bumpEveryDataVersion(): Work<void> {
  yield* run(`UPDATE "User" SET dataVersion = dataVersion + 1`);
  announceDataChange(null);
}

/** The person's data version, or null when there is no such person. */
export async function readDataVersion(userId: string): Promise<number | null> {
  const row = await query(get<{ dataVersion: number }>(`SELECT dataVersion FROM "User" WHERE id = ?`, userId));
  return row === undefined ? null : Number(row.dataVersion);
}
