// Conformance: the newer identity provider (ring-api-facts §5.1, §5.6 and the Addendum of
// 2026-11-23) beside the legacy one, driven with oauth4webapi from its discovery document:
// discovery, authorize with `iss` on every callback (RFC 9207) and state returned as sent,
// token responses with `id_token: null` and `extapi:` names, PKCE and single-use refresh
// tokens as on the legacy side, one portal per client (400 invalid_request at the legacy
// token address), RFC 7009 revocation, the unchanged consent form contract, and the
// bare-scope setting.
import { clock } from "@/lib/clock";
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, it } from "vitest";
import { type Ring, type TestClient, readResult, scopeSet, uniqueEmail, useEmulator } from "@/e2e/conformance/support";

const ring: Ring = useEmulator({ tokenTtlS: 3600 });
/** Same provider with RING_EMULATOR_BARE_SCOPES=grant. */
const granting: Ring = useEmulator({ bareScopes: "grant" });

const ISSUER_PATH = "/oauth/v2/ext/oauth-anonymous";
const EXTAPI = ["extapi:email", "extapi:personal", "extapi:daily", "extapi:heartrate", "extapi:workout", "extapi:tag", "extapi:session", "extapi:spo2"];
const PERSONAL = "/v2/usercollection/personal_info";

let dev: TestClient;
let legacy: TestClient;
let as: oauth.AuthorizationServer;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

async function discover(r: Ring): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(`${r.url}${ISSUER_PATH}`);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
}

/** RFC 6749 body without a null id_token (what an Auth.js `token.conform` does). */
async function withoutNullIdToken(res: Response): Promise<Response> {
  const body = (await res.clone().json()) as Record<string, unknown>;
  if (body.id_token !== null) return res;
  delete body.id_token;
  return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
}

type Authorized = { callback: URL; verifier: string; state: string };

async function authorizeAt(
  r: Ring,
  server: oauth.AuthorizationServer,
  client: TestClient,
  opts: { scope?: string; grant?: string; state?: string; decision?: "allow" | "deny"; email?: string } = {},
): Promise<Authorized> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = opts.state ?? oauth.generateRandomState();
  const url = new URL(server.authorization_endpoint!);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    scope: opts.scope ?? "extapi:daily extapi:email",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const page = await readResult(await fetch(url, { redirect: "manual" }));
  expect(page.status, page.text.slice(0, 200)).toBe(200);
  const answer = await r.postConsent(url.toString(), {
    user: opts.email ?? uniqueEmail("dev"),
    granted_scope: opts.grant ?? params.scope,
    decision: opts.decision ?? "allow",
  });
  expect(answer.status).toBe(302);
  return { callback: new URL(answer.headers.get("location")!), verifier, state };
}

async function codeGrant(server: oauth.AuthorizationServer, client: TestClient, a: Authorized, auth: "basic" | "post" = "basic") {
  const params = oauth.validateAuthResponse(server, { client_id: client.client_id }, a.callback, a.state);
  const clientAuth = auth === "basic" ? oauth.ClientSecretBasic(client.client_secret) : oauth.ClientSecretPost(client.client_secret);
  return oauth.authorizationCodeGrantRequest(server, { client_id: client.client_id }, clientAuth, params, client.redirect_uris[0]!, a.verifier, insecure);
}

async function connect(client = dev, opts: { scope?: string; grant?: string } = {}) {
  const a = await authorizeAt(ring, as, client, opts);
  const res = await withoutNullIdToken(await codeGrant(as, client, a));
  return oauth.processAuthorizationCodeResponse(as, { client_id: client.client_id }, res);
}

function form(values: Record<string, string>, client?: TestClient): URLSearchParams {
  return new URLSearchParams({ ...values, ...(client ? { client_id: client.client_id, client_secret: client.client_secret } : {}) });
}

