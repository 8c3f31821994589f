// The adapter's household rules under concurrency, and encryption at rest through linkAccount.
import { clock } from "@/lib/clock";
import { beforeAll, describe, expect, it } from "vitest";

let adapterMod: typeof import("@/lib/services/auth/adapter");
let ctxMod: typeof import("@/lib/auth/callback-context");
let dbMod: typeof import("@/lib/test/prisma");
let invites: typeof import("@/lib/auth/invites");
let crypto: typeof import("@/lib/ring/crypto");
let setupCode: typeof import("@/lib/auth/setup-code");

beforeAll(async () => {
  process.env.RING_REVOKE_URL = "http://127.0.0.1:9/oauth/revoke"; // nothing listens: revocation is best effort
  process.env.RING_REQUEST_TIMEOUT_MS = "500";
  adapterMod = await import("@/lib/services/auth/adapter");
  ctxMod = await import("@/lib/auth/callback-context");
  dbMod = await import("@/lib/test/prisma");
  invites = await import("@/lib/auth/invites");
  crypto = await import("@/lib/ring/crypto");
  setupCode = await import("@/lib/auth/setup-code");
});

function newUser(email: string) {
  return { id: "ignored", email, name: email, image: null, emailVerified: null };
}

async function attempt(ctx: import("@/lib/auth/callback-context").CallbackContext, email: string) {
  const adapter = adapterMod.ringsideAdapter();
  return ctxMod.runWithCallbackContext(ctx, async () => {
    try {
      return { user: await adapter.createUser!(newUser(email)), ctx };
    } catch (e) {
      return { error: e as Error, ctx };
    }
  });
}

