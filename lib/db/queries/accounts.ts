import "server-only";
import { clock } from "@/lib/clock";
import { dbProvider, prisma, type Db, type ProcessDb } from "@/lib/db/prisma";
import { settingWrite } from "@/lib/db/queries/app-settings";
import type { Prisma } from "@/lib/generated/prisma/client";
import { processSingleton } from "@/lib/process-singleton";
import { bumpSyncGeneration } from "@/lib/db/queries/sync-fence";

/**
 * The ring connection (Auth.js `Account` row, provider "ring"). Token columns hold only
 * AES-256-GCM ciphertext (lib/ring/crypto.ts); these functions never see plain tokens.
 *
 * The refresh path (`TokenStore`) runs its read-decide-write steps in one write transaction, so
 * two processes cannot both claim the same single-use refresh token: on SQLite an IMMEDIATE
 * transaction (one writer at a time), on PostgreSQL a transaction that first locks the account
 * row (`FOR UPDATE`), so of several processes refreshing one account one reads, decides and
 * writes while the others wait for its commit, then see its lease or its new tokens. Held to the
 * same tests on both databases (lib/db/queries/accounts-tokens.test.ts).
 */

export const RING_PROVIDER = "ring";

export type AccountStatus = "active" | "needs_reconnect" | "disconnected";

// ---------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------

const TOKEN_ROW = { id: true, userId: true, status: true, access_token: true, refresh_token: true, expires_at: true } as const;

export type TokenRow = {
  id: string;
  userId: string;
  status: string;
  access_token: string | null;
  refresh_token: string | null;
  expires_at: number | null;
};

/**
 * Locks the account's row for the caller's transaction on PostgreSQL (`FOR UPDATE`: of several
 * processes refreshing one account, one reads, decides and writes while the others wait for its
 * commit); on SQLite the IMMEDIATE transaction is the lock already.
 */
async function lockAccountRow(tx: Db, accountId: string): Promise<void> {
  if (dbProvider(tx) === "postgresql") await tx.$queryRaw<Array<Pick<Prisma.AccountModel, "id">>>`SELECT id FROM "Account" WHERE id = ${accountId} FOR UPDATE`;
}

/** The token columns of one ring account. */
const tokenRow = (db: Db, accountId: string): Promise<TokenRow | null> =>
  db.account.findFirst({ where: { id: accountId, provider: RING_PROVIDER }, select: TOKEN_ROW });

export type RingAccountSummary = {
  accountId: string;
  userId: string;
  ringUserId: string;
  status: string;
  statusReason: string | null;
  scope: string | null;
  expiresAt: number | null;
  tokenUpdatedAt: Date | null;
  hasTokens: boolean;
};

export async function findRingAccountByUserId(userId: string): Promise<RingAccountSummary | null> {
  const a = await prisma().account.findFirst({
    where: { userId, provider: RING_PROVIDER },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      userId: true,
      providerAccountId: true,
      status: true,
      statusReason: true,
      scope: true,
      expires_at: true,
      tokenUpdatedAt: true,
      access_token: true,
      refresh_token: true,
    },
  });
  if (!a) return null;
  return {
    accountId: a.id,
    userId: a.userId,
    ringUserId: a.providerAccountId,
    status: a.status,
    statusReason: a.statusReason,
    scope: a.scope,
    expiresAt: a.expires_at,
    tokenUpdatedAt: a.tokenUpdatedAt,
    hasTokens: a.access_token !== null || a.refresh_token !== null,
  };
}

export function findRingAccountByRingUserId(ringUserId: string): Promise<{ id: string; userId: string; status: string } | null> {
  return prisma().account.findUnique({
    where: { provider_providerAccountId: { provider: RING_PROVIDER, providerAccountId: ringUserId } },
    select: { id: true, userId: true, status: true },
  });
}

// ---------------------------------------------------------------------------
// Writes after a sign-in (new tokens from the authorization-code grant)
// ---------------------------------------------------------------------------

export type NewAccount = {
  userId: string;
  type: string;
  provider: string;
  providerAccountId: string;
  /** already encrypted (lib/ring/crypto.ts) */
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: number | null;
  tokenType: string | null;
  /** canonical scope names, space-separated */
  scope: string;
};

