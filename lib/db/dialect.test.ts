// The PostgreSQL form of the statements the query modules write in SQLite's words (the suites on
// both databases run them for real; these pin the translation itself).
import { describe, expect, it } from "vitest";
import { notInJsonArray, toPostgresSql, upsertSql } from "@/lib/db/dialect";

describe("toPostgresSql", () => {
  it("numbers the parameters and quotes mixed-case names, leaving strings and quoted names alone", () => {
    expect(toPostgresSql(`SELECT a.userId, COUNT(*) AS n FROM "Account" a WHERE a.provider = 'ring?' AND a.userId = ? AND day <= ?`)).toBe(
      `SELECT a."userId", COUNT(*) AS n FROM "Account" a WHERE a.provider = 'ring?' AND a."userId" = $1 AND day <= $2`,
    );
    expect(toPostgresSql(`SELECT 'it''s dataVersion' AS "keepMe" FROM "User" WHERE id = ?`)).toBe(
      `SELECT 'it''s dataVersion' AS "keepMe" FROM "User" WHERE id = $1`,
    );
  });

  it("turns INSERT OR IGNORE into ON CONFLICT DO NOTHING", () => {
    expect(toPostgresSql(`INSERT OR IGNORE INTO sync_state (userId, collection) VALUES (?, ?)`)).toBe(
      `INSERT INTO sync_state ("userId", collection) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    );
    // before a RETURNING clause, so a row the conflict skipped returns nothing
    expect(toPostgresSql(`INSERT OR IGNORE INTO alert_episode (dedupeKey) VALUES (?) RETURNING id, dedupeKey`)).toBe(
      `INSERT INTO alert_episode ("dedupeKey") VALUES ($1) ON CONFLICT DO NOTHING RETURNING id, "dedupeKey"`,
    );
  });

  it("an upsert that skips unchanged rows compares with IS DISTINCT FROM; a JSON-array parameter becomes a set", () => {
    const sql = upsertSql({ table: "daily_sleep", columns: ["userId", "documentId", "raw"], conflict: ["userId", "documentId"], unlessSame: ["raw"] });
    expect(toPostgresSql(sql)).toBe(
      `INSERT INTO "daily_sleep" ("userId", "documentId", "raw") VALUES ($1, $2, $3) ON CONFLICT("userId", "documentId") DO UPDATE SET "raw" = excluded."raw" WHERE "daily_sleep"."raw" IS DISTINCT FROM excluded."raw"`,
    );
    expect(toPostgresSql(`DELETE FROM t WHERE userId = ? AND ${notInJsonArray("documentId")}`)).toBe(
      `DELETE FROM t WHERE "userId" = $1 AND "documentId" NOT IN (SELECT value FROM jsonb_array_elements_text(CAST($2 AS jsonb)))`,
    );
  });

  it("a page as column arrays: one typed array parameter per column", () => {
    const sql = upsertSql({ table: "t", columns: ["userId", "score"], conflict: ["userId"], fromArrays: ["text", "bigint"] });
    expect(toPostgresSql(sql)).toBe(
      `INSERT INTO "t" ("userId", "score") SELECT * FROM unnest(CAST($1 AS text[]), CAST($2 AS bigint[])) ON CONFLICT("userId") DO UPDATE SET "score" = excluded."score"`,
    );
  });
});
