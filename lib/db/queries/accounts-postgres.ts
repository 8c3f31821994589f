import "server-only";
import { clock } from "@/lib/clock";
import type pg from "pg";
import { toDbTime } from "@/lib/db/dialect";
import { inTransaction } from "@/lib/db/postgres";
import { leaseDroppableBy, leaseHeldByOther, leaseKey, RING_PROVIDER, type RefreshClaim, type TokenRow, type TokenStore } from "@/lib/db/queries/accounts";

// The token-refresh path on PostgreSQL (the contract and SQLite's form are in accounts.ts).
// Each step is one transaction on one pooled connection that first locks the account row
// (SELECT … FOR UPDATE): of several processes refreshing the same account, one reads, decides
// and writes while the others wait for its commit, then see its lease or its new tokens.

async function lockedTokenRow(c: pg.PoolClient | pg.Pool, accountId: string, lock: boolean): Promise<TokenRow | null> {
  const res = await c.query<TokenRow>(
    `SELECT id, "userId", status, access_token, refresh_token, expires_at FROM "Account" WHERE id = $1 AND provider = $2${lock ? " FOR UPDATE" : ""}`,
    [accountId, RING_PROVIDER],
  );
  const row = res.rows[0];
  if (!row) return null;
  return { ...row, expires_at: row.expires_at === null ? null : Number(row.expires_at) };
}

const readLease = async (c: pg.PoolClient, accountId: string) =>
  (await c.query<{ value: string }>(`SELECT value FROM "AppSetting" WHERE key = $1`, [leaseKey(accountId)])).rows[0]?.value;

export function postgresTokenStore(pool: pg.Pool): TokenStore {
  return {
    async readTokenRow(accountId) {
      return lockedTokenRow(pool, accountId, false);
    },

    async claimRefresh(options) {
      return inTransaction(pool, async (c): Promise<RefreshClaim> => {
        const row = await lockedTokenRow(c, options.accountId, true);
        if (!row) return { kind: "missing" };
        if (row.status !== "active") return { kind: "unavailable", status: row.status };
        if (row.access_token && !options.needsRefresh(row)) return { kind: "fresh", storedAccessToken: row.access_token };
        const now = clock.now();
        if (leaseHeldByOther(await readLease(c, options.accountId), options.owner, now)) return { kind: "busy" };
        await c.query(
          `INSERT INTO "AppSetting" (key, value, "updatedAt") VALUES ($1, $2, $3)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value, "updatedAt" = excluded."updatedAt"`,
          [leaseKey(options.accountId), JSON.stringify({ owner: options.owner, until: now + options.leaseMs }), toDbTime(now)],
        );
        return { kind: "claimed", storedRefreshToken: row.refresh_token };
      });
    },

    async storeRefreshed(accountId, t) {
      const now = toDbTime(clock.date());
      await inTransaction(pool, async (c) => {
        await c.query(
          `UPDATE "Account" SET access_token = $2, refresh_token = COALESCE($3, refresh_token), expires_at = $4,
             token_type = COALESCE($5, token_type), scope = COALESCE($6, scope), "tokenUpdatedAt" = $7, "updatedAt" = $7
           WHERE id = $1`,
          [accountId, t.accessToken, t.refreshToken, t.expiresAt, t.tokenType, t.scope, now],
        );
        await c.query(`DELETE FROM "AppSetting" WHERE key = $1`, [leaseKey(accountId)]);
      });
    },

    async releaseLease(accountId, owner) {
      await inTransaction(pool, async (c) => {
        await lockedTokenRow(c, accountId, true);
        const value = await readLease(c, accountId);
        if (value !== undefined && leaseDroppableBy(value, owner)) await c.query(`DELETE FROM "AppSetting" WHERE key = $1`, [leaseKey(accountId)]);
      });
    },

    async markNeedsReconnect(accountId, reason) {
      const now = toDbTime(clock.date());
      await inTransaction(pool, async (c) => {
        const row = (await c.query<{ userId: string }>(`SELECT "userId" FROM "Account" WHERE id = $1 FOR UPDATE`, [accountId])).rows[0];
        if (!row) return;
        await c.query(
          `UPDATE "Account" SET status = 'needs_reconnect', "statusReason" = $2, access_token = NULL, refresh_token = NULL,
             "tokenUpdatedAt" = $3, "updatedAt" = $3 WHERE id = $1`,
          [accountId, reason, now],
        );
        await c.query(`UPDATE "sync_state" SET status = 'paused', "updatedAt" = $2 WHERE "userId" = $1`, [row.userId, now]);
        await c.query(`DELETE FROM "AppSetting" WHERE key = $1`, [leaseKey(accountId)]);
      });
    },
  };
}
