// Integration: lib/ring/tokens.ts against the in-process ring emulator and a real database
// (SQLite, and PostgreSQL in the "postgres" project): refresh through the auth adapter's rows.
import { suiteEmulatorConfig, suiteToday } from "@/lib/test/suite-env.mjs";
import { clock } from "@/lib/clock";
import fs from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "@/lib/emulator/server";
import { emulatorControl } from "@/lib/test/auth-flow";

const CLIENT = { client_id: "ringside-tokens-test", client_secret: "tokens-test-secret" };

let emu: RunningEmulator;
let tokens: typeof import("@/lib/ring/tokens");
let dbMod: typeof import("@/lib/test/prisma");
let accounts: typeof import("@/lib/db/queries/accounts");

function control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  return emulatorControl<T>(emu.url, method, path, body);
}

type Issued = { access_token: string; refresh_token: string; user_id: string; expires_in: number; scope: string };

let seq = 0;
/** A person with a ring connection whose tokens came from the emulator; the access token expires in `expiresInS`. */
async function seedConnection(expiresInS = 30) {
  seq += 1;
  const email = `tokens-${seq}-${clock.now()}@example.test`;
  const issued = await control<Issued>("POST", "/_emulator/tokens", { client_id: CLIENT.client_id, email });
  const user = await dbMod.db.user.create({ data: { email, role: seq === 1 ? "owner" : "member", ringUserId: issued.user_id } });
  const account = await dbMod.db.account.create({
    data: {
      userId: user.id,
      type: "oauth",
      provider: "ring",
      providerAccountId: issued.user_id,
      access_token: tokens.encryptToken(issued.access_token),
      refresh_token: tokens.encryptToken(issued.refresh_token),
      expires_at: Math.floor(clock.now() / 1000) + expiresInS,
      token_type: "bearer",
      scope: issued.scope,
    },
  });
  return { user, account, issued };
}

async function refreshRequests(): Promise<Array<{ status: number; grant_type: string | null }>> {
  const { requests } = await control<{ requests: Array<{ status: number; grant_type: string | null }> }>("GET", "/_emulator/requests?kind=token");
  return requests.filter((r) => r.grant_type === "refresh_token");
}

