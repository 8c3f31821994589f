// Integration: "Connect your ring" through the emulator's newer identity provider, in-process
// (Auth.js route handlers) with RING_OAUTH_ISSUER set: addresses and scope names from
// discovery, `id_token: null` repaired, `iss` checked (a foreign or missing one refused with
// nothing stored), scopes mapped to Ringside's model, refresh and revocation at the provider's
// own endpoints.
import { clock } from "@/lib/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthFlow, type Jar } from "@/lib/test/auth-flow";

const APP = "http://localhost:3998";
const CLIENT = {
  client_id: "ringside-newer-test",
  client_secret: "newer secret+/=",
  redirect_uris: [`${APP}/api/auth/callback/ring`],
  approved: true,
  portal: "developer",
};
const ALL = "email personal daily heartrate workout tag session spo2Daily";

let emu: AuthFlow["emu"];
let flow: AuthFlow;
let crypto: typeof import("@/lib/ring/crypto");
let tokens: typeof import("@/lib/ring/tokens");
let ringOauth: typeof import("@/lib/ring/oauth");

beforeAll(async () => {
  flow = await AuthFlow.start(APP, CLIENT, (url) => ({
    RING_OAUTH_ISSUER: `${url}/oauth/v2/ext/oauth-anonymous`,
    RING_SCOPES: ALL,
    ALLOWED_EMAILS: "*@allowed.test",
  }));
  emu = flow.emu;
  await flow.load();
  crypto = await import("@/lib/ring/crypto");
  tokens = await import("@/lib/ring/tokens");
  ringOauth = await import("@/lib/ring/oauth");
});

afterAll(() => flow?.close());

