import "server-only";
import { env } from "@/lib/env.mjs";
import { dbProvider, prisma } from "@/lib/db/prisma";
import { processSingleton } from "@/lib/process-singleton";

// The data version's moves, announced (docs/decisions/0038-home-assistant-over-mqtt.md). Work that
// follows a person's data as it changes (the Home Assistant publisher) listens here instead of
// reading the database on a timer:
// - PostgreSQL: a trigger on User."dataVersion" (the migration home_assistant) notifies the channel
//   `ringside_data_version` with the person's id, at commit, whichever process and code path made
//   the change; a listener holds one connection of its own with LISTEN (lib/db/postgres.ts).
// - SQLite: one process writes and listens, so the move is announced in the process
//   (lib/db/queries/data-version.ts and lib/db/ingest/fence.ts call announceDataChange) from inside the transaction that
//   made it, heard on a later turn: after an ingest store transaction has committed (it never spans
//   a turn); a Prisma Client transaction may still be open then, but every query of the process
//   waits at the gate (lib/db/prisma.ts sqliteGate) until it has committed, so what a listener
//   reads is what committed (a rolled-back move is heard too: read again, nothing new).
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
 * writing transaction: the listeners hear it on a later turn, and on SQLite their reads wait for its
 * commit (above). Costs nothing without listeners.
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
  const db = prisma();
  if (dbProvider(db) === "postgresql") await db.$executeRaw`SELECT pg_notify(${DATA_CHANGE_CHANNEL}, ${userId})`;
  else announceDataChange(userId);
}

export type DataChangeWatch = { stop(): Promise<void> };

/**
 * Calls `onChange` for every change announced anywhere on the database, and `onResync` whenever
 * changes may have been missed (on PostgreSQL each time the listener's connection holds, the first
 * time too: what was notified before it listened is missed): then the caller looks at everyone again.
 */
export async function watchDataChanges(handlers: { onChange: Listener; onResync: () => void }): Promise<DataChangeWatch> {
  if (dbProvider(prisma()) === "postgresql") {
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
