// The newer identity provider of the emulator (providers.ts, oauth.ts): discovery, authorize
// with `iss` on every callback, token with `id_token: null`, the portal split between the two
// providers, RFC 7009 revocation, introspection and the bare-scope setting.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPER_SCOPE_NAMES, parseScopeRequest } from "./providers";
import type { RunningEmulator } from "./server";
import { authorizeUrl, call, challengeOf, consent, registerClient, startTestEmulator, uniqueEmail, verifier, type Client } from "@/lib/test/emulator-kit";

let emu: RunningEmulator;
let granting: RunningEmulator;
let base: string;
let dev: Client;
let legacy: Client;
let iss: string;

const AUTHZ = "/oauth/v2/ext/oauth-authorize";
const TOKEN = "/oauth/v2/ext/oauth-token";
const REVOKE = "/oauth/v2/ext/oauth-revoke";
const INTROSPECT = "/oauth/v2/ext/oauth-introspect";

async function registerDeveloperClient(b: string): Promise<Client> {
  const c = await registerClient(b);
  const r = await call(b, "/_emulator/clients", {
    json: { client_id: c.client_id, client_secret: c.client_secret, redirect_uris: [c.redirect_uri], approved: true, portal: "developer" },
  });
  expect(r.body.portal).toBe("developer");
  return c;
}

beforeAll(async () => {
  emu = await startTestEmulator({ host: "127.0.0.1", tokenTtlS: 3600 });
  granting = await startTestEmulator({ host: "127.0.0.1", bareScopes: "grant" });
  base = emu.url;
  iss = `${base}/oauth/v2/ext/oauth-anonymous`;
  dev = await registerDeveloperClient(base);
  legacy = await registerClient(base);
});
afterAll(async () => {
  await emu.close();
  await granting.close();
});

/** path + query of an authorize request at `base`. */
const rel = (params: Record<string, string | undefined>, path: string) => authorizeUrl(base, params, path).slice(base.length);

type Flow = { scope?: string; grant?: string | string[]; method?: "S256" | "plain" | null; path?: string; b?: string; client?: Client; state?: string };

/** Authorize + consent at the newer provider; returns the callback URL. */
async function authorize(opts: Flow = {}) {
  const b = opts.b ?? base;
  const client = opts.client ?? dev;
  const v = verifier();
  const method = opts.method === undefined ? "S256" : opts.method;
  const url = authorizeUrl(
    b,
    {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      scope: opts.scope ?? "extapi:daily extapi:email",
      state: opts.state ?? "st-1",
      code_challenge: method === null ? undefined : method === "S256" ? challengeOf(v) : v,
      code_challenge_method: method ?? undefined,
    },
    opts.path ?? AUTHZ,
  );
  const answer = await consent(url, { user: uniqueEmail("dev"), decision: "allow", granted_scope: opts.grant });
  expect(answer.status).toBe(302);
  return { location: answer.location!, verifier: v };
}

async function exchange(code: string, v: string, opts: { path?: string; client?: Client; b?: string } = {}) {
  const client = opts.client ?? dev;
  return call(opts.b ?? base, opts.path ?? TOKEN, {
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirect_uri,
      code_verifier: v,
      client_id: client.client_id,
      client_secret: client.client_secret,
    },
  });
}

async function connected(opts: Flow = {}) {
  const { location, verifier: v } = await authorize(opts);
  const token = await exchange(location.searchParams.get("code")!, v, { b: opts.b, client: opts.client });
  expect(token.status).toBe(200);
  return token.body as { access_token: string; refresh_token: string; scope: string; id_token: null };
}

describe("discovery", () => {
  it("serves the OpenID configuration with the issuer, every endpoint and what the provider supports", async () => {
    const r = await call(base, "/oauth/v2/ext/oauth-anonymous/.well-known/openid-configuration");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      issuer: iss,
      authorization_endpoint: `${base}${AUTHZ}`,
      token_endpoint: `${base}${TOKEN}`,
      revocation_endpoint: `${base}${REVOKE}`,
      introspection_endpoint: `${base}${INTROSPECT}`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256", "plain"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(r.body.scopes_supported).toEqual(DEVELOPER_SCOPE_NAMES.map((s) => s.name));
    expect(r.body.scopes_supported).not.toContain("offline_access");
    const rfc8414 = await call(base, "/.well-known/oauth-authorization-server/oauth/v2/ext/oauth-anonymous");
    expect(rfc8414.body).toEqual(r.body);
    expect((await call(base, "/oauth/v2/ext/oauth-anonymous/.well-known/openid-configuration", { method: "POST", json: {} })).status).toBe(405);
  });
});