describe("Connect your ring through the newer identity provider (RING_OAUTH_ISSUER)", () => {
  it("asks the discovered authorize address for the provider's scope names, with PKCE and state", async () => {
    const authorize = await flow.startConnect(new Map());
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${emu.url}/oauth/v2/ext/oauth-authorize`);
    expect(authorize.searchParams.get("scope")).toBe(
      "extapi:email extapi:personal extapi:daily extapi:heartrate extapi:workout extapi:tag extapi:session extapi:spo2 extapi:stress extapi:heart_health",
    );
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("state")).toBeTruthy();
  });

  it("a callback with a foreign iss is refused before the code is used: error page, nothing stored", async () => {
    for (const tamper of [(u: URL) => u.searchParams.set("iss", "https://evil.example.test/oauth"), (u: URL) => u.searchParams.delete("iss")]) {
      const jar: Jar = new Map();
      const callback = await flow.consent(await flow.startConnect(jar), "first@allowed.test");
      expect(callback.searchParams.get("iss")).toBe(`${emu.url}/oauth/v2/ext/oauth-anonymous`);
      tamper(callback);
      const tokenCalls = (await flow.requests("token")).length;
      const landed = await flow.finish(callback, jar);
      expect(landed.pathname).toBe("/sign-in/error");
      expect(landed.searchParams.get("error")).toBe("issuer_mismatch");
      expect(jar.has("authjs.session-token")).toBe(false);
      expect(await flow.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
      expect((await flow.requests("token")).length).toBe(tokenCalls); // the code was never exchanged
    }
  });

  it("an error answer must carry the issuer as well (a denial without iss is refused as such)", async () => {
    const jar: Jar = new Map();
    const callback = await flow.consent(await flow.startConnect(jar), "first@allowed.test", { decision: "deny" });
    expect(callback.searchParams.get("iss")).toBeTruthy();
    expect((await flow.finish(new URL(callback), new Map(jar))).searchParams.get("error")).toBe("denied");
    callback.searchParams.delete("iss");
    expect((await flow.finish(callback, jar)).searchParams.get("error")).toBe("issuer_mismatch");
  });

  it("connects: the owner's account holds Ringside's scope names, encrypted tokens, no id_token", async () => {
    const email = "first@allowed.test";
    const ringId = await flow.ringIdOf(email);
    const { landed, callback } = await flow.connect(email);
    expect(callback.searchParams.get("scope")).toContain("extapi:daily");
    expect(landed.toString()).toBe(`${APP}/`);
    const user = await flow.db.user.findUniqueOrThrow({ where: { ringUserId: ringId } });
    expect(user.role).toBe("owner");
    expect(user.email).toBe(email);
    const account = await flow.db.account.findFirstOrThrow({ where: { userId: user.id } });
    expect(account.scope).toBe(ALL);
    expect(account.id_token).toBeNull();
    expect(crypto.isEncryptedToken(account.access_token!)).toBe(true);
    const res = await flow.emulator("/v2/usercollection/daily_spo2", { headers: { authorization: `Bearer ${crypto.decryptToken(account.access_token!)}` } });
    expect(res.status).toBe(200);
    const tokenCalls = await flow.requests("token");
    expect(tokenCalls.at(-1)).toMatchObject({ provider: "developer", status: 200, grant_type: "authorization_code" });
  });

  it("a subset of extapi: names is stored as the matching Ringside scopes (the rest shows as not shared)", async () => {
    const email = "second@allowed.test";
    const ringId = await flow.ringIdOf(email);
    const { landed } = await flow.connect(email, { scopes: "extapi:daily extapi:email extapi:stress" });
    expect(landed.toString()).toBe(`${APP}/`);
    const user = await flow.db.user.findUniqueOrThrow({ where: { ringUserId: ringId } });
    const account = await flow.db.account.findFirstOrThrow({ where: { userId: user.id } });
    expect(account.scope).toBe("email daily");
    const { missingCollections, dataCollectionsForScopes } = await import("@/lib/auth/scopes");
    expect(missingCollections(account.scope)).toEqual([
      "daily_spo2",
      "personal_details",
      "heartrate",
      "workout",
      "enhanced_tag",
      "tag",
      "session",
      "daily_cycle_phases",
    ]);
    expect(dataCollectionsForScopes(account.scope)).not.toContain("daily_spo2");
  });

  it("refreshes at the provider's token address and keeps Ringside's scope names", async () => {
    const user = await flow.db.user.findFirstOrThrow({ where: { email: "second@allowed.test" } });
    const account = await flow.db.account.findFirstOrThrow({ where: { userId: user.id } });
    await flow.db.account.update({ where: { id: account.id }, data: { expires_at: Math.floor(clock.now() / 1000) - 10 } });
    const fresh = await tokens.getValidAccessToken(account.id);
    expect(fresh).not.toBe(crypto.decryptToken(account.access_token!));
    const after = await flow.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(after.scope).toBe("email daily");
    expect(after.status).toBe("active");
    const refresh = (await flow.requests("token")).filter((r) => r.grant_type === "refresh_token");
    expect(refresh.map((r) => [r.provider, r.path, r.status])).toEqual([["developer", "/oauth/v2/ext/oauth-token", 200]]);
  });

  it("a refused sign-in hands the fresh token back at the provider's revocation endpoint (RFC 7009)", async () => {
    const email = "stranger@elsewhere.test";
    const ringId = await flow.ringIdOf(email);
    const before = await flow.counts();
    const { landed } = await flow.connect(email);
    expect(landed.searchParams.get("error")).toBe("not_invited");
    expect(await flow.counts()).toEqual(before);
    const revokes = (await flow.requests("revoke")).filter((r) => r.user_id === ringId);
    expect(revokes.map((r) => [r.provider, r.path, r.status])).toEqual([["developer", "/oauth/v2/ext/oauth-revoke", 200]]);
  });

  it("revokeAccessToken (disconnect) revokes at the provider: the token is dead afterwards", async () => {
    const user = await flow.db.user.findFirstOrThrow({ where: { email: "first@allowed.test" } });
    const account = await flow.db.account.findFirstOrThrow({ where: { userId: user.id } });
    const token = crypto.decryptToken(account.access_token!);
    expect(await ringOauth.revokeAccessToken(token, "test")).toBe(true);
    const res = await flow.emulator("/v2/usercollection/personal_info", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });
});
