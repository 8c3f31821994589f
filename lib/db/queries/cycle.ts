import "server-only";
import crypto from "node:crypto";
import { clock } from "@/lib/clock";
import { ident, toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, sqlDialect, transaction, type SqlValue, type Work } from "@/lib/db/sql";
import { bumpDataVersion } from "@/lib/db/queries/data-version";
import { CYCLE_ENTRY_KINDS, CYCLE_RESOURCE, type CycleEntry, type CycleEntryKind, type CycleSettings } from "@/lib/cycle";
import { getResource } from "@/lib/resources";

// The menstrual cycle's own rows (prisma/schema.prisma CycleEntry and CycleSettings): the
// period starts and ends a person logged, and their cycle settings. Rows in, rows out; every
// write moves the person's data version in its transaction, so cached answers (the cycle, the
// phase-aware signals) are computed again. What the ring service sends (daily_cycle_phases) is
// stored by the sync like every resource, and only while the person tracks their cycle: turning
// tracking off deletes it with its sync state (in the same transaction), and the sync's page
// commit asks cycleTrackingIn in its own; "remove my cycle data" deletes it here too.

/** The table of the ring service's cycle documents (the resource daily_cycle_phases). */
const CYCLE_DOCUMENTS_TABLE = getResource(CYCLE_RESOURCE).table;

type EntryRow = { id: string; day: string; kind: string };

const isKind = (k: string): k is CycleEntryKind => (CYCLE_ENTRY_KINDS as readonly string[]).includes(k);

/** Rows of a kind Ringside does not know (none are written) are left out rather than guessed. */
function toEntries(rows: EntryRow[]): CycleEntry[] {
  const out: CycleEntry[] = [];
  for (const r of rows) if (isKind(r.kind)) out.push({ id: r.id, day: r.day, kind: r.kind });
  return out;
}

/** The person's entries (of every day, or of the days in [from, to]), by day, a start before an end. */
export async function listCycleEntries(userId: string, range?: { from: string; to: string }): Promise<CycleEntry[]> {
  const rows = range
    ? await query(
        all<EntryRow>(
          `SELECT id, day, kind FROM cycle_entry WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, kind DESC, id`,
          userId,
          range.from,
          range.to,
        ),
      )
    : await query(all<EntryRow>(`SELECT id, day, kind FROM cycle_entry WHERE userId = ? ORDER BY day, kind DESC, id`, userId));
  return toEntries(rows);
}

/** One of the person's entries, or null (another person's entries do not exist for them). */
export async function findCycleEntry(userId: string, id: string): Promise<CycleEntry | null> {
  return toEntries(await query(all<EntryRow>(`SELECT id, day, kind FROM cycle_entry WHERE id = ? AND userId = ?`, id, userId)))[0] ?? null;
}

/** Stores an entry; the same day and kind again answers the entry there is (`created: false`) and writes nothing. */
export async function insertCycleEntry(userId: string, entry: { day: string; kind: CycleEntryKind }): Promise<CycleEntry & { created: boolean }> {
  const id = crypto.randomUUID();
  const now = toDbTime(clock.date());
  return transaction(function* () {
    const inserted = yield* run(
      `INSERT INTO cycle_entry (id, userId, day, kind, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(userId, day, kind) DO NOTHING`,
      id,
      userId,
      entry.day,
      entry.kind,
      now,
      now,
    );
    if (inserted > 0) {
      yield* bumpDataVersion(userId);
      return { id, day: entry.day, kind: entry.kind, created: true };
    }
    const existing = yield* get<EntryRow>(`SELECT id FROM cycle_entry WHERE userId = ? AND day = ? AND kind = ?`, userId, entry.day, entry.kind);
    return { id: existing!.id, day: entry.day, kind: entry.kind, created: false };
  });
}

/**
 * Moves one of the person's entries to another day or kind. Null when they have no such entry;
 * throws the database's unique-key error when another entry already has that day and kind
 * (the service asks first and answers 409).
 */