describe("authorize at the newer provider", () => {
  it("lists the provider's own names on the consent page; blank scope means every extapi name", async () => {
    const page = await call(base, rel({ response_type: "code", client_id: dev.client_id, scope: "extapi:spo2 extapi:daily" }, AUTHZ));
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="extapi:spo2"');
    expect(page.text).toContain('value="extapi:daily"');
    expect(page.text.match(/name="granted_scope" value="[^"]+" checked/g)).toHaveLength(2);
    const all = await call(base, rel({ response_type: "code", client_id: dev.client_id }, AUTHZ));
    const values = [...all.text.matchAll(/name="granted_scope" value="([^"]+)" checked/g)].map((m) => m[1]);
    expect(values).toEqual(DEVELOPER_SCOPE_NAMES.filter((s) => s.inDefault).map((s) => s.name));
    expect(values.every((v) => v!.startsWith("extapi:"))).toBe(true);
  });

  it("grants with code, the granted extapi names, state as sent and iss", async () => {
    const { location } = await authorize({ scope: "extapi:daily extapi:email extapi:spo2", grant: "extapi:daily extapi:spo2", state: "a b+c/ü" });
    expect(location.searchParams.get("code")).toMatch(/^[A-Za-z0-9]+$/);
    expect(location.searchParams.get("scope")).toBe("extapi:daily extapi:spo2");
    expect(location.searchParams.get("state")).toBe("a b+c/ü");
    expect(location.searchParams.get("iss")).toBe(iss);
  });

  it("puts iss on every error redirect too: denial, invalid_scope, unsupported_response_type, invalid_request", async () => {
    const url = authorizeUrl(base, { response_type: "code", client_id: dev.client_id, scope: "extapi:daily", state: "s1" }, AUTHZ);
    const denied = await consent(url, { user: uniqueEmail(), decision: "deny" });
    expect(Object.fromEntries(denied.location!.searchParams)).toEqual({ error: "access_denied", state: "s1", iss });
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ response_type: "code", scope: "extapi:daily nonsense" }, "invalid_scope"],
      [{ response_type: "token", scope: "extapi:daily" }, "unsupported_response_type"],
      [{ response_type: undefined }, "invalid_request"],
      [{ response_type: "code", code_challenge: "short", code_challenge_method: "S256" }, "invalid_request"],
    ];
    for (const [params, error] of cases) {
      const r = await call(base, rel({ client_id: dev.client_id, redirect_uri: dev.redirect_uri, state: "s2", ...params }, AUTHZ));
      expect(r.status, JSON.stringify(params)).toBe(302);
      const loc = new URL(r.headers.get("location")!);
      expect(loc.hash).toBe("");
      expect(loc.searchParams.get("error")).toBe(error);
      expect(loc.searchParams.get("state")).toBe("s2");
      expect(loc.searchParams.get("iss")).toBe(iss);
    }
  });

  it("knows only developer-portal clients: an old-portal client gets the 400 page, never a redirect", async () => {
    const r = await call(base, rel({ response_type: "code", client_id: legacy.client_id, redirect_uri: legacy.redirect_uri }, AUTHZ));
    expect(r.status).toBe(400);
    expect(r.headers.get("location")).toBeNull();
    expect(r.text).toContain("developer portal");
  });

  it("the legacy provider never adds iss, whoever the client is", async () => {
    for (const client of [legacy, dev]) {
      const { location } = await authorize({ client, path: "/oauth/authorize", scope: "daily" });
      expect(location.searchParams.get("code")).toBeTruthy();
      expect(location.searchParams.has("iss")).toBe(false);
    }
  });
});

