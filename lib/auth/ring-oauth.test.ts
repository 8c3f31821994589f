// The identity-provider settings: reading a discovery document (lib/auth/issuer.mjs), deriving
// the newer provider's addresses and scope request from it (lib/auth/ring-oauth.ts,
// lib/auth/scopes.ts), and repairing its `id_token: null` token responses (ring-provider.ts).
import { describe, expect, it } from "vitest";
import { DiscoveryError, discoveryUrl, readDiscovery } from "@/lib/auth/issuer.mjs";
import { legacyRingOAuth, newerRingOAuth } from "@/lib/auth/ring-oauth";
import { conformTokenResponse } from "@/lib/auth/ring-provider";
import { newerProviderScopeRequest, normalizeScopes, PROVIDER_SCOPE_NAMES, RING_SCOPES } from "@/lib/auth/scopes";
import { parseEnv } from "@/lib/env.mjs";

const ISSUER = "https://idp.example.test/oauth/v2/ext/oauth-anonymous";
const DOC = {
  issuer: ISSUER,
  authorization_endpoint: "https://idp.example.test/oauth/v2/ext/oauth-authorize",
  token_endpoint: "https://idp.example.test/oauth/v2/ext/oauth-token",
  revocation_endpoint: "https://idp.example.test/oauth/v2/ext/oauth-revoke",
  scopes_supported: [
    "extapi:personal",
    "extapi:daily",
    "extapi:heartrate",
    "extapi:session",
    "extapi:workout",
    "extapi:tag",
    "extapi:stress",
    "extapi:heart_health",
    "extapi:spo2",
    "openid",
    "profile",
    "email",
  ],
  authorization_response_iss_parameter_supported: true,
};

