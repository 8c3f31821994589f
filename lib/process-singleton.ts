// Process-wide objects (the database connection, the sync engine and scheduler, the alert worker,
// rate limiters, start-once flags), one per process. Next loads a module more than once (its
// server bundles, the dev server's reloads), so a module-level `let` would give each copy its
// own: the objects live on globalThis instead, in one map, under a key each owner names.
// Imports nothing, so every layer may use it.

declare global {
  var ringsideProcessObjects: Map<string, unknown> | undefined;
}

function objects(): Map<string, unknown> {
  return (globalThis.ringsideProcessObjects ??= new Map());
}

/** The process's object under `key`, made by `make` on first use. */
export function processSingleton<T>(key: string, make: () => T): T {
  const all = objects();
  if (all.has(key)) return all.get(key) as T;
  const made = make();
  all.set(key, made);
  return made;
}

/** A process-wide slot that may be empty: for what is started, replaced or stopped (a scheduler, a timer, a flag). */
export type ProcessSlot<T> = { get(): T | undefined; set(value: T | undefined): void };

export function processSlot<T>(key: string): ProcessSlot<T> {
  return {
    get: () => objects().get(key) as T | undefined,
    set: (value) => {
      if (value === undefined) objects().delete(key);
      else objects().set(key, value);
    },
  };
}