describe("bare scope names at the newer provider (RING_EMULATOR_BARE_SCOPES)", () => {
  it("ignore (default): accepted, not offered, not granted", async () => {
    const { location, verifier: v } = await authorize({ scope: "daily extapi:email spo2Daily" });
    expect(location.searchParams.get("scope")).toBe("extapi:email");
    const token = await exchange(location.searchParams.get("code")!, v);
    expect(token.body.scope).toBe("extapi:email");
    const r = await call(base, "/v2/usercollection/daily_sleep", { token: token.body.access_token });
    expect(r.status).toBe(403);
  });

  it("grant: granted under their extapi names", async () => {
    const client = await registerDeveloperClient(granting.url);
    const t = await connected({ b: granting.url, client, scope: "daily spo2Daily", grant: undefined });
    expect(t.scope).toBe("extapi:daily extapi:spo2");
    expect((await call(granting.url, "/v2/usercollection/daily_spo2", { token: t.access_token })).status).toBe(200);
  });

  it("parseScopeRequest: unknown names are refused in both modes", () => {
    expect(parseScopeRequest("developer", "extapi:daily bogus", "ignore")).toEqual({ ok: false, unknown: ["bogus"] });
    expect(parseScopeRequest("developer", "daily email", "ignore")).toEqual({ ok: true, names: ["email"] });
    expect(parseScopeRequest("developer", "daily email", "grant")).toEqual({ ok: true, names: ["extapi:daily", "email"] });
    expect(parseScopeRequest("legacy", "extapi:daily", "grant")).toEqual({ ok: false, unknown: ["extapi:daily"] });
  });
});

describe("token at the newer provider", () => {
  it("answers id_token: null and extapi-named scope; the token opens the data the names grant", async () => {
    const t = await connected({ scope: "extapi:daily extapi:spo2 extapi:email extapi:stress" });
    expect(t).toMatchObject({ token_type: "bearer", expires_in: 3600, id_token: null, scope: "extapi:daily extapi:spo2 extapi:email extapi:stress" });
    expect(Object.prototype.hasOwnProperty.call(t, "id_token")).toBe(true);
    expect((await call(base, "/v2/usercollection/daily_spo2", { token: t.access_token })).status).toBe(200);
    expect((await call(base, "/v2/usercollection/daily_stress", { token: t.access_token })).status).toBe(200);
    const info = await call(base, "/v2/usercollection/personal_info", { token: t.access_token });
    expect(info.body.email).toContain("@");
    expect(info.body.age).toBeNull(); // extapi:personal not granted
  });

  it("accepts a plain PKCE challenge (advertised) and checks it", async () => {
    const { location, verifier: v } = await authorize({ method: "plain" });
    const code = location.searchParams.get("code")!;
    expect((await exchange(code, `${v}x`)).body.error).toBe("invalid_grant");
    expect((await exchange(code, v)).status).toBe(200);
  });

  it("rotates single-use refresh tokens; client credentials by Basic or in the body", async () => {
    const t = await connected();
    const basic = `Basic ${Buffer.from(`${dev.client_id}:${dev.client_secret}`).toString("base64")}`;
    const next = await call(base, TOKEN, { form: { grant_type: "refresh_token", refresh_token: t.refresh_token }, headers: { authorization: basic } });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ id_token: null, scope: t.scope });
    const again = await call(base, TOKEN, {
      form: { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: dev.client_id, client_secret: dev.client_secret },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
  });

  it("an old-portal client is unknown here (401 invalid_client), and its legacy code is not redeemable here", async () => {
    const { location, verifier: v } = await authorize({ client: legacy, path: "/oauth/authorize", scope: "daily" });
    const r = await exchange(location.searchParams.get("code")!, v, { client: legacy });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("invalid_client");
    // the same code still works where it was issued
    expect((await exchange(location.searchParams.get("code")!, v, { client: legacy, path: "/oauth/token" })).status).toBe(200);
  });
});

describe("a developer-portal client at the legacy token address", () => {
  it('gets 400 invalid_request "Invalid request" for its code, from either authorize address', async () => {
    for (const path of [AUTHZ, "/oauth/authorize"]) {
      const { location, verifier: v } = await authorize({ path, scope: path === AUTHZ ? "extapi:daily" : "daily" });
      const r = await exchange(location.searchParams.get("code")!, v, { path: "/oauth/token" });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "invalid_request", error_description: "Invalid request" });
    }
  });

  it("gets 400 invalid_request for every refresh, and a made-up client id gets invalid_client", async () => {
    const t = await connected();
    const r = await call(base, "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: dev.client_id, client_secret: dev.client_secret },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_request");
    const madeUp = await call(base, "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: "made-up", client_secret: "x" },
    });
    expect(madeUp.status).toBe(401);
    expect(madeUp.body.error).toBe("invalid_client");
    // the refresh token was not spent by the refused calls
    const ok = await call(base, TOKEN, {
      form: { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: dev.client_id, client_secret: dev.client_secret },
    });
    expect(ok.status).toBe(200);
  });
});

