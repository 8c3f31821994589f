// The token-refresh path's contract, held to both databases: SQLite (the test file's own
// database) and PostgreSQL (a database of this file's own on the run's private server). The
// point of it: however many processes want to refresh one account at the same moment, exactly
// one is given the single-use refresh token; the others are told to wait (or, once the new
// tokens are stored, get them).
import { clock } from "@/lib/clock";
import { beforeEach, describe, expect, it } from "vitest";
import { rawDb } from "@/lib/db";
import { tokenStore, type TokenStore } from "@/lib/db/queries/accounts";
import { useMigratedPostgres } from "@/lib/test/postgres";
import { db, otherSqliteClient, pgClient } from "@/lib/test/prisma";

const pg = useMigratedPostgres("tokens");

const NOW = clock.date().toISOString();

type Backend = {
  name: string;
  store: () => TokenStore;
  /** another process's store on the same database (PostgreSQL: its own pool) */
  otherProcess: () => TokenStore;
  exec: (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;
};

const backends: Backend[] = [
  {
    name: "sqlite",
    store: () => tokenStore(db),
    otherProcess: () => tokenStore(otherSqliteClient()),
    exec: async (sql, params = []) => {
      const stmt = rawDb().prepare(sql.replace(/\$\d+/g, "?"));
      if (stmt.reader) return stmt.all(...params) as Array<Record<string, unknown>>;
      stmt.run(...params);
      return [];
    },
  },
  {
    name: "postgresql",
    store: () => tokenStore(pgClient(pg.pool)),
    otherProcess: () => tokenStore(pgClient(pg.otherProcess)),
    exec: async (sql, params = []) => (await pg.pool().query(sql, params)).rows,
  },
];

describe.each(backends)("token refresh path on $name", (b) => {
  let tokens: TokenStore;
  beforeEach(async () => {
    tokens = b.store();
    for (const t of [`"AppSetting"`, "sync_state", `"Account"`, `"User"`]) await b.exec(`DELETE FROM ${t}`);
    await b.exec(`INSERT INTO "User" (id, role, units, theme, "dataVersion", "createdAt", "updatedAt") VALUES ('u1', 'owner', 'metric', 'system', 0, $1, $2)`, [
      NOW,
      NOW,
    ]);
    await b.exec(
      `INSERT INTO "Account" (id, "userId", type, provider, "providerAccountId", access_token, refresh_token, expires_at, status, "createdAt", "updatedAt")
       VALUES ('a1', 'u1', 'oauth', 'ring', 'ring-1', 'enc-access-1', 'enc-refresh-1', 1000, 'active', $1, $2)`,
      [NOW, NOW],
    );
    await b.exec(
      `INSERT INTO sync_state ("userId", collection, status, "documentsTotal", "windowsDone", "windowsTotal", "updatedAt") VALUES ('u1', 'sleep', 'idle', 0, 0, 0, $1)`,
      [NOW],
    );
  });

  const expired = () => true;

  it("reads the token row; a missing or inactive account is said so", async () => {
    expect(await tokens.readTokenRow("a1")).toEqual({
      id: "a1",
      userId: "u1",
      status: "active",
      access_token: "enc-access-1",
      refresh_token: "enc-refresh-1",
      expires_at: 1000,
    });
    expect(await tokens.readTokenRow("nope")).toBeNull();
    expect(await tokens.claimRefresh({ accountId: "nope", owner: "p1", leaseMs: 10_000, needsRefresh: expired })).toEqual({ kind: "missing" });
    await b.exec(`UPDATE "Account" SET status = 'disconnected' WHERE id = 'a1'`);
    expect(await tokens.claimRefresh({ accountId: "a1", owner: "p1", leaseMs: 10_000, needsRefresh: expired })).toEqual({
      kind: "unavailable",
      status: "disconnected",
    });
  });

  it("one claim per lease: the holder gets the refresh token, others are busy until it stores the new tokens, then get those", async () => {
    const first = await tokens.claimRefresh({ accountId: "a1", owner: "p1", leaseMs: 10_000, needsRefresh: expired });
    expect(first).toEqual({ kind: "claimed", storedRefreshToken: "enc-refresh-1" });
    expect(await tokens.claimRefresh({ accountId: "a1", owner: "p2", leaseMs: 10_000, needsRefresh: expired })).toEqual({ kind: "busy" });
    await tokens.storeRefreshed("a1", { accessToken: "enc-access-2", refreshToken: "enc-refresh-2", expiresAt: 999_999_999, tokenType: null, scope: null });
    const row = await tokens.readTokenRow("a1");
    expect(row).toMatchObject({ access_token: "enc-access-2", refresh_token: "enc-refresh-2", expires_at: 999_999_999 });
    const needs = (r: { access_token: string | null }) => r.access_token === "enc-access-1";
    expect(await tokens.claimRefresh({ accountId: "a1", owner: "p2", leaseMs: 10_000, needsRefresh: needs })).toEqual({
      kind: "fresh",
      storedAccessToken: "enc-access-2",
    });
    // the lease went with the stored tokens: the next expiry is claimed again
    expect((await tokens.claimRefresh({ accountId: "a1", owner: "p2", leaseMs: 10_000, needsRefresh: expired })).kind).toBe("claimed");
  });

  it("a lease that ran out, or that its holder released, can be taken; a rotation without a new refresh token keeps the old one", async () => {
    expect((await tokens.claimRefresh({ accountId: "a1", owner: "p1", leaseMs: -1, needsRefresh: expired })).kind).toBe("claimed");
    expect((await tokens.claimRefresh({ accountId: "a1", owner: "p2", leaseMs: 10_000, needsRefresh: expired })).kind).toBe("claimed");
    await tokens.releaseLease("a1", "p1"); // not p1's any more: stays
    expect((await tokens.claimRefresh({ accountId: "a1", owner: "p3", leaseMs: 10_000, needsRefresh: expired })).kind).toBe("busy");
    await tokens.releaseLease("a1", "p2");
    expect((await tokens.claimRefresh({ accountId: "a1", owner: "p3", leaseMs: 10_000, needsRefresh: expired })).kind).toBe("claimed");
    await tokens.storeRefreshed("a1", { accessToken: "enc-access-3", refreshToken: null, expiresAt: 5, tokenType: "Bearer", scope: "daily heartrate" });
    expect(await tokens.readTokenRow("a1")).toMatchObject({ access_token: "enc-access-3", refresh_token: "enc-refresh-1", expires_at: 5 });
  });

  it("needs-reconnect drops the tokens and the lease and pauses the person's sync, leaving other rows alone", async () => {
    await tokens.claimRefresh({ accountId: "a1", owner: "p1", leaseMs: 10_000, needsRefresh: expired });
    await tokens.markNeedsReconnect("a1", "invalid_grant");
    expect(await tokens.readTokenRow("a1")).toMatchObject({ status: "needs_reconnect", access_token: null, refresh_token: null });
    const [account] = await b.exec(`SELECT "statusReason" AS reason FROM "Account" WHERE id = 'a1'`);
    expect(account).toEqual({ reason: "invalid_grant" });
    expect(await b.exec(`SELECT status FROM sync_state WHERE "userId" = 'u1'`)).toEqual([{ status: "paused" }]);
    expect(await b.exec(`SELECT key FROM "AppSetting"`)).toEqual([]);
    await tokens.markNeedsReconnect("nope", "invalid_grant"); // nothing to do, no error
  });

  it("six processes claiming the same expired account at once: exactly one gets the refresh token, every time", async () => {
    const processes = Array.from({ length: 6 }, () => b.otherProcess());
    for (let round = 0; round < 10; round++) {
      await b.exec(`DELETE FROM "AppSetting"`);
      const claims = await Promise.all(
        processes.map((p, i) => p.claimRefresh({ accountId: "a1", owner: `proc-${i}`, leaseMs: 30_000, needsRefresh: expired })),
      );
      expect({ round, claimed: claims.filter((c) => c.kind === "claimed").length, busy: claims.filter((c) => c.kind === "busy").length }).toEqual({
        round,
        claimed: 1,
        busy: 5,
      });
    }
  });
});
