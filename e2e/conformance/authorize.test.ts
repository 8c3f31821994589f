// Conformance: interface spec §5.1 (addresses, scopes), §5.2 steps 1–2 (GET /oauth/authorize,
// the redirect), §5.3 (client-side flow) and the emulator contract's consent/authorize rules.
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, DEMO_CLIENT, EXTRA_SCOPES, type Ring, type TestClient, scopeSet, uniqueEmail, useEmulator } from "@/e2e/conformance/support";

const ring: Ring = useEmulator();
let one: TestClient; // exactly one registered redirect URI
let two: TestClient; // two registered redirect URIs

beforeAll(async () => {
  one = await ring.registerClient();
  two = await ring.registerClient({
    redirect_uris: ["http://localhost:3999/first/callback", "http://127.0.0.1:3999/second/callback"],
  });
});

function base(client: TestClient, extra: Record<string, string | undefined> = {}) {
  return {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    scope: "daily",
    state: "st-1",
    ...extra,
  };
}

/** Checkbox values of the consent page. */
function checkboxes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<input\b[^>]*>/gi)) {
    const tag = m[0];
    if (!/type\s*=\s*["']?checkbox/i.test(tag)) continue;
    const v = /value\s*=\s*["']([^"']*)["']/i.exec(tag);
    if (v?.[1] !== undefined) out.push(v[1]);
  }
  return out.sort();
}

function expectErrorRedirect(r: { status: number; headers: Headers }, redirectUri: string, error: string, state: string | undefined) {
  expect(r.status).toBe(302);
  const loc = new URL(r.headers.get("location") ?? "");
  expect(`${loc.origin}${loc.pathname}`).toBe(redirectUri);
  expect(loc.searchParams.get("error")).toBe(error);
  expect(loc.searchParams.get("code")).toBeNull();
  if (state === undefined) expect(loc.searchParams.get("state")).toBeNull();
  else expect(loc.searchParams.get("state")).toBe(state);
}

function expectErrorPage(r: { status: number; headers: Headers }) {
  expect(r.status).toBe(400);
  expect(r.headers.get("location")).toBeNull();
  expect(r.headers.get("content-type") ?? "").toContain("text/html");
}

describe("spec §5.2 step 1 — GET /oauth/authorize", () => {
  it("response_type: required — left out gives an error redirect (invalid_request) carrying state", async () => {
    const r = await ring.getAuthorize(base(one, { response_type: undefined }));
    expectErrorRedirect(r, one.redirect_uris[0]!, "invalid_request", "st-1");
  });

  it("response_type: must be `code` — another value gives unsupported_response_type carrying state", async () => {
    const r = await ring.getAuthorize(base(one, { response_type: "id_token" }));
    expectErrorRedirect(r, one.redirect_uris[0]!, "unsupported_response_type", "st-1");
  });

  it("response_type=code renders the consent page: one checkbox per requested scope, Allow and Deny, POST to the same URL", async () => {
    const r = await ring.getAuthorize(base(one, { scope: "daily email spo2Daily" }));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type") ?? "").toContain("text/html");
    expect(checkboxes(r.text)).toEqual(["daily", "email", "spo2Daily"]);
    expect(r.text).toMatch(/<form\b[^>]*method\s*=\s*["']?post/i);
    expect(r.text).toMatch(/name\s*=\s*["']?decision["']?[^>]*value\s*=\s*["']?allow|value\s*=\s*["']?allow["']?[^>]*name\s*=\s*["']?decision/i);
    expect(r.text).toMatch(/name\s*=\s*["']?decision["']?[^>]*value\s*=\s*["']?deny|value\s*=\s*["']?deny["']?[^>]*name\s*=\s*["']?decision/i);
    expect(r.text).toMatch(/name\s*=\s*["']?user/i);
  });

  it("client_id: required — left out gives a 400 page and never a redirect", async () => {
    expectErrorPage(await ring.getAuthorize(base(one, { client_id: undefined })));
  });

  it("client_id: an unknown client gives a 400 page and never a redirect", async () => {
    expectErrorPage(await ring.getAuthorize(base(one, { client_id: "no-such-client" })));
  });

  it("redirect_uri: must exactly match a registered redirect URI — unregistered, trailing slash, extra query or other case give a 400 page", async () => {
    const registered = one.redirect_uris[0]!;
    for (const uri of [
      "http://localhost:3999/elsewhere",
      `${registered}/`,
      `${registered}?x=1`,
      registered.replace("callback", "Callback"),
      registered.replace("localhost", "127.0.0.1"),
    ]) {
      const r = await ring.getAuthorize(base(one, { redirect_uri: uri }));
      expectErrorPage(r);
    }
    // and the POST of the consent form is refused the same way (no redirect to an unregistered URI)
    const post = await ring.postConsent(ring.authorizeUrl(base(one, { redirect_uri: "http://evil.test/cb" })), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    expectErrorPage(post);
  });

  it("redirect_uri: URL-encoded; the exact registered URI is accepted and used for the redirect", async () => {
    const loc = await ring.authorizeAndConsent(base(two, { redirect_uri: two.redirect_uris[1] }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    expect(`${loc.origin}${loc.pathname}`).toBe(two.redirect_uris[1]);
    expect(loc.searchParams.get("code")).toBeTruthy();
  });

  it("redirect_uri: may be left out only when exactly one is registered (then that one is used)", async () => {
    const loc = await ring.authorizeAndConsent(base(one, { redirect_uri: undefined }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    expect(`${loc.origin}${loc.pathname}`).toBe(one.redirect_uris[0]);
    expect(loc.searchParams.get("code")).toBeTruthy();
    // several registered: leaving it out is refused with a 400 page (no safe redirect target)
    expectErrorPage(await ring.getAuthorize(base(two, { redirect_uri: undefined })));
  });

  it("state: arbitrary string returned unchanged in the redirect", async () => {
    const state = "a b/c?d=e&f+g=%41ü🙂";
    const loc = await ring.authorizeAndConsent(base(one, { state }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    expect(loc.searchParams.get("state")).toBe(state);
  });

  it("state: returned unchanged also on denial", async () => {
    const state = "deny & keep=this";
    const loc = await ring.authorizeAndConsent(base(one, { state }), {
      user: uniqueEmail(),
      granted_scope: "",
      decision: "deny",
    });
    expect(loc.searchParams.get("state")).toBe(state);
    expect(loc.searchParams.get("error")).toBe("access_denied");
  });

  it("state: optional — without it the redirect carries no state", async () => {
    const loc = await ring.authorizeAndConsent(base(one, { state: undefined }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    expect(loc.searchParams.get("code")).toBeTruthy();
    expect(loc.searchParams.has("state")).toBe(false);
  });

  it("scope: space-separated scopes, each offered and granted on its own", async () => {
    const loc = await ring.authorizeAndConsent(base(one, { scope: "daily email personal" }), {
      user: uniqueEmail(),
      granted_scope: "email daily personal",
      decision: "allow",
    });
    expect(scopeSet(loc.searchParams.get("scope"))).toEqual(["daily", "email", "personal"]);
  });

  it("scope: when blank, all available scopes are requested", async () => {
    // the spec's eight, and the cycle's phases the emulator serves beyond them
    const available = [...ALL_SCOPES, ...EXTRA_SCOPES].sort();
    for (const scope of [undefined, ""]) {
      const page = await ring.getAuthorize(base(one, { scope }));
      expect(page.status).toBe(200);
      expect(checkboxes(page.text)).toEqual(available);
      const loc = await ring.authorizeAndConsent(base(one, { scope }), {
        user: uniqueEmail(),
        granted_scope: available.join(" "),
        decision: "allow",
      });
      expect(scopeSet(loc.searchParams.get("scope"))).toEqual(available);
    }
  });

  it("scope: an unknown scope gives an invalid_scope error redirect carrying state", async () => {
    const r = await ring.getAuthorize(base(one, { scope: "daily telepathy" }));
    expectErrorRedirect(r, one.redirect_uris[0]!, "invalid_scope", "st-1");
  });

  it("code_challenge: recommended — an S256 challenge is accepted and a code issued", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const loc = await ring.authorizeAndConsent(base(one, { code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    expect(loc.searchParams.get("code")).toBeTruthy();
  });

  it("code_challenge: a value that is not base64url SHA-256 never yields tokens", async () => {
    const r = await ring.getAuthorize(base(one, { code_challenge: "abc=", code_challenge_method: "S256" }));
    if (r.status === 302) {
      // rejected at once …
      expectErrorRedirect(r, one.redirect_uris[0]!, "invalid_request", "st-1");
      return;
    }
    // … or accepted, but no verifier can redeem the code
    const loc = await ring.authorizeAndConsent(base(one, { code_challenge: "abc=", code_challenge_method: "S256" }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "allow",
    });
    const code = loc.searchParams.get("code") ?? "";
    const t = await ring.rawTokenResult({ grant_type: "authorization_code", code, redirect_uri: one.redirect_uris[0]!, code_verifier: "a".repeat(43) }, one);
    expect(t.status).toBe(400);
    expect(t.body.error).toBe("invalid_grant");
  });

  it("code_challenge_method: required if code_challenge is given — left out gives invalid_request carrying state", async () => {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const r = await ring.getAuthorize(base(one, { code_challenge: challenge }));
    expectErrorRedirect(r, one.redirect_uris[0]!, "invalid_request", "st-1");
  });

  it("code_challenge_method: must be `S256` — plain gives invalid_request carrying state", async () => {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const r = await ring.getAuthorize(base(one, { code_challenge: challenge, code_challenge_method: "plain" }));
    expectErrorRedirect(r, one.redirect_uris[0]!, "invalid_request", "st-1");
  });
});

describe("spec §5.2 step 2 — redirect", () => {
  it("on grant: GET redirect_uri with query parameters code, scope and state (validated by oauth4webapi)", async () => {
    const state = oauth.generateRandomState();
    const loc = await ring.authorizeAndConsent(base(one, { state, scope: "daily email" }), {
      user: uniqueEmail(),
      granted_scope: "daily email",
      decision: "allow",
    });
    expect(`${loc.origin}${loc.pathname}`).toBe(one.redirect_uris[0]);
    const params = oauth.validateAuthResponse(ring.as, { client_id: one.client_id }, loc, state);
    expect(params.get("code")).toMatch(/\S/);
    expect(scopeSet(params.get("scope"))).toEqual(["daily", "email"]);
    expect(loc.searchParams.get("error")).toBeNull();
  });

  it("on denial: same redirect URI with error=access_denied in place of code, plus state", async () => {
    const state = oauth.generateRandomState();
    const loc = await ring.authorizeAndConsent(base(one, { state }), {
      user: uniqueEmail(),
      granted_scope: "daily",
      decision: "deny",
    });
    expect(`${loc.origin}${loc.pathname}`).toBe(one.redirect_uris[0]);
    expect(loc.searchParams.get("error")).toBe("access_denied");
    expect(loc.searchParams.get("code")).toBeNull();
    expect(loc.searchParams.get("state")).toBe(state);
    expect(() => oauth.validateAuthResponse(ring.as, { client_id: one.client_id }, loc, state)).toThrow(oauth.AuthorizationResponseError);
  });
});

describe("spec §5.1 — authentication, general", () => {
  it("item 4: the alternative authorization address {alt_authorize_url}/authorize serves the same flow", async () => {
    const conn = await ring.connect(one, { scope: "daily", authorizePath: "/authorize" });
    expect(conn.accessToken).toMatch(/^[A-Za-z0-9]+$/);
    const r = await ring.api("/v2/usercollection/personal_info", { token: conn.accessToken });
    expect(r.status).toBe(200);
    expectErrorPage(await ring.getAuthorize(base(one, { client_id: "no-such-client" }), "/authorize"));
  });

  it("item 5: the eight scopes email, personal, daily, heartrate, workout, tag, session, spo2Daily are each grantable", async () => {
    for (const scope of ALL_SCOPES) {
      const loc = await ring.authorizeAndConsent(base(one, { scope }), {
        user: uniqueEmail(),
        granted_scope: scope,
        decision: "allow",
      });
      expect(loc.searchParams.get("scope")).toBe(scope);
    }
  });

  it("item 5: the user may disable scopes — the granted list may differ from (be a subset of) the requested one", async () => {
    const conn = await ring.connect(one, { scope: "daily email personal", grant: "daily" });
    expect(conn.grantedScope).toEqual(["daily"]);
    const info = await ring.personalInfo(conn.accessToken);
    expect(info.email).toBeNull();
  });

  it("item 5: scopes ticked beyond the request are not granted", async () => {
    const loc = await ring.authorizeAndConsent(base(one, { scope: "daily" }), {
      user: uniqueEmail(),
      granted_scope: "daily email personal",
      decision: "allow",
    });
    expect(scopeSet(loc.searchParams.get("scope"))).toEqual(["daily"]);
  });
});

describe("spec §5.3 — client-side only flow (implicit)", () => {
  it("item 1: response_type=token with client_id, redirect_uri, state and scope as in 5.2", async () => {
    const page = await ring.getAuthorize(base(one, { response_type: "token", scope: "daily email" }));
    expect(page.status).toBe(200);
    expect(checkboxes(page.text)).toEqual(["daily", "email"]);
    expectErrorPage(await ring.getAuthorize(base(one, { response_type: "token", client_id: "no-such-client" })));
    expectErrorPage(await ring.getAuthorize(base(one, { response_type: "token", redirect_uri: "http://localhost:3999/other" })));
  });

  it("item 2: on grant the fragment carries token_type=bearer, access_token, expires_in, scope (subset) and state", async () => {
    const { location, fragment } = await ring.implicit(one, {
      scope: "daily email personal",
      grant: "daily email",
      state: "imp-1 x",
    });
    expect(`${location.origin}${location.pathname}`).toBe(one.redirect_uris[0]);
    expect(location.searchParams.get("access_token")).toBeNull();
    expect(fragment.get("token_type")?.toLowerCase()).toBe("bearer");
    expect(fragment.get("access_token")).toMatch(/^[A-Za-z0-9]+$/);
    expect(fragment.get("expires_in")).toMatch(/^\d+$/);
    expect(scopeSet(fragment.get("scope"))).toEqual(["daily", "email"]);
    expect(fragment.get("state")).toBe("imp-1 x");
    const info = await ring.personalInfo(fragment.get("access_token") ?? "");
    expect(typeof info.email).toBe("string");
  });

  it("item 3: on denial the redirect carries error=access_denied and state", async () => {
    const { location, fragment } = await ring.implicit(one, { scope: "daily", state: "imp-deny", decision: "deny" });
    const params = new URLSearchParams([...location.searchParams, ...fragment]);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("imp-deny");
    expect(params.get("access_token")).toBeNull();
  });

  it("item 4: no refresh token is issued; the token lasts 30 days (expires_in 2592000)", async () => {
    const { fragment } = await ring.implicit(one, { scope: "daily" });
    expect(fragment.has("refresh_token")).toBe(false);
    expect(Number(fragment.get("expires_in"))).toBe(2_592_000);
  });
});

describe("emulator contract — consent page and clients", () => {
  it("the demo client ringside-demo is registered at start with http://localhost:3000/api/auth/callback/ring", async () => {
    const conn = await ring.connect(DEMO_CLIENT, { scope: "daily email", clientAuth: "post" });
    expect(conn.accessToken).toMatch(/^[A-Za-z0-9]+$/);
    expectErrorPage(await ring.getAuthorize(base(DEMO_CLIENT, { redirect_uri: "http://localhost:3000/api/auth/callback/other" })));
  });

  it("the consent POST creates the account on first use (user e-mail) and reuses it afterwards", async () => {
    const email = uniqueEmail("first-use");
    const a = await ring.connect(one, { email, scope: "email daily" });
    const b = await ring.connect(one, { email, scope: "email daily" });
    const ia = await ring.personalInfo(a.accessToken);
    const ib = await ring.personalInfo(b.accessToken);
    expect(ia.email).toBe(email);
    expect(ib.id).toBe(ia.id);
  });

  it("POST /_emulator/clients registers a client whose redirect URIs are then accepted", async () => {
    const c = await ring.registerClient({ redirect_uris: ["http://127.0.0.1:4999/cb"] });
    const r = await ring.getAuthorize(base(c));
    expect(r.status).toBe(200);
  });
});