function fakeFetch(answer: (url: string) => Response | Promise<Response>): typeof fetch {
  return (async (input: RequestInfo | URL) => answer(String(input))) as typeof fetch;
}
const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("readDiscovery", () => {
  it("reads {issuer}/.well-known/openid-configuration and returns the validated document", async () => {
    const seen: string[] = [];
    const doc = await readDiscovery(ISSUER, { fetch: fakeFetch((u) => (seen.push(u), jsonResponse({ ...DOC, extra: 1 }))) });
    expect(seen).toEqual([`${ISSUER}/.well-known/openid-configuration`]);
    expect(doc).toMatchObject(DOC);
    expect(discoveryUrl(`${ISSUER}/`)).toBe(`${ISSUER}/.well-known/openid-configuration`);
  });

  it.each([
    ["an HTTP error", () => new Response("nope", { status: 404 }), /HTTP 404/],
    ["a body that is not JSON", () => new Response("<html>", { status: 200 }), /not JSON/],
    ["a document without a token endpoint", () => jsonResponse({ ...DOC, token_endpoint: undefined }), /token_endpoint/],
    ["an endpoint that is not a URL", () => jsonResponse({ ...DOC, authorization_endpoint: "javascript:alert(1)" }), /authorization_endpoint/],
    ["another issuer (RFC 8414 §3.3)", () => jsonResponse({ ...DOC, issuer: "https://evil.example.test" }), /another issuer/],
    ["a document larger than the cap", () => new Response("x".repeat(300 * 1024), { status: 200 }), /larger than/],
    ["an unreachable host", () => Promise.reject(new TypeError("fetch failed")), /could not be fetched/],
  ])("refuses %s with a DiscoveryError naming RING_OAUTH_ISSUER", async (_what, answer, reason) => {
    const err = await readDiscovery(ISSUER, { fetch: fakeFetch(answer as () => Response) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscoveryError);
    const message = (err as Error).message;
    expect(message).toMatch(/^RING_OAUTH_ISSUER=https:\/\/idp\.example\.test/);
    expect(message).toMatch(reason);
    expect(message).toContain("https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous");
  });
});

describe("the newer provider's settings", () => {
  const env = (vars: Record<string, string> = {}) => parseEnv({ RING_OAUTH_ISSUER: `${ISSUER}/`, ...vars });

  it("takes every address from discovery and asks for the names the provider lists", () => {
    const e = env();
    expect(e.RING_OAUTH_ISSUER).toBe(ISSUER);
    const o = newerRingOAuth(e, DOC);
    expect(o).toEqual({
      mode: "newer",
      issuer: ISSUER,
      authorizeUrl: DOC.authorization_endpoint,
      tokenUrl: DOC.token_endpoint,
      revokeUrl: DOC.revocation_endpoint,
      revocation: "rfc7009",
      // no extapi:email in this document: the OpenID `email` stands in
      requestScope:
        "email extapi:personal extapi:daily extapi:heartrate extapi:workout extapi:tag extapi:session extapi:spo2 extapi:stress extapi:heart_health",
    });
  });

  it("explicit RING_AUTHORIZE_URL / RING_TOKEN_URL / RING_REVOKE_URL still override", () => {
    const o = newerRingOAuth(
      env({
        RING_AUTHORIZE_URL: "https://a.example.test/auth",
        RING_TOKEN_URL: "https://a.example.test/token",
        RING_REVOKE_URL: "https://a.example.test/revoke",
      }),
      { ...DOC, revocation_endpoint: undefined },
    );
    expect([o.authorizeUrl, o.tokenUrl, o.revokeUrl]).toEqual(["https://a.example.test/auth", "https://a.example.test/token", "https://a.example.test/revoke"]);
    expect(newerRingOAuth(env(), { ...DOC, revocation_endpoint: undefined }).revokeUrl).toBeNull();
  });

  it("maps RING_SCOPES onto the provider's names; unset RING_OAUTH_ISSUER keeps the legacy settings exactly", () => {
    expect(newerRingOAuth(env({ RING_SCOPES: "daily spo2Daily" }), DOC).requestScope).toBe("extapi:daily extapi:spo2 extapi:stress extapi:heart_health");
    expect(newerRingOAuth(env({ RING_SCOPES: "email spo2Daily" }), DOC).requestScope).toBe("email extapi:spo2");
    const legacy = legacyRingOAuth(parseEnv({}));
    expect(legacy).toEqual({
      mode: "legacy",
      issuer: null,
      authorizeUrl: "http://localhost:4010/oauth/authorize",
      tokenUrl: "http://localhost:4010/oauth/token",
      revokeUrl: "http://localhost:4010/oauth/revoke",
      revocation: "legacy",
      requestScope: RING_SCOPES.join(" "),
    });
  });
});

describe("newerProviderScopeRequest", () => {
  it("without scopes_supported uses the table's extapi: spellings and leaves out names it cannot be sure of", () => {
    expect(newerProviderScopeRequest(RING_SCOPES, null)).toEqual([
      "extapi:email",
      "extapi:personal",
      "extapi:daily",
      "extapi:heartrate",
      "extapi:workout",
      "extapi:tag",
      "extapi:session",
      "extapi:spo2",
      "extapi:reproductive_cycle",
    ]);
  });
  it("leaves out an internal scope the provider lists no name for", () => {
    expect(newerProviderScopeRequest(["daily", "spo2Daily"], ["extapi:daily"])).toEqual(["extapi:daily"]);
  });
  it("reading the granted names back gives the internal scopes asked for (round trip over the table)", () => {
    for (let mask = 0; mask < 1 << RING_SCOPES.length; mask++) {
      const wanted = RING_SCOPES.filter((_, i) => mask & (1 << i));
      expect(normalizeScopes(newerProviderScopeRequest(wanted, null))).toEqual(wanted);
      // this discovery document lists no name for the cycle's phases: they are not asked for
      expect(normalizeScopes(newerProviderScopeRequest(wanted, DOC.scopes_supported))).toEqual(wanted.filter((s) => s !== "reproductive_cycle"));
      expect(normalizeScopes(newerProviderScopeRequest(wanted, [...DOC.scopes_supported, "extapi:reproductive_cycle"]))).toEqual(wanted);
    }
    for (const e of PROVIDER_SCOPE_NAMES) expect(normalizeScopes(e.name)).toEqual(e.scope ? [e.scope] : []);
  });
});

describe("conformTokenResponse", () => {
  it("drops a null id_token and keeps everything else", async () => {
    const body = { token_type: "bearer", access_token: "a", expires_in: 60, refresh_token: "r", scope: "extapi:daily", id_token: null };
    const out = await conformTokenResponse(jsonResponse(body));
    expect(out.status).toBe(200);
    const { id_token: _gone, ...rest } = body;
    expect(await out.json()).toEqual(rest);
  });
  it("leaves a string id_token, error answers, and bodies that are not JSON alone", async () => {
    const withToken = jsonResponse({ access_token: "a", id_token: "x.y.z" });
    expect(await conformTokenResponse(withToken)).toBe(withToken);
    const error = jsonResponse({ error: "invalid_request", error_description: "Invalid request" }, 400);
    expect(await conformTokenResponse(error)).toBe(error);
    const html = new Response("<html>", { status: 502, headers: { "content-type": "text/html" } });
    expect(await conformTokenResponse(html)).toBe(html);
    const broken = new Response("{", { headers: { "content-type": "application/json" } });
    expect(await conformTokenResponse(broken)).toBe(broken);
  });
});