describe("ringsideAdapter", () => {
  it("refuses to create a person outside an admitted ring sign-in", async () => {
    const adapter = adapterMod.ringsideAdapter();
    await expect(adapter.createUser!(newUser("nobody@example.test"))).rejects.toThrow(adapterMod.AdmissionRefusedError);
    expect(await dbMod.db.user.count()).toBe(0);
  });

  it("a setup code that does not match refuses the owner: nothing stored", async () => {
    setupCode.readOrCreateSetupCode();
    const base = { callbackScope: null, inviteSecret: null, sessionToken: null };
    const r = await attempt({ ...base, setupCode: "WRONGCODE123", ringUserId: "ring-x", admission: { kind: "owner", via: "setup_code" } }, "x@example.test");
    expect("error" in r && r.ctx.failure).toBe("setup_code_invalid");
    expect(await dbMod.db.user.count()).toBe(0);
  });

  it("two first sign-ins at once with the setup code: exactly one becomes the owner, the other is refused; the code is used up", async () => {
    const code = setupCode.readOrCreateSetupCode()!;
    expect(code).toMatch(/^[A-Z0-9]{12}$/);
    const base = { callbackScope: null, inviteSecret: null, sessionToken: null, setupCode: setupCode.formatSetupCode(code).toLowerCase() };
    const results = await Promise.all([
      attempt({ ...base, ringUserId: "ring-a", admission: { kind: "owner", via: "setup_code" } }, "a@example.test"),
      attempt({ ...base, ringUserId: "ring-b", admission: { kind: "owner", via: "setup_code" } }, "b@example.test"),
    ]);
    expect(setupCode.checkSetupCode(code)).toBe("wrong"); // consumed with the owner's creation
    const ok = results.filter((r) => "user" in r);
    const refused = results.filter((r) => "error" in r);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.ctx.failure).toBe("not_invited");
    expect(await dbMod.db.user.count({ where: { role: "owner" } })).toBe(1);
    expect(await dbMod.db.user.count()).toBe(1);
  });

  it("allowlisted people admitted as the first while someone else became the owner join as members, none refused", async () => {
    const base = { callbackScope: null, inviteSecret: null, sessionToken: null, setupCode: null };
    const owners = await dbMod.db.user.count({ where: { role: "owner" } });
    expect(owners).toBe(1);
    const results = await Promise.all(
      ["al1", "al2", "al3"].map((k) => attempt({ ...base, ringUserId: `ring-${k}`, admission: { kind: "owner", via: "allowlist" } }, `${k}@example.test`)),
    );
    expect(results.filter((r) => "error" in r)).toEqual([]);
    expect(await dbMod.db.user.count({ where: { role: "owner" } })).toBe(1);
    expect(await dbMod.db.user.count({ where: { ringUserId: { in: ["ring-al1", "ring-al2", "ring-al3"] }, role: "member" } })).toBe(3);
  });

  it("one invite used by two people at once admits only one", async () => {
    const owner = await dbMod.db.user.findFirstOrThrow({ where: { role: "owner" } });
    const invite = await invites.issueInvite(owner.id);
    const base = { callbackScope: null, inviteSecret: invite.secret, sessionToken: null };
    const results = await Promise.all([
      attempt({ ...base, ringUserId: "ring-c", admission: { kind: "invite", inviteId: invite.id } }, "c@example.test"),
      attempt({ ...base, ringUserId: "ring-d", admission: { kind: "invite", inviteId: invite.id } }, "d@example.test"),
    ]);
    expect(results.filter((r) => "user" in r)).toHaveLength(1);
    const refused = results.find((r) => "error" in r)!;
    expect(refused.ctx.failure).toBe("invite_invalid");
    expect(await dbMod.db.user.count({ where: { ringUserId: { in: ["ring-c", "ring-d"] } } })).toBe(1);
    const used = await dbMod.db.invite.findUniqueOrThrow({ where: { id: invite.id } });
    expect(used.usedAt).not.toBeNull();
  });

  it("an expired invite admits nobody", async () => {
    const owner = await dbMod.db.user.findFirstOrThrow({ where: { role: "owner" } });
    const invite = await invites.issueInvite(owner.id, clock.now() - invites.INVITE_TTL_MS - 1000);
    expect(await invites.findUsableInvite(invite.secret)).toBeNull();
    const r = await attempt(
      { callbackScope: null, inviteSecret: invite.secret, sessionToken: null, ringUserId: "ring-e", admission: { kind: "invite", inviteId: invite.id } },
      "e@example.test",
    );
    expect("error" in r).toBe(true);
    expect(await dbMod.db.user.count({ where: { ringUserId: "ring-e" } })).toBe(0);
  });

  it("linkAccount stores only ciphertext and the canonical granted scopes", async () => {
    const owner = await dbMod.db.user.findFirstOrThrow({ where: { role: "owner" } });
    const adapter = adapterMod.ringsideAdapter();
    await adapter.linkAccount!({
      userId: owner.id,
      type: "oauth",
      provider: "ring",
      providerAccountId: owner.ringUserId!,
      access_token: "PLAINACCESS123456",
      refresh_token: "PLAINREFRESH123456",
      expires_at: 2_000_000_000,
      token_type: "bearer",
      scope: "extapi:daily email",
    });
    const row = await dbMod.db.account.findFirstOrThrow({ where: { userId: owner.id } });
    expect(row.access_token).not.toContain("PLAINACCESS");
    expect(crypto.decryptToken(row.access_token!)).toBe("PLAINACCESS123456");
    expect(crypto.decryptToken(row.refresh_token!)).toBe("PLAINREFRESH123456");
    expect(row.scope).toBe("email daily");
    expect(row.status).toBe("active");
  });

  it("getSessionAndUser returns what Prisma's adapter returns, and nothing for unknown or deleted sessions", async () => {
    const owner = await dbMod.db.user.findFirstOrThrow({ where: { role: "owner" } });
    const adapter = adapterMod.ringsideAdapter();
    const expires = new Date(clock.now() + 3_600_000);
    await adapter.createSession!({ sessionToken: "sess-raw-read", userId: owner.id, expires });
    const got = await adapter.getSessionAndUser!("sess-raw-read");
    expect(got?.session).toEqual({ sessionToken: "sess-raw-read", userId: owner.id, expires });
    expect(got?.user).toMatchObject({ id: owner.id, email: owner.email, role: "owner" });
    const viaPrisma = await dbMod.db.session.findUniqueOrThrow({ where: { sessionToken: "sess-raw-read" } });
    expect(viaPrisma.expires.getTime()).toBe(got?.session.expires.getTime());
    // updateSession (Auth.js extends expiry) is read back correctly
    const later = new Date(clock.now() + 7_200_000);
    await adapter.updateSession!({ sessionToken: "sess-raw-read", expires: later });
    expect((await adapter.getSessionAndUser!("sess-raw-read"))?.session.expires).toEqual(later);
    expect(await adapter.getSessionAndUser!("no-such-session")).toBeNull();
    await adapter.deleteSession!("sess-raw-read");
    expect(await adapter.getSessionAndUser!("sess-raw-read")).toBeNull();
  });

  it("on Prisma's official adapter: a person without e-mail reaches Auth.js with an empty string, a session already gone is nothing to do, updateUser changes only the profile", async () => {
    const adapter = adapterMod.ringsideAdapter();
    const member = await dbMod.db.user.create({ data: { id: "no-mail", role: "member", ringUserId: "ring-no-mail", units: "imperial" } });
    await adapter.linkAccount!({ userId: member.id, type: "oauth", provider: "ring", providerAccountId: "ring-no-mail", access_token: "PLAIN-NO-MAIL" });
    expect(await adapter.getUser!(member.id)).toMatchObject({ id: member.id, email: "" });
    expect(await adapter.getUserByAccount!({ provider: "ring", providerAccountId: "ring-no-mail" })).toMatchObject({ id: member.id, email: "" });
    const expires = new Date(clock.now() + 3_600_000);
    await adapter.createSession!({ sessionToken: "sess-no-mail", userId: member.id, expires });
    expect((await adapter.getSessionAndUser!("sess-no-mail"))?.user).toMatchObject({ id: member.id, email: "", role: "member" });
    // removed meanwhile (a disconnect ends the person's sessions): Auth.js's renewal and sign-out find nothing to do
    await dbMod.db.session.deleteMany({ where: { userId: member.id } });
    expect(await adapter.updateSession!({ sessionToken: "sess-no-mail", expires: new Date(clock.now() + 7_200_000) })).toBeNull();
    await expect(Promise.resolve(adapter.deleteSession!("sess-no-mail"))).resolves.toBeUndefined();
    // Auth.js may change the profile, never the household's columns
    const patch = { id: member.id, name: "Named", role: "owner", units: "metric" };
    expect(await adapter.updateUser!(patch)).toMatchObject({ id: member.id, name: "Named", email: "" });
    expect(await dbMod.db.user.findUniqueOrThrow({ where: { id: member.id } })).toMatchObject({ name: "Named", role: "member", units: "imperial" });
    await dbMod.db.user.delete({ where: { id: member.id } });
  });
});

describe("ALLOWED_EMAILS", () => {
  it("matches exact addresses and *@domain entries, case-insensitively", async () => {
    const { isAllowedEmail } = await import("@/lib/auth/admission");
    const list = ["partner@example.net", "*@family.example.net"];
    expect(isAllowedEmail("Partner@Example.net", list)).toBe(true);
    expect(isAllowedEmail("kid@family.example.net", list)).toBe(true);
    expect(isAllowedEmail("kid@evil-family.example.net", list)).toBe(false);
    expect(isAllowedEmail("kid@family.example.net.evil", list)).toBe(false);
    expect(isAllowedEmail("other@example.net", list)).toBe(false);
    expect(isAllowedEmail("@family.example.net", list)).toBe(false);
  });
});