async function personalInfoStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${emu.url}/v2/usercollection/personal_info`, { headers: { authorization: `Bearer ${accessToken}` } });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tokenTtlS: 3600, historyDays: 5, webhookDelayMs: 0, today: suiteToday(), ...suiteEmulatorConfig() });
  await control("POST", "/_emulator/clients", { ...CLIENT, redirect_uris: ["http://localhost:3999/api/auth/callback/ring"], approved: true });
  process.env.RING_API_BASE_URL = emu.url;
  process.env.RING_CLIENT_ID = CLIENT.client_id;
  process.env.RING_CLIENT_SECRET = CLIENT.client_secret;
  tokens = await import("@/lib/ring/tokens");
  dbMod = await import("@/lib/test/prisma");
  accounts = await import("@/lib/db/queries/accounts");
});

afterAll(async () => {
  await dbMod?.db.$disconnect();
  await emu?.close();
});

beforeEach(async () => {
  await control("DELETE", "/_emulator/requests");
});

describe("getValidAccessToken", () => {
  it("returns the stored token while it is valid, without calling the token endpoint", async () => {
    const { account, issued } = await seedConnection(3600);
    expect(await tokens.getValidAccessToken(account.id)).toBe(issued.access_token);
    expect(await refreshRequests()).toHaveLength(0);
  });

  it("says until when a stored token is usable (60 s before it expires), and holds none it just refreshed", async () => {
    const { account, issued } = await seedConnection(3600);
    const row = await dbMod.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(await tokens.getValidAccessTokenUntil(account.id)).toEqual({ token: issued.access_token, until: row.expires_at! * 1000 - 60_000 });
    const expiring = await seedConnection(30);
    const fresh = await tokens.getValidAccessTokenUntil(expiring.account.id);
    expect(fresh.token).not.toBe(expiring.issued.access_token);
    expect(fresh.until).toBeLessThanOrEqual(clock.now());
  });

  it("50 concurrent calls at expiry cause exactly one refresh; the rotated refresh token is stored encrypted", async () => {
    const { account, issued } = await seedConnection(30); // inside the 60 s buffer
    const results = await Promise.all(Array.from({ length: 50 }, () => tokens.getValidAccessToken(account.id)));
    const fresh = results[0]!;
    expect(new Set(results).size).toBe(1);
    expect(fresh).not.toBe(issued.access_token);
    const refreshes = await refreshRequests();
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.status).toBe(200);
    expect(await personalInfoStatus(fresh)).toBe(200);

    const row = await dbMod.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.refresh_token).not.toBeNull();
    expect(row.refresh_token).not.toContain(issued.refresh_token);
    const storedRefresh = tokens.decryptToken(row.refresh_token!);
    expect(storedRefresh).not.toBe(issued.refresh_token); // rotated
    expect(tokens.decryptToken(row.access_token!)).toBe(fresh);
    expect(row.expires_at! * 1000).toBeGreaterThan(clock.now() + 3000_000);
    // The next call uses the stored token.
    expect(await tokens.getValidAccessToken(account.id)).toBe(fresh);
    expect(await refreshRequests()).toHaveLength(1);
  });

  it("two processes (separate module instances sharing the database) still refresh only once", async () => {
    const { account } = await seedConnection(10);
    vi.resetModules();
    const other = (await import("@/lib/ring/tokens")) as typeof tokens;
    expect(other).not.toBe(tokens);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? tokens : other).getValidAccessToken(account.id)));
    expect(new Set(results).size).toBe(1);
    expect(await refreshRequests()).toHaveLength(1);
  });

  it("a reused refresh token (invalid_grant) marks the connection needs_reconnect, pauses sync, keeps data, and is never retried", async () => {
    const { user, account, issued } = await seedConnection(5);
    // Stored data and sync state of this person.
    await dbMod.db.dailySleep.create({ data: { userId: user.id, documentId: "doc-1", day: "2026-03-14", score: 80, raw: "{}" } });
    await dbMod.db.personalInfo.create({ data: { userId: user.id, ringUserId: issued.user_id, raw: "{}" } });
    await dbMod.db.syncState.create({ data: { userId: user.id, collection: "daily_sleep", status: "idle" } });
    // Someone else spends the refresh token first (a copy of the database, a second install...).
    const spent = await fetch(`${emu.url}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: issued.refresh_token }),
    });
    expect(spent.status).toBe(200);
    await control("DELETE", "/_emulator/requests");

    await expect(tokens.getValidAccessToken(account.id)).rejects.toBeInstanceOf(tokens.ReconnectRequiredError);
    const refreshes = await refreshRequests();
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.status).toBe(400);

    const row = await dbMod.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.status).toBe("needs_reconnect");
    expect(row.statusReason).toBe("invalid_grant");
    expect(row.refresh_token).toBeNull();
    expect((await dbMod.db.syncState.findFirstOrThrow({ where: { userId: user.id } })).status).toBe("paused");
    expect(await dbMod.db.dailySleep.count({ where: { userId: user.id } })).toBe(1);
    expect(await dbMod.db.personalInfo.count({ where: { userId: user.id } })).toBe(1);
    expect(await dbMod.db.user.count({ where: { id: user.id } })).toBe(1);

    // Never retried: every later call fails fast without touching the token endpoint.
    await expect(tokens.getValidAccessToken(account.id)).rejects.toBeInstanceOf(tokens.ReconnectRequiredError);
    await expect(tokens.refreshAfterUnauthorized(account.id, issued.access_token)).rejects.toBeInstanceOf(tokens.ReconnectRequiredError);
    expect(await refreshRequests()).toHaveLength(1);
    expect(await tokens.getRingAccountForUser(user.id)).toMatchObject({ accountId: account.id, status: "needs_reconnect" });
  });

  it("a disconnected connection needs reconnecting", async () => {
    const { user, account } = await seedConnection(3600);
    await accounts.disconnectAccount(account.id, user.id);
    await expect(tokens.getValidAccessToken(account.id)).rejects.toBeInstanceOf(tokens.ReconnectRequiredError);
    expect(await refreshRequests()).toHaveLength(0);
  });
});