/** Stores a new connection (the sign-in's account), active, tokens as given (encrypted). */
export async function createAccount(a: NewAccount): Promise<void> {
  const now = clock.date();
  await prisma().account.create({
    data: {
      id: crypto.randomUUID(),
      userId: a.userId,
      type: a.type,
      provider: a.provider,
      providerAccountId: a.providerAccountId,
      access_token: a.accessToken,
      refresh_token: a.refreshToken,
      expires_at: a.expiresAt,
      token_type: a.tokenType,
      scope: a.scope,
      status: "active",
      tokenUpdatedAt: now,
      createdAt: now,
      updatedAt: now,
    },
    select: { id: true },
  });
}

export type EncryptedTokenSet = {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  tokenType: string | null;
  scope: string;
};

/** Stores the tokens of a fresh consent on an existing account, re-activates it and resumes its paused sync. */
export function storeTokensAfterSignIn(accountId: string, userId: string, t: EncryptedTokenSet): Promise<void> {
  const now = clock.date();
  return prisma().$transaction(async (tx) => {
    await tx.account.updateMany({
      where: { id: accountId },
      data: {
        access_token: t.accessToken,
        refresh_token: t.refreshToken,
        expires_at: t.expiresAt,
        token_type: t.tokenType,
        scope: t.scope,
        status: "active",
        statusReason: null,
        tokenUpdatedAt: now,
        updatedAt: now,
      },
    });
    await tx.syncState.updateMany({ where: { userId, status: "paused" }, data: { status: "idle", lastError: null, updatedAt: now } });
  });
}

/** Deletes the tokens and marks the connection disconnected; pauses the person's sync. */
export function disconnectAccount(accountId: string, userId: string): Promise<void> {
  const now = clock.date();
  return prisma().$transaction(async (tx) => {
    // every sync of the person in flight stores nothing after this (lib/db/queries/sync-fence.ts): first, the person's row
    await bumpSyncGeneration(tx, userId);
    await tx.account.updateMany({
      where: { id: accountId },
      data: {
        access_token: null,
        refresh_token: null,
        expires_at: null,
        status: "disconnected",
        statusReason: "disconnected_by_user",
        tokenUpdatedAt: now,
        updatedAt: now,
      },
    });
    await tx.syncState.updateMany({ where: { userId }, data: { status: "paused", updatedAt: now } });
  });
}

// ---------------------------------------------------------------------------
// The refresh path: one contract, one implementation for both databases
// ---------------------------------------------------------------------------

export const leaseKey = (accountId: string) => `ring-token-refresh-lease:${accountId}`;

export type RefreshClaim =
  | { kind: "missing" }
  | { kind: "unavailable"; status: string }
  | { kind: "fresh"; storedAccessToken: string }
  | { kind: "busy" }
  | { kind: "claimed"; storedRefreshToken: string | null };

export type ClaimRefreshOptions = {
  accountId: string;
  owner: string;
  leaseMs: number;
  needsRefresh: (row: TokenRow) => boolean;
};

export type RefreshedTokens = Omit<EncryptedTokenSet, "scope"> & { scope: string | null };

/** Whether a stored lease (AppSetting value) stops `owner` from refreshing at `now`. */
export function leaseHeldByOther(value: string | undefined, owner: string, now: number): boolean {
  if (value === undefined) return false;
  try {
    const held = JSON.parse(value) as { owner?: string; until?: number };
    return held.owner !== owner && typeof held.until === "number" && held.until > now;
  } catch {
    return false; // unreadable lease: take it over
  }
}

/** Whether `owner` may drop a stored lease (its own, or one nobody can be said to hold). */
export function leaseDroppableBy(value: string, owner: string): boolean {
  try {
    const held = JSON.parse(value) as { owner?: string };
    return !held.owner || held.owner === owner;
  } catch {
    return true; // unreadable: drop it
  }
}

