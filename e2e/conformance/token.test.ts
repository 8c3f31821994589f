// Conformance: interface spec §3 (credential lifecycle), §5.2 steps 3–4 (POST /oauth/token,
// refresh), §5.4 (revocation), §8.5, and ring-api-facts §5 (codes, errors, lifetimes, revoke).
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, it } from "vitest";
import { type Ring, type TestClient, pkceChallengeOf, uniqueEmail, useEmulator } from "@/e2e/conformance/support";

const ring: Ring = useEmulator({ tokenTtlS: 3600, codeTtlS: 600 });
/** A second emulator whose tokens and codes live one second. */
// A manual clock: expiry is checked by moving time past it, not by waiting.
const brief: Ring = useEmulator({ tokenTtlS: 1, codeTtlS: 1 }, { clock: "manual" });

let client: TestClient;
let other: TestClient;
let briefClient: TestClient;

beforeAll(async () => {
  client = await ring.registerClient();
  other = await ring.registerClient();
  briefClient = await brief.registerClient();
});

async function expectOAuthError(res: { status: number; body: { error?: string } }, statuses: number[], errors: string[]) {
  expect(statuses, `status ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  expect(errors, JSON.stringify(res.body)).toContain(res.body?.error);
}

const PERSONAL = "/v2/usercollection/personal_info";

describe("spec §3 — credential lifecycle", () => {
  it("authorization code issued → POST /oauth/token grant_type=authorization_code → access token and refresh token issued", async () => {
    const conn = await ring.connect(client, { scope: "daily email" });
    expect(conn.tokens.token_type).toBe("bearer");
    expect(conn.accessToken).toBeTruthy();
    expect(conn.refreshToken).toBeTruthy();
    expect(conn.expiresIn).toBe(3600);
    expect((await ring.api(PERSONAL, { token: conn.accessToken })).status).toBe(200);
  });

  it("refresh token valid → grant_type=refresh_token → refresh token used (invalidated); a new access token and a new refresh token are returned", async () => {
    const conn = await ring.connect(client, { scope: "daily" });
    const next = await ring.refresh(client, conn.refreshToken ?? "");
    expect(next.access_token).not.toBe(conn.accessToken);
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(conn.refreshToken);
    expect((await ring.api(PERSONAL, { token: next.access_token })).status).toBe(200);
    const again = await ring.rawTokenResult({ grant_type: "refresh_token", refresh_token: conn.refreshToken ?? "" }, client);
    await expectOAuthError(again, [400], ["invalid_grant"]);
  });

  it("access token valid → expires_in seconds elapsed → access token expired; requests get 401", async () => {
    const conn = await brief.connect(briefClient, { scope: "daily" });
    expect(conn.expiresIn).toBe(1);
    expect((await brief.api(PERSONAL, { token: conn.accessToken })).status).toBe(200);
    await brief.advance(1001);
    const r = await brief.api(PERSONAL, { token: conn.accessToken });
    expect(r.status).toBe(401);
    // the refresh token still yields a working access token (spec §5.2 step 4)
    const next = await brief.refresh(briefClient, conn.refreshToken ?? "");
    expect((await brief.api(PERSONAL, { token: next.access_token })).status).toBe(200);
  });

  it("access token (client-side flow) → 30 days elapsed → expired; no refresh token exists (lifetime independent of the server-side one)", async () => {
    const { fragment } = await brief.implicit(briefClient, { scope: "daily" });
    expect(Number(fragment.get("expires_in"))).toBe(2_592_000);
    expect(fragment.has("refresh_token")).toBe(false);
    await brief.advance(1001);
    // the server-side lifetime (1 s) has passed; the 30-day token still works
    expect((await brief.api(PERSONAL, { token: fragment.get("access_token") ?? "" })).status).toBe(200);
  });
});

describe("spec §5.2 step 3 — POST /oauth/token", () => {
  it("grant_type: required — left out gives 400", async () => {
    const { code, verifier } = await ring.getCode(client);
    const r = await ring.rawTokenResult({ code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier }, client);
    await expectOAuthError(r, [400], ["invalid_request", "unsupported_grant_type"]);
  });

  it("grant_type: only authorization_code or refresh_token — another value gives 400 unsupported_grant_type", async () => {
    const r = await ring.rawTokenResult({ grant_type: "client_credentials" }, client);
    await expectOAuthError(r, [400], ["unsupported_grant_type"]);
    const p = await ring.rawTokenResult({ grant_type: "password", username: "a", password: "b" }, client);
    await expectOAuthError(p, [400], ["unsupported_grant_type"]);
  });

  it("code: required — left out gives 400", async () => {
    const r = await ring.rawTokenResult({ grant_type: "authorization_code", redirect_uri: client.redirect_uris[0]! }, client);
    await expectOAuthError(r, [400], ["invalid_request", "invalid_grant"]);
  });

  it("code: an unknown code gives 400 invalid_grant", async () => {
    const r = await ring.rawTokenResult({ grant_type: "authorization_code", code: "notacode", redirect_uri: client.redirect_uris[0]! }, client);
    await expectOAuthError(r, [400], ["invalid_grant"]);
  });

  it("code: single-use (facts §5.2) — a second exchange gives 400 invalid_grant", async () => {
    const { code, verifier } = await ring.getCode(client);
    const form = { grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier };
    expect((await ring.rawTokenResult(form, client)).status).toBe(200);
    await expectOAuthError(await ring.rawTokenResult(form, client), [400], ["invalid_grant"]);
  });

  it("code: valid for the configured lifetime (facts §5.2: 10 minutes) — an expired code gives 400 invalid_grant", async () => {
    const { code, verifier } = await brief.getCode(briefClient);
    await brief.advance(1001);
    const r = await brief.rawTokenResult(
      { grant_type: "authorization_code", code, redirect_uri: briefClient.redirect_uris[0]!, code_verifier: verifier },
      briefClient,
    );
    await expectOAuthError(r, [400], ["invalid_grant"]);
  });

  it("code: a code issued to another client gives 400 invalid_grant", async () => {
    const { code, verifier } = await ring.getCode(client);
    const r = await ring.rawTokenResult({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier }, other);
    await expectOAuthError(r, [400], ["invalid_grant"]);
  });

  it("redirect_uri: identical to the one in the authorization request — a different one is refused", async () => {
    const { code, verifier } = await ring.getCode(client);
    const r = await ring.rawTokenResult(
      { grant_type: "authorization_code", code, redirect_uri: `${client.redirect_uris[0]}/x`, code_verifier: verifier },
      client,
    );
    await expectOAuthError(r, [400], ["invalid_grant", "invalid_redirect_uri", "invalid_request"]);
  });

  it("redirect_uri: sent at authorize, so leaving it out at the token step is refused", async () => {
    const { code, verifier } = await ring.getCode(client);
    const r = await ring.rawTokenResult({ grant_type: "authorization_code", code, code_verifier: verifier }, client);
    await expectOAuthError(r, [400], ["invalid_grant", "invalid_redirect_uri", "invalid_request"]);
  });

  it("redirect_uri: must be omitted if it was omitted there — omitted at both steps succeeds, sending it then is refused", async () => {
    const conn = await ring.connect(client, { redirectUri: null, scope: "daily" });
    expect(conn.accessToken).toBeTruthy();
    const { code, verifier } = await ring.getCode(client, { redirectUri: null });
    const r = await ring.rawTokenResult({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier }, client);
    await expectOAuthError(r, [400], ["invalid_grant", "invalid_redirect_uri", "invalid_request"]);
  });

  it("client_id and client_secret: in the form body (oauth4webapi ClientSecretPost)", async () => {
    const conn = await ring.connect(client, { clientAuth: "post", scope: "daily" });
    expect(conn.accessToken).toBeTruthy();
  });

  it("client credentials may instead be sent by HTTP Basic (client_id as user name, client_secret as password; ClientSecretBasic)", async () => {
    const conn = await ring.connect(client, { clientAuth: "basic", scope: "daily" });
    expect(conn.accessToken).toBeTruthy();
  });

  it("client credentials: a wrong secret is refused with invalid_client (Basic and body)", async () => {
    for (const kind of ["basic", "post"] as const) {
      const { code, verifier } = await ring.getCode(client);
      const r = await ring.rawTokenResult(
        { grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier },
        { client_id: client.client_id, client_secret: "wrong-secret" },
        kind,
      );
      await expectOAuthError(r, [400, 401], ["invalid_client"]);
    }
  });

  it("client credentials: required — none at all is refused with invalid_client", async () => {
    const { code, verifier } = await ring.getCode(client);
    const r = await ring.rawTokenResult(
      { grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier },
      undefined,
      "none",
    );
    await expectOAuthError(r, [400, 401], ["invalid_client", "invalid_request"]);
    const idOnly = await ring.rawTokenResult({
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirect_uris[0]!,
      code_verifier: verifier,
      client_id: client.client_id,
    });
    await expectOAuthError(idOnly, [400, 401], ["invalid_client", "invalid_request"]);
  });

  it("code_verifier: required if a code_challenge was given — left out gives 400", async () => {
    const { code } = await ring.getCode(client);
    const r = await ring.rawTokenResult({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]! }, client);
    await expectOAuthError(r, [400], ["invalid_grant", "invalid_request"]);
  });

  it("code_verifier: the original verifier — a different one gives 400 invalid_grant", async () => {
    const { code } = await ring.getCode(client);
    const r = await ring.rawTokenResult(
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: client.redirect_uris[0]!,
        code_verifier: oauth.generateRandomCodeVerifier(),
      },
      client,
    );
    await expectOAuthError(r, [400], ["invalid_grant"]);
  });

  it("code_verifier: without a code_challenge none is needed (oauth4webapi nopkce)", async () => {
    const conn = await ring.connect(client, { pkce: false, scope: "daily" });
    expect(conn.accessToken).toBeTruthy();
  });

  it("§8.5 PKCE verifier length: 43 to 128 characters inclusive — 42 and 129 are refused, 43 and 128 accepted", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    const verifierOf = (n: number) => Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join("");
    for (const [length, ok] of [
      [42, false],
      [43, true],
      [128, true],
      [129, false],
    ] as const) {
      const verifier = verifierOf(length);
      const { code } = await ring.getCode(client, { challenge: pkceChallengeOf(verifier) });
      const r = await ring.rawTokenResult({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier }, client);
      if (ok) expect(r.status, `verifier of ${length}: ${r.text}`).toBe(200);
      else await expectOAuthError(r, [400], ["invalid_grant", "invalid_request"]);
    }
  });

  it("body: application/x-www-form-urlencoded, UTF-8 (a charset parameter is accepted)", async () => {
    const { code, verifier } = await ring.getCode(client);
    const res = await fetch(`${ring.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: client.redirect_uris[0]!,
        code_verifier: verifier,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }).toString(),
    });
    expect(res.status).toBe(200);
  });
});

