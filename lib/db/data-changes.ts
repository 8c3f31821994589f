import "server-only";
import { env } from "@/lib/env.mjs";
import { dialect, query, get } from "@/lib/db/sql";
import { processSingleton } from "@/lib/process-singleton";

// The data version's moves, announced (docs/decisions/0038-home-assistant-over-mqtt.md). Work that
// follows a person's data as it changes (the Home Assistant publisher) listens here instead of
// reading the database on a timer:
// - PostgreSQL: a trigger on User."dataVersion" (the migration home_assistant) notifies the channel
//   `ringside_data_version` with the person's id, at commit, whichever process and code path made
//   the change; a listener holds one connection of its own with LISTEN (lib/db/postgres.ts).
// - SQLite: one process writes and listens, so the move is announced in the process
//   (lib/db/queries/data-version.ts calls announceDataChange), after the synchronous transaction
//   that made it.
// `notifyDataChange` announces a change that moves no version (a sync that found nothing new:
// its time is what changed).

/** The channel the trigger notifies (and notifyDataChange). */
export const DATA_CHANGE_CHANNEL = "ringside_data_version";

/** A person whose data changed, or null: everyone's. */
export type DataChange = string | null;

type Listener = (change: DataChange) => void;

const listeners = () => processSingleton("dataChangeListeners", () => new Set<Listener>());

/**
 * Announces a move of a person's data version (null: everyone's) in this process. Called inside the
 * writing work: the listeners hear it on a later turn, after the transaction has committed (on
 * SQLite a transaction never spans a turn). Costs nothing without listeners.
 */
export function announceDataChange(change: DataChange): void {
  const all = listeners();
  if (all.size === 0) return;
  setImmediate(() => {
    for (const l of all) l(change);
  });
}

/** Announces that a person's data changed without a version move (their last sync's time), to every listener of every process. */
export async function notifyDataChange(userId: string): Promise<void> {
  if (dialect() === "postgres") await query(get(`SELECT pg_notify(?, ?)`, DATA_CHANGE_CHANNEL, userId));
  else announceDataChange(userId);
}

export type DataChangeWatch = { stop(): Promise<void> };

/**
 * Calls `onChange` for every change announced anywhere on the database, and `onResync` whenever
 * changes may have been missed (on PostgreSQL each time the listener's connection holds, the first
 * time too: what was notified before it listened is missed): then the caller looks at everyone again.
 */
export async function watchDataChanges(handlers: { onChange: Listener; onResync: () => void }): Promise<DataChangeWatch> {
  if (dialect() === "postgres") {
    const { listenPostgres } = await import("@/lib/db/postgres");
    const listener = listenPostgres(env.DATABASE_URL, DATA_CHANGE_CHANNEL, {
      onNotification: (payload) => handlers.onChange(payload || null),
      onListening: handlers.onResync,
    });
    return { stop: () => listener.stop() };
  }
  const all = listeners();
  all.add(handlers.onChange);
  return {
    stop: async () => {
      all.delete(handlers.onChange);
    },
  };
}