export interface TokenStore {
  /** The token columns of one account (ciphertext), or null. */
  readTokenRow(accountId: string): Promise<TokenRow | null>;
  /**
   * In one write transaction: re-reads the account; when it no longer needs a refresh (another
   * caller or process refreshed it), returns its access token; when another process holds a
   * live refresh lease, answers "busy"; otherwise takes the lease and returns the refresh token
   * to use. `needsRefresh` runs inside the transaction on the freshly read row.
   */
  claimRefresh(options: ClaimRefreshOptions): Promise<RefreshClaim>;
  /** Persists a refresh's result (ciphertext) and drops the lease, in one transaction. */
  storeRefreshed(accountId: string, t: RefreshedTokens): Promise<void>;
  releaseLease(accountId: string, owner: string): Promise<void>;
  /**
   * The connection needs the person to reconnect (the service answered invalid_grant, or the
   * stored tokens are unusable): drops the tokens so no refresh is ever retried, records why,
   * pauses the person's sync (SyncState rows → "paused") and drops any refresh lease.
   * Stored health data is not touched.
   */
  markNeedsReconnect(accountId: string, reason: string): Promise<void>;
}

const readLease = async (tx: Db, accountId: string) =>
  (await tx.appSetting.findUnique({ where: { key: leaseKey(accountId) }, select: { value: true } }))?.value;
const dropLease = (tx: Db, accountId: string) => tx.appSetting.deleteMany({ where: { key: leaseKey(accountId) } });

/** The refresh path on a database (by default the process's), each step one write transaction. */
export function tokenStore(db: ProcessDb = prisma()): TokenStore {
  return {
    readTokenRow(accountId) {
      return tokenRow(db, accountId);
    },

    claimRefresh(options) {
      return db.$transaction(async (tx): Promise<RefreshClaim> => {
        await lockAccountRow(tx, options.accountId);
        const row = await tokenRow(tx, options.accountId);
        if (!row) return { kind: "missing" };
        if (row.status !== "active") return { kind: "unavailable", status: row.status };
        if (row.access_token && !options.needsRefresh(row)) return { kind: "fresh", storedAccessToken: row.access_token };
        const now = clock.now();
        if (leaseHeldByOther(await readLease(tx, options.accountId), options.owner, now)) return { kind: "busy" };
        await settingWrite(tx, leaseKey(options.accountId), JSON.stringify({ owner: options.owner, until: now + options.leaseMs }));
        return { kind: "claimed", storedRefreshToken: row.refresh_token };
      });
    },

    storeRefreshed(accountId, t) {
      const now = clock.date();
      return db.$transaction(async (tx) => {
        // a rotation without a new refresh token (or type, or scope) keeps the stored one
        await tx.account.updateMany({
          where: { id: accountId },
          data: {
            access_token: t.accessToken,
            refresh_token: t.refreshToken ?? undefined,
            expires_at: t.expiresAt,
            token_type: t.tokenType ?? undefined,
            scope: t.scope ?? undefined,
            tokenUpdatedAt: now,
            updatedAt: now,
          },
        });
        await dropLease(tx, accountId);
      });
    },

    releaseLease(accountId, owner) {
      return db.$transaction(async (tx) => {
        await lockAccountRow(tx, accountId);
        const lease = await readLease(tx, accountId);
        if (lease !== undefined && leaseDroppableBy(lease, owner)) await dropLease(tx, accountId);
      });
    },

    markNeedsReconnect(accountId, reason) {
      const now = clock.date();
      return db.$transaction(async (tx) => {
        await lockAccountRow(tx, accountId);
        const row = await tx.account.findUnique({ where: { id: accountId }, select: { userId: true } });
        if (!row) return;
        await tx.account.updateMany({
          where: { id: accountId },
          data: { status: "needs_reconnect", statusReason: reason, access_token: null, refresh_token: null, tokenUpdatedAt: now, updatedAt: now },
        });
        await tx.syncState.updateMany({ where: { userId: row.userId }, data: { status: "paused", updatedAt: now } });
        await dropLease(tx, accountId);
      });
    },
  };
}

// The process's token store.
const tokens = (): TokenStore => processSingleton("tokenStore", () => tokenStore());

export const readTokenRow = (accountId: string) => tokens().readTokenRow(accountId);
export const claimTokenRefresh = (options: ClaimRefreshOptions) => tokens().claimRefresh(options);
export const storeRefreshedTokens = (accountId: string, t: RefreshedTokens) => tokens().storeRefreshed(accountId, t);
export const releaseRefreshLease = (accountId: string, owner: string) => tokens().releaseLease(accountId, owner);
export const markNeedsReconnect = (accountId: string, reason: string) => tokens().markNeedsReconnect(accountId, reason);
