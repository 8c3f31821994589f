// Integration: the whole "Connect your ring" round trip in-process — Auth.js route handlers
// (app/api/auth/[...nextauth]/route.ts) against the in-process ring emulator, with a cookie jar.
import { suiteEmulatorConfig, suiteToday } from "@/lib/test/suite-env.mjs";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { startEmulator, type RunningEmulator } from "@/lib/emulator/server";
import { absorbCookies, cookieHeader, emulatorControl, type Jar } from "@/lib/test/auth-flow";

const APP = "http://localhost:3999";
const CLIENT = {
  client_id: "ringside-flow-test",
  client_secret: "flow test secret+/=", // characters that need form-encoding in HTTP Basic
  redirect_uris: [`${APP}/api/auth/callback/ring`],
  approved: false, // the 10-user cap applies
};
const ALL = "email personal daily heartrate workout tag session spo2Daily";

let emu: RunningEmulator;
let route: typeof import("@/app/api/auth/[...nextauth]/route");
let dbMod: typeof import("@/lib/test/prisma");
let invites: typeof import("@/lib/auth/invites");
let crypto: typeof import("@/lib/ring/crypto");
let setupCode: typeof import("@/lib/auth/setup-code");

async function app(method: "GET" | "POST", path: string, jar: Jar, form?: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { cookie: cookieHeader(jar) };
  if (form) headers["content-type"] = "application/x-www-form-urlencoded";
  const req = new NextRequest(new URL(path, APP), { method, headers, body: form ? new URLSearchParams(form).toString() : undefined });
  const res = await (method === "GET" ? route.GET(req) : route.POST(req));
  absorbCookies(jar, res);
  return res;
}

async function emulator(path: string, init?: RequestInit): Promise<Response> {
  return fetch(new URL(path, emu.url), { redirect: "manual", ...init });
}

function control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  return emulatorControl<T>(emu.url, method, path, body);
}