export async function updateCycleEntry(userId: string, id: string, patch: { day?: string; kind?: CycleEntryKind }): Promise<CycleEntry | null> {
  const set: string[] = [];
  const values: SqlValue[] = [];
  if (patch.day !== undefined) {
    set.push("day = ?");
    values.push(patch.day);
  }
  if (patch.kind !== undefined) {
    set.push("kind = ?");
    values.push(patch.kind);
  }
  return transaction(function* () {
    const changed = yield* run(
      `UPDATE cycle_entry SET ${[...set, "updatedAt = ?"].join(", ")} WHERE id = ? AND userId = ?`,
      ...values,
      toDbTime(clock.date()),
      id,
      userId,
    );
    if (changed === 0) return null;
    yield* bumpDataVersion(userId);
    const row = yield* get<EntryRow>(`SELECT id, day, kind FROM cycle_entry WHERE id = ?`, id);
    return row ? (toEntries([row])[0] ?? null) : null;
  });
}

/** Deletes one of the person's entries; false when they have no such entry. */
export function deleteCycleEntry(userId: string, id: string): Promise<boolean> {
  return transaction(function* () {
    if ((yield* run(`DELETE FROM cycle_entry WHERE id = ? AND userId = ?`, id, userId)) === 0) return false;
    yield* bumpDataVersion(userId);
    return true;
  });
}

/** Deletes the person's entries and the cycle documents the ring service sent; how many of each. Settings stay. */
export function deleteCycleData(userId: string): Promise<{ entries: number; documents: number }> {
  return transaction(function* () {
    const entries = yield* run(`DELETE FROM cycle_entry WHERE userId = ?`, userId);
    const documents = yield* run(`DELETE FROM ${ident(CYCLE_DOCUMENTS_TABLE)} WHERE userId = ?`, userId);
    yield* bumpDataVersion(userId);
    return { entries, documents };
  });
}

/**
 * Whether the person tracks their cycle, as a step of a transaction (the sync's page commit: no
 * cycle document is written unless this says yes). On PostgreSQL the settings row is read FOR
 * SHARE: a change of tracking waits for the commit, or the commit for the change, never both
 * at once (turning tracking off then deletes what was committed before it).
 */
export function* cycleTrackingIn(userId: string): Work<boolean> {
  const lock = (yield* sqlDialect()) === "postgres" ? " FOR SHARE" : "";
  const row = yield* get<{ tracking: number | boolean }>(`SELECT tracking FROM cycle_settings WHERE userId = ?${lock}`, userId);
  return Boolean(row?.tracking);
}

type SettingsRow = { tracking: number | boolean; hormonalContraception: number | boolean; pregnant: number | boolean };

/** The person's cycle settings as stored, or null when they never changed one (the defaults apply). */
export async function findCycleSettings(userId: string): Promise<CycleSettings | null> {
  const row = await query(get<SettingsRow>(`SELECT tracking, hormonalContraception, pregnant FROM cycle_settings WHERE userId = ?`, userId));
  if (!row) return null;
  return { tracking: Boolean(row.tracking), hormonalContraception: Boolean(row.hormonalContraception), pregnant: Boolean(row.pregnant) };
}

const SETTING_COLUMNS = ["tracking", "hormonalContraception", "pregnant"] as const satisfies ReadonlyArray<keyof CycleSettings>;

/**
 * Changes the settings the patch names (a first change stores the others at their defaults).
 * Tracking turned off deletes the ring service's cycle documents and their sync state (turned on
 * again, the sync fetches them anew): how many documents went.
 */
export async function saveCycleSettingsRow(userId: string, patch: Partial<CycleSettings>): Promise<{ documents: number }> {
  const named = SETTING_COLUMNS.filter((c) => patch[c] !== undefined);
  const now = toDbTime(clock.date());
  return transaction(function* () {
    const columns = ["userId", ...named, "updatedAt"];
    const update = [...named.map((c) => `${ident(c)} = excluded.${ident(c)}`), `${ident("updatedAt")} = excluded.${ident("updatedAt")}`];
    yield* run(
      `INSERT INTO cycle_settings (${columns.map(ident).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})
       ON CONFLICT(${ident("userId")}) DO UPDATE SET ${update.join(", ")}`,
      userId,
      ...named.map((c) => patch[c] as boolean),
      now,
    );
    let documents = 0;
    if (patch.tracking === false) {
      documents = yield* run(`DELETE FROM ${ident(CYCLE_DOCUMENTS_TABLE)} WHERE userId = ?`, userId);
      yield* run(`DELETE FROM sync_state WHERE userId = ? AND collection = ?`, userId, CYCLE_RESOURCE);
    }
    yield* bumpDataVersion(userId);
    return { documents };
  });
}