async function post(r: Ring, path: string, body: URLSearchParams) {
  return readResult<Record<string, unknown>>(
    await fetch(`${r.url}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }),
  );
}

beforeAll(async () => {
  dev = await ring.registerClient({ portal: "developer" });
  legacy = await ring.registerClient();
  as = await discover(ring);
});

describe("newer IdP — discovery document", () => {
  it("{base}/oauth/v2/ext/oauth-anonymous/.well-known/openid-configuration names issuer {base}/oauth/v2/ext/oauth-anonymous (oauth4webapi processDiscoveryResponse)", () => {
    expect(as.issuer).toBe(`${ring.url}${ISSUER_PATH}`);
  });

  it("its endpoints are /oauth/v2/ext/oauth-authorize, -token, -revoke and -introspect on the same host", () => {
    expect(as.authorization_endpoint).toBe(`${ring.url}/oauth/v2/ext/oauth-authorize`);
    expect(as.token_endpoint).toBe(`${ring.url}/oauth/v2/ext/oauth-token`);
    expect(as.revocation_endpoint).toBe(`${ring.url}/oauth/v2/ext/oauth-revoke`);
    expect(as.introspection_endpoint).toBe(`${ring.url}/oauth/v2/ext/oauth-introspect`);
  });

  it("advertises scopes_supported (extapi: names, no offline_access), code only, both grants, S256 and plain, client_secret_basic and client_secret_post, and authorization_response_iss_parameter_supported", () => {
    for (const s of EXTAPI) expect(as.scopes_supported).toContain(s);
    expect(as.scopes_supported).not.toContain("offline_access");
    expect(as.response_types_supported).toEqual(["code"]);
    expect(as.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
    expect(as.code_challenge_methods_supported).toEqual(["S256", "plain"]);
    expect(as.token_endpoint_auth_methods_supported).toEqual(["client_secret_basic", "client_secret_post"]);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
  });
});

describe("newer IdP — authorize and callback (RFC 9207 iss)", () => {
  it("on grant the callback carries code, the granted extapi: scope, state as sent and iss = the issuer (validated by oauth4webapi)", async () => {
    const state = "state with spaces & ü+/=";
    const a = await authorizeAt(ring, as, dev, { state, scope: "extapi:daily extapi:spo2", grant: "extapi:daily" });
    expect(a.callback.searchParams.get("iss")).toBe(as.issuer);
    expect(a.callback.searchParams.get("state")).toBe(state);
    expect(a.callback.searchParams.get("scope")).toBe("extapi:daily");
    const params = oauth.validateAuthResponse(as, { client_id: dev.client_id }, a.callback, state);
    expect(params.get("code")).toBeTruthy();
  });

  it("a callback with a foreign iss, or none, fails RFC 9207 validation", async () => {
    const a = await authorizeAt(ring, as, dev);
    const foreign = new URL(a.callback);
    foreign.searchParams.set("iss", "https://attacker.example/oauth");
    expect(() => oauth.validateAuthResponse(as, { client_id: dev.client_id }, foreign, a.state)).toThrow(/iss/);
    const missing = new URL(a.callback);
    missing.searchParams.delete("iss");
    expect(() => oauth.validateAuthResponse(as, { client_id: dev.client_id }, missing, a.state)).toThrow(/iss/);
  });

  it("error redirects carry iss and state too: denial (access_denied) and an unknown scope (invalid_scope)", async () => {
    const denied = await authorizeAt(ring, as, dev, { decision: "deny", state: "d1" });
    expect(Object.fromEntries(denied.callback.searchParams)).toEqual({ error: "access_denied", state: "d1", iss: as.issuer });
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: dev.client_id,
      redirect_uri: dev.redirect_uris[0]!,
      scope: "extapi:nonsense",
      state: "d2",
    }))
      url.searchParams.set(k, v);
    const r = await fetch(url, { redirect: "manual" });
    const loc = new URL(r.headers.get("location")!);
    expect(loc.searchParams.get("error")).toBe("invalid_scope");
    expect(loc.searchParams.get("state")).toBe("d2");
    expect(loc.searchParams.get("iss")).toBe(as.issuer);
    expect(() => oauth.validateAuthResponse(as, { client_id: dev.client_id }, loc, "d2")).toThrow(oauth.AuthorizationResponseError);
  });

  it("the legacy provider's callback carries no iss", async () => {
    const location = await ring.authorizeAndConsent(
      { response_type: "code", client_id: legacy.client_id, redirect_uri: legacy.redirect_uris[0], scope: "daily", state: "l1" },
      { user: uniqueEmail(), granted_scope: "daily", decision: "allow" },
    );
    expect(location.searchParams.get("code")).toBeTruthy();
    expect(location.searchParams.has("iss")).toBe(false);
  });

  it("the consent form contract is the same (user, granted_scope, decision), each provider listing its own names", async () => {
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: dev.client_id, scope: "extapi:daily extapi:spo2" })) url.searchParams.set(k, v);
    const page = (await readResult(await fetch(url))).text;
    expect(page).toContain('name="user"');
    expect(page).toMatch(/name="granted_scope" value="extapi:daily"/);
    expect(page).toMatch(/name="granted_scope" value="extapi:spo2"/);
    expect(page).toContain('name="decision" value="allow"');
    expect(page).toContain('name="decision" value="deny"');
    const legacyPage = (await ring.getAuthorize({ response_type: "code", client_id: legacy.client_id, scope: "daily spo2Daily" })).text;
    expect(legacyPage).toMatch(/name="granted_scope" value="spo2Daily"/);
    expect(legacyPage).not.toContain("extapi:");
  });
});

describe("newer IdP — token endpoint", () => {
  it("the token response carries id_token: null, which oauth4webapi rejects as it stands; without it the response is a valid bearer token response", async () => {
    const a = await authorizeAt(ring, as, dev);
    const res = await codeGrant(as, dev, a);
    const conformed = await withoutNullIdToken(res.clone());
    const raw = (await res.clone().json()) as Record<string, unknown>;
    expect(raw).toHaveProperty("id_token", null);
    await expect(oauth.processAuthorizationCodeResponse(as, { client_id: dev.client_id }, res)).rejects.toThrow(/id_token/);
    const tokens = await oauth.processAuthorizationCodeResponse(as, { client_id: dev.client_id }, conformed);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.refresh_token).toBeTruthy();
    expect((await ring.api(PERSONAL, { token: tokens.access_token })).status).toBe(200);
  });

  it("scope in the token response uses extapi:-prefixed names, and the names decide the data (extapi:spo2 ↔ daily_spo2)", async () => {
    const withSpo2 = await connect(dev, { scope: "extapi:daily extapi:spo2 extapi:email" });
    expect(scopeSet(withSpo2.scope)).toEqual(["extapi:daily", "extapi:email", "extapi:spo2"]);
    expect((await ring.api("/v2/usercollection/daily_spo2", { token: withSpo2.access_token })).status).toBe(200);
    const without = await connect(dev, { scope: "extapi:daily" });
    expect((await ring.api("/v2/usercollection/daily_spo2", { token: without.access_token })).status).toBe(403);
    expect((await ring.api("/v2/usercollection/daily_sleep", { token: without.access_token })).status).toBe(200);
  });

  it("PKCE as on the legacy side: a wrong code_verifier gives invalid_grant; the code is single-use", async () => {
    const a = await authorizeAt(ring, as, dev);
    const params = oauth.validateAuthResponse(as, { client_id: dev.client_id }, a.callback, a.state);
    const code = params.get("code")!;
    const bad = await post(
      ring,
      "/oauth/v2/ext/oauth-token",
      form({ grant_type: "authorization_code", code, redirect_uri: dev.redirect_uris[0]!, code_verifier: oauth.generateRandomCodeVerifier() }, dev),
    );
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_grant"]);
    const good = await post(
      ring,
      "/oauth/v2/ext/oauth-token",
      form({ grant_type: "authorization_code", code, redirect_uri: dev.redirect_uris[0]!, code_verifier: a.verifier }, dev),
    );
    expect(good.status).toBe(200);
    const again = await post(
      ring,
      "/oauth/v2/ext/oauth-token",
      form({ grant_type: "authorization_code", code, redirect_uri: dev.redirect_uris[0]!, code_verifier: a.verifier }, dev),
    );
    expect([again.status, again.body.error]).toEqual([400, "invalid_grant"]);
  });

  it("single-use refresh tokens as on the legacy side (ClientSecretPost), each answer again with id_token: null", async () => {
    const tokens = await connect();
    const res = await oauth.refreshTokenGrantRequest(
      as,
      { client_id: dev.client_id },
      oauth.ClientSecretPost(dev.client_secret),
      tokens.refresh_token!,
      insecure,
    );
    const raw = (await res.clone().json()) as Record<string, unknown>;
    expect(raw.id_token).toBeNull();
    const next = await oauth.processRefreshTokenResponse(as, { client_id: dev.client_id }, await withoutNullIdToken(res));
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    const reuse = await post(ring, "/oauth/v2/ext/oauth-token", form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, dev));
    expect([reuse.status, reuse.body.error]).toEqual([400, "invalid_grant"]);
  });
});

describe("newer IdP — one portal per client", () => {
  it("POST /_emulator/clients takes portal legacy|developer, legacy by default", async () => {
    const r = await ring.control<{ portal: string }>("POST", "/_emulator/clients", {
      client_id: `p-${clock.now()}`,
      client_secret: "s",
      redirect_uris: ["http://localhost:3999/cb"],
    });
    expect(r.body.portal).toBe("legacy");
    const bad = await ring.control("POST", "/_emulator/clients", {
      client_id: "p-bad",
      client_secret: "s",
      redirect_uris: ["http://localhost:3999/cb"],
      portal: "other",
    });
    expect(bad.status).toBe(422);
  });

  it('a developer-portal client\'s code at the legacy token address gets 400 invalid_request "Invalid request"', async () => {
    const a = await authorizeAt(ring, as, dev);
    const code = a.callback.searchParams.get("code")!;
    const r = await post(
      ring,
      "/oauth/token",
      form({ grant_type: "authorization_code", code, redirect_uri: dev.redirect_uris[0]!, code_verifier: a.verifier }, dev),
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "invalid_request", error_description: "Invalid request" });
  });

  it("a developer-portal client's refresh token at the legacy token address gets 400 invalid_request, every time; a made-up client id gets invalid_client", async () => {
    const tokens = await connect();
    for (let i = 0; i < 2; i++) {
      const r = await post(ring, "/oauth/token", form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, dev));
      expect([r.status, r.body.error]).toEqual([400, "invalid_request"]);
    }
    const madeUp = await post(
      ring,
      "/oauth/token",
      form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: "made-up", client_secret: "x" }),
    );
    expect([madeUp.status, madeUp.body.error]).toEqual([401, "invalid_client"]);
  });

  it("an old-portal client is unknown at the newer provider: its authorize gives the 400 page (never a redirect) and its token request invalid_client", async () => {
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: legacy.client_id, redirect_uri: legacy.redirect_uris[0]! }))
      url.searchParams.set(k, v);
    const page = await fetch(url, { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    const r = await post(ring, "/oauth/v2/ext/oauth-token", form({ grant_type: "refresh_token", refresh_token: "x" }, legacy));
    expect([r.status, r.body.error]).toEqual([401, "invalid_client"]);
  });
});

describe("newer IdP — revocation (RFC 7009)", () => {
  it("POST token (+ token_type_hint) with client authentication revokes an access token; its refresh token dies with it", async () => {
    const tokens = await connect();
    const res = await oauth.revocationRequest(as, { client_id: dev.client_id }, oauth.ClientSecretBasic(dev.client_secret), tokens.access_token, {
      ...insecure,
      additionalParameters: { token_type_hint: "access_token" },
    });
    await oauth.processRevocationResponse(res);
    expect((await ring.api(PERSONAL, { token: tokens.access_token })).status).toBe(401);
    const refresh = await post(ring, "/oauth/v2/ext/oauth-token", form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, dev));
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("revokes a refresh token (ClientSecretPost); unknown tokens answer 200; no client authentication gives invalid_client", async () => {
    const tokens = await connect();
    const res = await oauth.revocationRequest(as, { client_id: dev.client_id }, oauth.ClientSecretPost(dev.client_secret), tokens.refresh_token!, insecure);
    await oauth.processRevocationResponse(res);
    expect((await ring.api(PERSONAL, { token: tokens.access_token })).status).toBe(401);
    expect((await post(ring, "/oauth/v2/ext/oauth-revoke", form({ token: "unknown" }, dev))).status).toBe(200);
    const anon = await post(ring, "/oauth/v2/ext/oauth-revoke", form({ token: "unknown" }));
    expect([anon.status, anon.body.error]).toEqual([401, "invalid_client"]);
  });
});

describe("newer IdP — bare scope names (RING_EMULATOR_BARE_SCOPES)", () => {
  it("ignore (the default): bare names in the request are silently not granted — the token comes back, the data requests read nothing", async () => {
    const tokens = await connect(dev, { scope: "daily extapi:email", grant: "daily extapi:email" });
    expect(tokens.scope).toBe("extapi:email");
    expect((await ring.api("/v2/usercollection/daily_readiness", { token: tokens.access_token })).status).toBe(403);
  });

  it("grant: bare names are granted as their extapi: names", async () => {
    const client = await granting.registerClient({ portal: "developer" });
    const server = await discover(granting);
    const a = await authorizeAt(granting, server, client, { scope: "daily spo2Daily", grant: "extapi:daily extapi:spo2" });
    expect(a.callback.searchParams.get("scope")).toBe("extapi:daily extapi:spo2");
    const tokens = await oauth.processAuthorizationCodeResponse(
      server,
      { client_id: client.client_id },
      await withoutNullIdToken(await codeGrant(server, client, a, "post")),
    );
    expect((await granting.api("/v2/usercollection/daily_spo2", { token: tokens.access_token })).status).toBe(200);
  });
});
