// The ingest store's driver: statements declared once in both forms, prepared once per connection,
// a transaction rolled back whole on a throw.
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { all, get, provider, run, sqliteIngest, statement } from "@/lib/db/ingest/driver";

const CREATE = statement("test_driver_create", { sqlite: `CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, n INTEGER)`, postgres: "" });
const INSERT = statement("test_driver_insert", { sqlite: `INSERT INTO t (k, n) VALUES (?, ?)`, postgres: `INSERT INTO t (k, n) VALUES ($1, $2)` });
const READ = statement("test_driver_read", { sqlite: `SELECT k, n FROM t ORDER BY k`, postgres: `SELECT k, n FROM t ORDER BY k` });
const ONE = statement("test_driver_one", { sqlite: `SELECT n FROM t WHERE k = ?`, postgres: `SELECT n FROM t WHERE k = $1` });

describe("the ingest store's driver", () => {
  it("refuses two statements of one name with different words; takes the same declaration again", () => {
    expect(() => statement("test_driver_read", { sqlite: `SELECT 1`, postgres: `SELECT 1` })).toThrow(/two ingest statements are named test_driver_read/);
    expect(statement("test_driver_read", { sqlite: `SELECT k, n FROM t ORDER BY k`, postgres: `SELECT k, n FROM t ORDER BY k` }).name).toBe(READ.name);
  });

  it("gives every statement a PostgreSQL name of at most 63 bytes, distinct for long names that share their start", () => {
    const long = (tail: string) => statement(`test_driver_${"x".repeat(60)}_${tail}`, { sqlite: `SELECT '${tail}'`, postgres: `SELECT '${tail}'` });
    const [a, b] = [long("a"), long("b")];
    expect(Buffer.byteLength(a.name)).toBeLessThanOrEqual(63);
    expect(Buffer.byteLength(b.name)).toBeLessThanOrEqual(63);
    expect(a.name).not.toBe(b.name);
  });

  it("SQLite: runs work in one transaction, each statement prepared once on the connection, rolled back whole on a throw", async () => {
    const db = new BetterSqlite3(":memory:");
    const prepare = vi.spyOn(db, "prepare");
    const ingest = sqliteIngest(() => db);
    expect(ingest.provider).toBe("sqlite");
    await ingest.transaction(function* () {
      expect(yield* provider()).toBe("sqlite");
      yield* run(CREATE);
    });
    for (let i = 0; i < 3; i++) await ingest.transaction(() => run(INSERT, `k${i}`, i));
    expect(prepare.mock.calls.filter(([sql]) => sql === INSERT.sqlite)).toHaveLength(1);
    const failing = ingest.transaction(function* () {
      yield* run(INSERT, "k9", 9);
      throw new Error("a page that fails half-way");
    });
    await expect(failing).rejects.toThrow("a page that fails half-way");
    expect(await ingest.transaction(() => all<{ k: string; n: number }>(READ))).toEqual([
      { k: "k0", n: 0 },
      { k: "k1", n: 1 },
      { k: "k2", n: 2 },
    ]);
    expect(await ingest.transaction(() => get(ONE, "k9"))).toBeUndefined();
    db.close();
  });
});