describe("refreshAfterUnauthorized", () => {
  it("returns the stored token when it already differs from the rejected one", async () => {
    const { account, issued } = await seedConnection(3600);
    expect(await tokens.refreshAfterUnauthorized(account.id, "some-older-token")).toBe(issued.access_token);
    expect(await refreshRequests()).toHaveLength(0);
  });

  it("after the grant was revoked at the service, the 401 path ends in needs_reconnect", async () => {
    const { account, issued } = await seedConnection(3600);
    await fetch(`${emu.url}/oauth/revoke?access_token=${encodeURIComponent(issued.access_token)}`, { method: "POST" });
    expect(await personalInfoStatus(issued.access_token)).toBe(401);
    // The emulator revokes the refresh token with its access token: the one refresh answers invalid_grant.
    await expect(tokens.refreshAfterUnauthorized(account.id, issued.access_token)).rejects.toBeInstanceOf(tokens.ReconnectRequiredError);
    expect(await refreshRequests()).toHaveLength(1);
    expect((await dbMod.db.account.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("needs_reconnect");
  });

  it("forces exactly one refresh when the stored token is the rejected one, even before its expiry", async () => {
    const second = await seedConnection(3600);
    const results = await Promise.all(Array.from({ length: 10 }, () => tokens.refreshAfterUnauthorized(second.account.id, second.issued.access_token)));
    expect(new Set(results).size).toBe(1);
    expect(results[0]).not.toBe(second.issued.access_token);
    expect(await personalInfoStatus(results[0]!)).toBe(200);
    expect((await refreshRequests()).filter((r) => r.status === 200)).toHaveLength(1);
  });
});

describe("tokens at rest", () => {
  /** What the database holds of the account: the SQLite file and its log as bytes, or the row as PostgreSQL stores it (its text form). */
  async function storedBytes(accountId: string): Promise<Buffer> {
    const url = process.env.DATABASE_URL ?? "";
    if (/^postgres(ql)?:/.test(url)) {
      const rows = await dbMod.db.$queryRaw<Array<{ row: string }>>`SELECT a::text AS row FROM "Account" a WHERE id = ${accountId}`;
      expect(rows).toHaveLength(1);
      return Buffer.from(rows[0]!.row, "utf8");
    }
    const file = url.replace(/^file:/, "");
    const files = [file, `${file}-wal`].filter((f) => fs.existsSync(f));
    expect(files.length).toBeGreaterThan(0);
    return Buffer.concat(files.map((f) => fs.readFileSync(f)));
  }

  it("no plain token is readable in what the database stores", async () => {
    const { account, issued } = await seedConnection(5);
    const fresh = await tokens.getValidAccessToken(account.id);
    const row = await dbMod.db.account.findUniqueOrThrow({ where: { id: account.id } });
    const newRefresh = tokens.decryptToken(row.refresh_token!);
    const bytes = await storedBytes(account.id);
    expect(bytes.length).toBeGreaterThan(0);
    for (const secret of [issued.access_token, issued.refresh_token, fresh, newRefresh]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(bytes.indexOf(Buffer.from(secret, "utf8"))).toBe(-1);
    }
    // ...while the ciphertext is there.
    expect(bytes.indexOf(Buffer.from(row.refresh_token!, "utf8"))).toBeGreaterThanOrEqual(0);
  });
});
