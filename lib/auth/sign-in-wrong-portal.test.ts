// Integration: an application registered in the newer developer portal, but Ringside set up
// for the legacy provider (RING_OAUTH_ISSUER unset). The legacy token address answers its code
// and its refresh tokens with 400 invalid_request (facts Addendum 2026-11-23): the sign-in ends
// on its own explanation, and a refused refresh marks the connection "wrong_portal" once
// instead of retrying forever.
import { clock } from "@/lib/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthFlow, type Jar } from "@/lib/test/auth-flow";

const APP = "http://localhost:3997";
const CLIENT = {
  client_id: "ringside-wrong-portal",
  client_secret: "wrong-portal-secret",
  redirect_uris: [`${APP}/api/auth/callback/ring`],
  approved: true,
  portal: "developer",
};

let flow: AuthFlow;
let tokens: typeof import("@/lib/ring/tokens");

beforeAll(async () => {
  flow = await AuthFlow.start(APP, CLIENT);
  delete process.env.RING_OAUTH_ISSUER;
  await flow.load();
  tokens = await import("@/lib/ring/tokens");
});

afterAll(() => flow?.close());

describe("a developer-portal app used with the legacy provider", () => {
  it("the code exchange at the legacy token address (400 invalid_request) ends on the wrong_portal explanation; nothing stored", async () => {
    const { authorize, landed, jar } = await flow.connect("dev-app@example.test");
    expect(authorize.pathname).toBe("/oauth/authorize");
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("wrong_portal");
    expect(landed.searchParams.get("detail")).toBe("invalid_request");
    expect(jar.has("authjs.session-token")).toBe(false);
    expect(await flow.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
    expect((await flow.requests("token")).map((r) => [r.provider, r.status])).toEqual([["legacy", 400]]);
  });

  it("a callback that names an issuer (the newer provider answered) gets the same explanation; the code is not used", async () => {
    const jar: Jar = new Map();
    const callback = await flow.consent(await flow.startConnect(jar), "dev-app@example.test");
    callback.searchParams.set("iss", "https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous");
    const before = (await flow.requests("token")).length;
    const landed = await flow.finish(callback, jar);
    expect(landed.searchParams.get("error")).toBe("wrong_portal");
    expect(landed.searchParams.get("detail")).toBe("iss_unexpected");
    expect((await flow.requests("token")).length).toBe(before);
    expect(await flow.counts()).toEqual({ users: 0, accounts: 0, sessions: 0 });
  });

  it("a refresh refused the same way marks the connection needs_reconnect (wrong_portal) after exactly one attempt", async () => {
    const minted = await flow.control<{ access_token: string; refresh_token: string; user_id: string; scope: string }>("POST", "/_emulator/tokens", {
      client_id: CLIENT.client_id,
      email: "connected-before@example.test",
      scope: "daily email",
    });
    const { encryptToken } = await import("@/lib/ring/crypto");
    const user = await flow.db.user.create({ data: { email: "connected-before@example.test", role: "owner", ringUserId: minted.user_id } });
    const account = await flow.db.account.create({
      data: {
        userId: user.id,
        type: "oauth",
        provider: "ring",
        providerAccountId: minted.user_id,
        access_token: encryptToken(minted.access_token),
        refresh_token: encryptToken(minted.refresh_token),
        expires_at: Math.floor(clock.now() / 1000) - 60,
        token_type: "bearer",
        scope: "email daily",
        status: "active",
      },
    });
    await flow.control("DELETE", "/_emulator/requests");
    await expect(tokens.getValidAccessToken(account.id)).rejects.toThrow(/RING_OAUTH_ISSUER/);
    const after = await flow.db.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(after.status).toBe("needs_reconnect");
    expect(after.statusReason).toBe("wrong_portal");
    await expect(tokens.getValidAccessToken(account.id)).rejects.toThrow(tokens.ReconnectRequiredError);
    expect((await flow.requests("token")).map((r) => [r.provider, r.grant_type, r.status])).toEqual([["legacy", "refresh_token", 400]]);
  });
});