/** Starts Connect: csrf + POST /api/auth/signin/ring; returns the authorize URL. */
async function startConnect(jar: Jar): Promise<URL> {
  const csrfRes = await app("GET", "/api/auth/csrf", jar);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await app("POST", "/api/auth/signin/ring", jar, { csrfToken, callbackUrl: `${APP}/` });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

/** The consent page's answer: the redirect back to the app's callback. */
async function consent(authorize: URL, email: string, opts: { scopes?: string; decision?: "allow" | "deny" } = {}): Promise<URL> {
  const form = new URLSearchParams({ user: email, decision: opts.decision ?? "allow" });
  if (opts.scopes !== undefined) form.set("granted_scope", opts.scopes);
  const res = await emulator(`${authorize.pathname}${authorize.search}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

async function finish(callback: URL, jar: Jar): Promise<URL> {
  const res = await app("GET", `${callback.pathname}${callback.search}`, jar);
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!, APP);
}

/** The whole round trip; `spoil` changes the callback or the cookies on their way back to Ringside. */
async function connect(email: string, opts: { scopes?: string; decision?: "allow" | "deny"; jar?: Jar; spoil?: (callback: URL, jar: Jar) => void } = {}) {
  const jar = opts.jar ?? new Map();
  const authorize = await startConnect(jar);
  const callback = await consent(authorize, email, opts);
  opts.spoil?.(callback, jar);
  const landed = await finish(callback, jar);
  return { jar, authorize, callback, landed };
}

async function counts() {
  const db = dbMod.db;
  return { users: await db.user.count(), accounts: await db.account.count(), sessions: await db.session.count() };
}

async function revokesFor(ringUserId: string): Promise<number> {
  const { requests } = await control<{ requests: Array<{ user_id: string | null; status: number }> }>("GET", "/_emulator/requests?kind=revoke");
  return requests.filter((r) => r.user_id === ringUserId && r.status === 200).length;
}

async function ringIdOf(email: string): Promise<string> {
  return (await control<{ user_id: string }>("POST", "/_emulator/users", { email })).user_id;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, tokenTtlS: 3600, historyDays: 5, webhookDelayMs: 0, today: suiteToday(), ...suiteEmulatorConfig() });
  await control("POST", "/_emulator/clients", CLIENT);
  Object.assign(process.env, {
    AUTH_URL: APP,
    RING_API_BASE_URL: emu.url,
    RING_CLIENT_ID: CLIENT.client_id,
    RING_CLIENT_SECRET: CLIENT.client_secret,
    RING_SCOPES: ALL,
    ALLOWED_EMAILS: "allowed@example.test",
    SYNC_DISABLED: "1", // jobs are queued, the scheduler does not run
  });
  route = await import("@/app/api/auth/[...nextauth]/route");
  dbMod = await import("@/lib/test/prisma");
  invites = await import("@/lib/auth/invites");
  crypto = await import("@/lib/ring/crypto");
  setupCode = await import("@/lib/auth/setup-code");
});

afterAll(async () => {
  await dbMod?.db.$disconnect();
  await emu?.close();
});

describe("Connect your ring (in-process round trip)", () => {
  it("denial ends on the error page and stores nothing", async () => {
    const { authorize, landed } = await connect("denier@example.test", { decision: "deny" });
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(authorize.searchParams.get("scope")).toBe(ALL);
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("denied");
    expect(await counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
  });

  it("a tampered state ends on the error page and stores nothing", async () => {
    const { landed } = await connect("tamper@example.test", { spoil: (callback) => callback.searchParams.set("state", "forged-state-value") });
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("state_mismatch");
    expect(await counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
  });

  it("a missing PKCE verifier cookie ends on the error page and stores nothing", async () => {
    const { landed } = await connect("pkce@example.test", {
      spoil: (_callback, jar) => {
        for (const k of [...jar.keys()]) if (k.includes("pkce")) jar.delete(k);
      },
    });
    expect(landed.searchParams.get("error")).toBe("state_mismatch");
    expect(await counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
  });

  it("the first person needs the setup code: without it, or with a wrong one, nothing is stored and the fresh token is revoked", async () => {
    const email = "owner@example.test";
    const ringId = await ringIdOf(email);
    const without = await connect(email);
    expect(without.landed.pathname).toBe("/sign-in/error");
    expect(without.landed.searchParams.get("error")).toBe("setup_code_required");
    const wrong = await connect(email, { jar: new Map([[setupCode.SETUP_CODE_COOKIE, "WRONGCODE234"]]) });
    expect(wrong.landed.searchParams.get("error")).toBe("setup_code_invalid");
    // The code's cookie lives for one round trip only.
    expect(wrong.jar.has(setupCode.SETUP_CODE_COOKIE)).toBe(false);
    expect(await counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
    expect(await revokesFor(ringId)).toBe(2);
  });

  it("the first person becomes the owner with the setup code; tokens are stored encrypted, granted scopes recorded", async () => {
    const email = "owner@example.test";
    const ringId = await ringIdOf(email);
    const code = setupCode.readOrCreateSetupCode()!;
    const { landed, jar } = await connect(email, { jar: new Map([[setupCode.SETUP_CODE_COOKIE, code]]) });
    expect(landed.toString()).toBe(`${APP}/`);
    expect(jar.has(setupCode.SETUP_CODE_COOKIE)).toBe(false);
    // Used up: the file is gone with the owner's creation.
    expect(setupCode.checkSetupCode(code)).toBe("wrong");
    expect([...jar.keys()]).toContain("authjs.session-token");
    const user = await dbMod.db.user.findUniqueOrThrow({ where: { ringUserId: ringId } });
    expect(user.role).toBe("owner");
    expect(user.email).toBe(email);
    const account = await dbMod.db.account.findFirstOrThrow({ where: { userId: user.id } });
    expect(account.providerAccountId).toBe(ringId);
    expect(account.status).toBe("active");
    expect(account.scope).toBe(ALL);
    expect(crypto.isEncryptedToken(account.access_token!)).toBe(true);
    expect(crypto.isEncryptedToken(account.refresh_token!)).toBe(true);
    const plain = crypto.decryptToken(account.access_token!);
    const res = await emulator("/v2/usercollection/personal_info", { headers: { authorization: `Bearer ${plain}` } });
    expect(res.status).toBe(200);
    const file = process.env.DATABASE_URL!.replace(/^file:/, "");
    const bytes = Buffer.concat([file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
    expect(bytes.indexOf(Buffer.from(plain))).toBe(-1);
    expect(bytes.indexOf(Buffer.from(crypto.decryptToken(account.refresh_token!)))).toBe(-1);
    expect(await dbMod.db.session.count({ where: { userId: user.id } })).toBe(1);
    // The sync feature was told: a backfill is queued for the new person.
    expect(await dbMod.db.job.count({ where: { userId: user.id, kind: "backfill" } })).toBeGreaterThan(0);
  });

  it("an uninvited second person is refused: no rows, their fresh token revoked at the service", async () => {
    const email = "stranger@example.test";
    const ringId = await ringIdOf(email);
    const before = await counts();
    const { landed, jar } = await connect(email);
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("not_invited");
    expect(jar.has("authjs.session-token")).toBe(false);
    expect(await counts()).toEqual(before);
    expect(await dbMod.db.user.count({ where: { ringUserId: ringId } })).toBe(0);
    expect(await revokesFor(ringId)).toBe(1);
  });

  it("an e-mail on ALLOWED_EMAILS may join without an invite (only when the e-mail is shared)", async () => {
    const withoutEmail = await connect("allowed@example.test", { scopes: "daily personal" });
    expect(withoutEmail.landed.searchParams.get("error")).toBe("not_invited");
    const { landed } = await connect("allowed@example.test", { scopes: "email daily" });
    expect(landed.toString()).toBe(`${APP}/`);
    const user = await dbMod.db.user.findFirstOrThrow({ where: { email: "allowed@example.test" } });
    expect(user.role).toBe("member");
  });

  it("an invited person joins as a member with the scopes they granted; the invite works once", async () => {
    const owner = await dbMod.db.user.findFirstOrThrow({ where: { role: "owner" } });
    const invite = await invites.issueInvite(owner.id);
    const stored = await dbMod.db.invite.findUniqueOrThrow({ where: { id: invite.id } });
    expect(stored.tokenHash).toBe(invites.hashInviteSecret(invite.secret));
    expect(stored.tokenHash).not.toContain(invite.secret);

    const jar: Jar = new Map([[invites.INVITE_COOKIE, invite.secret]]);
    const email = "guest@example.test";
    const ringId = await ringIdOf(email);
    const { landed } = await connect(email, { jar, scopes: "daily email" });
    expect(landed.toString()).toBe(`${APP}/`);
    expect(jar.has(invites.INVITE_COOKIE)).toBe(false); // cleared after use
    const guest = await dbMod.db.user.findUniqueOrThrow({ where: { ringUserId: ringId } });
    expect(guest.role).toBe("member");
    const account = await dbMod.db.account.findFirstOrThrow({ where: { userId: guest.id } });
    expect(account.scope).toBe("email daily");
    const used = await dbMod.db.invite.findUniqueOrThrow({ where: { id: invite.id } });
    expect(used.usedByUserId).toBe(guest.id);
    expect(used.usedAt).not.toBeNull();

    // The same link for somebody else: refused, nothing stored, token revoked.
    const before = await counts();
    const otherEmail = "guest2@example.test";
    const otherRing = await ringIdOf(otherEmail);
    const again = await connect(otherEmail, { jar: new Map([[invites.INVITE_COOKIE, invite.secret]]) });
    expect(again.landed.searchParams.get("error")).toBe("invite_invalid");
    expect(again.jar.has(invites.INVITE_COOKIE)).toBe(false);
    expect(await counts()).toEqual(before);
    expect(await revokesFor(otherRing)).toBe(1);
  });

  it("reconnecting after needs_reconnect re-links the same person, keeps data, updates tokens and scopes, resumes sync", async () => {
    const email = "guest@example.test";
    const user = await dbMod.db.user.findFirstOrThrow({ where: { email } });
    const account = await dbMod.db.account.findFirstOrThrow({ where: { userId: user.id } });
    await dbMod.db.dailySleep.create({ data: { userId: user.id, documentId: "kept", day: "2026-03-10", raw: "{}" } });
    await dbMod.db.syncState.upsert({
      where: { userId_collection: { userId: user.id, collection: "daily_sleep" } },
      create: { userId: user.id, collection: "daily_sleep", status: "paused" },
      update: { status: "paused" },
    });
    await dbMod.db.syncState.updateMany({ where: { userId: user.id }, data: { status: "paused" } });
    await dbMod.db.account.update({
      where: { id: account.id },
      data: { status: "needs_reconnect", statusReason: "invalid_grant", access_token: null, refresh_token: null },
    });
    const { landed } = await connect(email, { scopes: ALL });
    expect(landed.toString()).toBe(`${APP}/`);
    const after = await dbMod.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(after.userId).toBe(user.id);
    expect(after.status).toBe("active");
    expect(after.statusReason).toBeNull();
    expect(after.scope).toBe(ALL);
    expect(crypto.isEncryptedToken(after.access_token!)).toBe(true);
    expect(await dbMod.db.user.count({ where: { email } })).toBe(1);
    expect(await dbMod.db.account.count({ where: { userId: user.id } })).toBe(1);
    expect(await dbMod.db.dailySleep.count({ where: { userId: user.id } })).toBe(1);
    expect(await dbMod.db.syncState.count({ where: { userId: user.id } })).toBeGreaterThan(0);
    expect(await dbMod.db.syncState.count({ where: { userId: user.id, status: "paused" } })).toBe(0);
  });

  it("while signed in, connecting a different ring account is refused (no second account linked)", async () => {
    const { jar } = await connect("owner@example.test");
    const before = await counts();
    const { landed } = await connect("someone-else@example.test", { jar });
    expect(landed.searchParams.get("error")).toBe("different_account");
    expect((await counts()).accounts).toBe(before.accounts);
    expect((await counts()).users).toBe(before.users);
  });

  it("a replayed authorization code (token-endpoint error) ends on the error page", async () => {
    const jar: Jar = new Map();
    const callback = await consent(await startConnect(jar), "owner@example.test");
    const saved = new Map(jar);
    expect((await finish(callback, jar)).toString()).toBe(`${APP}/`);
    const replay = await finish(callback, saved);
    expect(replay.pathname).toBe("/sign-in/error");
    expect(replay.searchParams.get("error")).toBe("token_error");
    expect(replay.searchParams.get("detail")).toBe("invalid_grant");
  });

  it("an unreadable profile (personal_info refused) ends on the error page and stores nothing", async () => {
    const before = await counts();
    await control("POST", "/_emulator/faults", { status: 401, count: 1, path_prefix: "/v2/usercollection/personal_info" });
    const { landed } = await connect("owner@example.test");
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("profile_error");
    expect((await counts()).users).toBe(before.users);
    expect((await counts()).accounts).toBe(before.accounts);
  });

  it("client credentials the service rejects (e.g. the wrong portal's token URL) end on their own explanation", async () => {
    await control("POST", "/_emulator/clients", { ...CLIENT, client_secret: "rotated-in-the-portal" });
    try {
      const before = await counts();
      const { landed } = await connect("owner@example.test");
      expect(landed.pathname).toBe("/sign-in/error");
      expect(landed.searchParams.get("error")).toBe("client_rejected");
      expect(await counts()).toEqual(before);
    } finally {
      await control("POST", "/_emulator/clients", CLIENT);
    }
  });

  it("the service's 10-user cap for unapproved apps ends on its own explanation; nothing stored", async () => {
    // Fill the unapproved client up to 10 authorized accounts.
    const { clients } = await control<{ clients: Array<{ client_id: string; authorized_users?: number }> }>("GET", "/_emulator/clients");
    expect(clients.some((c) => c.client_id === CLIENT.client_id)).toBe(true);
    for (let i = 0; i < 10; i++) {
      await control("POST", "/_emulator/tokens", { client_id: CLIENT.client_id, email: `filler-${i}@example.test` });
    }
    const before = await counts();
    const { landed } = await connect("eleventh@example.test");
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("user_limit");
    expect(await counts()).toEqual(before);
  });
});