describe("revocation at the newer provider (RFC 7009)", () => {
  const form = (token: string, extra: Record<string, string> = {}, c: Client = dev) => ({
    token,
    client_id: c.client_id,
    client_secret: c.client_secret,
    ...extra,
  });

  it("revokes an access token (and its refresh token) or a refresh token (and its access token)", async () => {
    const a = await connected();
    expect((await call(base, REVOKE, { form: form(a.access_token, { token_type_hint: "access_token" }) })).status).toBe(200);
    expect((await call(base, "/v2/usercollection/personal_info", { token: a.access_token })).status).toBe(401);
    const refreshed = await call(base, TOKEN, {
      form: { grant_type: "refresh_token", refresh_token: a.refresh_token, client_id: dev.client_id, client_secret: dev.client_secret },
    });
    expect(refreshed.body.error).toBe("invalid_grant");

    const b = await connected();
    const r = await call(base, REVOKE, { form: form(b.refresh_token, { token_type_hint: "refresh_token" }) });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect((await call(base, "/v2/usercollection/personal_info", { token: b.access_token })).status).toBe(401);
  });

  it("needs POST, a token and client authentication; unknown tokens answer 200", async () => {
    expect((await call(base, `${REVOKE}?token=x`)).status).toBe(405);
    expect((await call(base, REVOKE, { form: { client_id: dev.client_id, client_secret: dev.client_secret } })).body.error).toBe("invalid_request");
    const t = await connected();
    const noAuth = await call(base, REVOKE, { form: { token: t.access_token } });
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.error).toBe("invalid_client");
    expect((await call(base, REVOKE, { form: form("not-a-token") })).status).toBe(200);
    expect((await call(base, "/v2/usercollection/personal_info", { token: t.access_token })).status).toBe(200);
  });

  it("another client's token is left alone; the legacy revoke address does not know the newer provider's tokens", async () => {
    const other = await registerDeveloperClient(base);
    const t = await connected();
    expect((await call(base, REVOKE, { form: form(t.access_token, {}, other) })).status).toBe(200);
    expect((await call(base, `/oauth/revoke?access_token=${t.access_token}`, { method: "POST" })).status).toBe(200);
    expect((await call(base, "/v2/usercollection/personal_info", { token: t.access_token })).status).toBe(200);
  });
});

describe("introspection and the control API", () => {
  it("introspects live and dead tokens of the calling client", async () => {
    const t = await connected({ scope: "extapi:daily" });
    const live = await call(base, INTROSPECT, { form: { token: t.access_token, client_id: dev.client_id, client_secret: dev.client_secret } });
    expect(live.body).toMatchObject({ active: true, scope: "extapi:daily", client_id: dev.client_id, token_type: "bearer", iss });
    expect(typeof live.body.exp).toBe("number");
    await call(base, REVOKE, { form: { token: t.access_token, client_id: dev.client_id, client_secret: dev.client_secret } });
    const dead = await call(base, INTROSPECT, { form: { token: t.access_token, client_id: dev.client_id, client_secret: dev.client_secret } });
    expect(dead.body).toEqual({ active: false });
  });

  it("POST /_emulator/tokens mints developer-provider tokens (extapi names, id_token null) that refresh only there", async () => {
    const r = await call(base, "/_emulator/tokens", { json: { client_id: dev.client_id, email: uniqueEmail(), scope: "daily extapi:spo2" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ scope: "extapi:daily extapi:spo2", id_token: null });
    const legacyRefresh = await call(base, "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: r.body.refresh_token, client_id: dev.client_id, client_secret: dev.client_secret },
    });
    expect(legacyRefresh.body.error).toBe("invalid_request");
    const ok = await call(base, TOKEN, {
      form: { grant_type: "refresh_token", refresh_token: r.body.refresh_token, client_id: dev.client_id, client_secret: dev.client_secret },
    });
    expect(ok.status).toBe(200);
  });

  it("logs which provider's address each OAuth request called", async () => {
    await call(base, "/_emulator/requests", { method: "DELETE" });
    await connected();
    const { requests } = (await call(base, "/_emulator/requests?kind=token")).body as { requests: Array<{ provider: string; status: number }> };
    expect(requests.map((r) => [r.provider, r.status])).toEqual([["developer", 200]]);
  });
});