describe("spec §5.2 step 3 — token response", () => {
  it("JSON: token_type `bearer`, access_token (alphanumeric), expires_in (integer seconds), refresh_token (alphanumeric)", async () => {
    const { code, verifier } = await ring.getCode(client);
    const r = await ring.rawTokenResult(
      { grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier },
      client,
      "basic",
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type") ?? "").toContain("application/json");
    expect(r.body.token_type).toBe("bearer");
    expect(r.body.access_token).toMatch(/^[A-Za-z0-9]+$/);
    expect(r.body.refresh_token).toMatch(/^[A-Za-z0-9]+$/);
    expect(Number.isInteger(r.body.expires_in)).toBe(true);
    expect(r.body.expires_in).toBe(ring.config.tokenTtlS);
  });
});

describe("spec §5.2 step 4 — refresh", () => {
  it("grant_type=refresh_token with HTTP Basic client credentials returns the same four properties", async () => {
    const conn = await ring.connect(client, { scope: "daily" });
    const r = await ring.rawTokenResult({ grant_type: "refresh_token", refresh_token: conn.refreshToken ?? "" }, client, "basic");
    expect(r.status).toBe(200);
    expect(r.body.token_type).toBe("bearer");
    expect(r.body.access_token).toMatch(/^[A-Za-z0-9]+$/);
    expect(r.body.refresh_token).toMatch(/^[A-Za-z0-9]+$/);
    expect(r.body.expires_in).toBe(3600);
  });

  it("grant_type=refresh_token with client credentials in the body (oauth4webapi ClientSecretPost)", async () => {
    const conn = await ring.connect(client, { scope: "daily", clientAuth: "post" });
    const next = await ring.refresh(client, conn.refreshToken ?? "", "post");
    expect(next.token_type).toBe("bearer");
    expect(next.refresh_token).toBeTruthy();
  });

  it("the used refresh token is invalidated — reusing it gives 400 invalid_grant (oauth4webapi ResponseBodyError)", async () => {
    const conn = await ring.connect(client, { scope: "daily" });
    const first = await ring.refresh(client, conn.refreshToken ?? "");
    await expect(ring.refresh(client, conn.refreshToken ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
      status: 400,
    });
    // the rotated one keeps working, once
    const second = await ring.refresh(client, first.refresh_token ?? "");
    expect(second.access_token).toBeTruthy();
  });

  it("refresh_token: required — left out gives 400", async () => {
    const r = await ring.rawTokenResult({ grant_type: "refresh_token" }, client);
    await expectOAuthError(r, [400], ["invalid_request", "invalid_grant"]);
  });

  it("refresh token and client credentials must belong together — another client's refresh token is refused", async () => {
    const conn = await ring.connect(client, { scope: "daily" });
    const r = await ring.rawTokenResult({ grant_type: "refresh_token", refresh_token: conn.refreshToken ?? "" }, other);
    await expectOAuthError(r, [400], ["invalid_grant"]);
    const wrong = await ring.rawTokenResult(
      { grant_type: "refresh_token", refresh_token: conn.refreshToken ?? "" },
      { client_id: client.client_id, client_secret: "nope" },
    );
    await expectOAuthError(wrong, [400, 401], ["invalid_client"]);
  });

  it("the refreshed access token keeps the granted scopes", async () => {
    const conn = await ring.connect(client, { scope: "daily email personal", grant: "daily" });
    const next = await ring.refresh(client, conn.refreshToken ?? "");
    expect((await ring.api("/v2/usercollection/daily_sleep", { token: next.access_token })).status).toBe(200);
    const info = await ring.personalInfo(next.access_token);
    expect(info.email).toBeNull();
    expect(info.age ?? null).toBeNull();
  });
});

describe("spec §5.4 — revocation", () => {
  it("GET {base_url}/oauth/revoke?access_token=… succeeds (200/204, empty body) and the token then gets 401", async () => {
    const conn = await ring.connect(client, { scope: "daily" });
    const res = await fetch(`${ring.url}/oauth/revoke?access_token=${encodeURIComponent(conn.accessToken)}`);
    expect([200, 204]).toContain(res.status);
    expect(await res.text()).toBe("");
    expect((await ring.api(PERSONAL, { token: conn.accessToken })).status).toBe(401);
  });

  it("POST {base_url}/oauth/revoke?access_token=… is accepted as well (facts §5.5)", async () => {
    const conn = await ring.connect(client, { scope: "daily" });
    const res = await fetch(`${ring.url}/oauth/revoke?access_token=${encodeURIComponent(conn.accessToken)}`, {
      method: "POST",
    });
    expect([200, 204]).toContain(res.status);
    expect(await res.text()).toBe("");
    expect((await ring.api(PERSONAL, { token: conn.accessToken })).status).toBe(401);
    // other tokens of the same user and client are untouched
    const again = await ring.connect(client, { scope: "daily", email: uniqueEmail() });
    expect((await ring.api(PERSONAL, { token: again.accessToken })).status).toBe(200);
  });
});
