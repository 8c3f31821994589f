import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO,
  authorizeUrl,
  call,
  challengeOf,
  connect,
  consent,
  registerClient,
  startManualClockEmulator,
  uniqueEmail,
  verifier,
  type Client,
} from "@/lib/test/emulator-kit";

let emu: Awaited<ReturnType<typeof startManualClockEmulator>>;
let base: string;
let client: Client;

beforeAll(async () => {
  emu = await startManualClockEmulator({ codeTtlS: 2, tokenTtlS: 3600 });
  base = emu.url;
  client = await registerClient(base);
});
afterAll(() => emu.close());

const ALL = "email personal daily heartrate workout tag session spo2Daily reproductive_cycle";

async function getCode(c: Client, opts: { challenge?: string | null; redirect?: string | null; scope?: string; email?: string } = {}) {
  const v = verifier();
  const challenge = opts.challenge === undefined ? challengeOf(v) : opts.challenge;
  const url = authorizeUrl(base, {
    response_type: "code",
    client_id: c.client_id,
    redirect_uri: opts.redirect === undefined ? c.redirect_uri : (opts.redirect ?? undefined),
    scope: opts.scope ?? "daily",
    state: "xyz",
    code_challenge: challenge ?? undefined,
    code_challenge_method: challenge ? "S256" : undefined,
  });
  const answer = await consent(url, { user: opts.email ?? uniqueEmail(), decision: "allow" });
  expect(answer.status).toBe(302);
  return { code: answer.location!.searchParams.get("code")!, verifier: v };
}

function tokenForm(c: Client, extra: Record<string, string>) {
  return { client_id: c.client_id, client_secret: c.client_secret, ...extra };
}

describe("GET /oauth/authorize", () => {
  it("renders a consent page with the e-mail field, one checkbox per requested scope, Allow and Deny", async () => {
    for (const path of ["/oauth/authorize", "/authorize"]) {
      const url = authorizeUrl(base, { response_type: "code", client_id: client.client_id, redirect_uri: client.redirect_uri, scope: "daily email" }, path);
      const res = await fetch(url, { redirect: "manual" });
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(html).toMatch(/<form method="post" action="[^"]*\?[^"]*client_id=/);
      expect(html).toContain('name="user"');
      expect(html.match(/type="checkbox" name="granted_scope"/g)).toHaveLength(2);
      expect(html).toContain('value="daily"');
      expect(html).toContain('value="email"');
      expect(html).toContain('name="decision" value="allow"');
      expect(html).toContain('name="decision" value="deny"');
    }
  });

  it("lists all 9 scopes when scope is blank or absent", async () => {
    for (const scope of [undefined, "", "   "]) {
      const res = await fetch(authorizeUrl(base, { response_type: "code", client_id: client.client_id, scope }), { redirect: "manual" });
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(html.match(/type="checkbox" name="granted_scope"/g)).toHaveLength(9);
    }
  });

  it.each([
    ["unknown client", { client_id: "nope" }],
    ["missing client", { client_id: undefined }],
    ["unregistered redirect_uri", { redirect_uri: "http://evil.example/cb" }],
    ["redirect_uri differing only by a trailing slash", { redirect_uri: "REDIRECT/" }],
  ])("answers %s with a 400 page, never a redirect", async (_name, override) => {
    const params: Record<string, string | undefined> = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      state: "s",
      ...override,
    };
    if (params.redirect_uri === "REDIRECT/") params.redirect_uri = `${client.redirect_uri}/`;
    const res = await fetch(authorizeUrl(base, params), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  it("requires redirect_uri when the client has several registered URIs, and uses the only one otherwise", async () => {
    const multi = await registerClient(base, { redirect_uris: ["http://localhost:3999/a", "http://localhost:3999/b"] });
    const res = await fetch(authorizeUrl(base, { response_type: "code", client_id: multi.client_id }), { redirect: "manual" });
    expect(res.status).toBe(400);
    const url = authorizeUrl(base, { response_type: "code", client_id: client.client_id, state: "s1" });
    const answer = await consent(url, { user: uniqueEmail(), decision: "allow" });
    expect(answer.location!.origin + answer.location!.pathname).toBe(client.redirect_uri);
  });

  it.each([
    ["missing response_type", { response_type: undefined }, "invalid_request"],
    ["unknown response_type", { response_type: "id_token" }, "unsupported_response_type"],
    ["unknown scope", { scope: "daily bogus" }, "invalid_scope"],
    ["plain PKCE", { code_challenge: "a".repeat(43), code_challenge_method: "plain" }, "invalid_request"],
    ["challenge without method", { code_challenge: "a".repeat(43) }, "invalid_request"],
    ["malformed challenge", { code_challenge: "short", code_challenge_method: "S256" }, "invalid_request"],
  ])("redirects %s with error=%s and the state", async (_name, override, error) => {
    const params = { response_type: "code", client_id: client.client_id, redirect_uri: client.redirect_uri, state: "st8", ...override };
    const res = await fetch(authorizeUrl(base, params), { redirect: "manual" });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get("location")!);
    expect(loc.origin + loc.pathname).toBe(client.redirect_uri);
    expect(loc.searchParams.get("error")).toBe(error);
    expect(loc.searchParams.get("state")).toBe("st8");
    expect(loc.searchParams.get("code")).toBeNull();
  });
});

describe("consent answer", () => {
  it("redirects with code, granted scope and state on Allow (subset of the requested scopes)", async () => {
    const url = authorizeUrl(base, {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      scope: "email daily personal",
      state: "a b&c",
    });
    const answer = await consent(url, { user: uniqueEmail(), decision: "allow", granted_scope: "daily email workout" });
    expect(answer.status).toBe(302);
    const loc = answer.location!;
    expect(loc.searchParams.get("code")).toMatch(/^[A-Za-z0-9]+$/);
    expect(loc.searchParams.get("scope")).toBe("email daily"); // workout was not requested
    expect(loc.searchParams.get("state")).toBe("a b&c");
  });

  it("accepts repeated granted_scope checkbox fields; the page's empty hidden field alone grants nothing", async () => {
    const url = authorizeUrl(base, { response_type: "code", client_id: client.client_id, scope: "email daily personal" });
    const a = await consent(url, { user: uniqueEmail(), decision: "allow", granted_scope: ["", "personal", "daily"] });
    expect(a.location!.searchParams.get("scope")).toBe("daily personal");
    const b = await consent(url, { user: uniqueEmail(), decision: "allow", granted_scope: [""] });
    expect(b.location!.searchParams.get("scope")).toBe("");
    const c = await consent(url, { user: uniqueEmail(), decision: "allow" }); // field absent: all requested
    expect(c.location!.searchParams.get("scope")).toBe("email daily personal");
  });

  it("redirects error=access_denied with the state on Deny", async () => {
    const url = authorizeUrl(base, { response_type: "code", client_id: client.client_id, state: "deny-me" });
    const answer = await consent(url, { decision: "deny" });
    expect(answer.status).toBe(302);
    expect(answer.location!.searchParams.get("error")).toBe("access_denied");
    expect(answer.location!.searchParams.get("state")).toBe("deny-me");
    expect(answer.location!.searchParams.get("code")).toBeNull();
  });

  it("re-renders the page with 400 for a missing or invalid e-mail", async () => {
    const url = authorizeUrl(base, { response_type: "code", client_id: client.client_id });
    for (const user of [undefined, "not-an-email"]) {
      const answer = await consent(url, { user, decision: "allow" });
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.text).toContain('name="user"');
    }
  });

  it("client-side flow puts token_type, access_token, expires_in=2592000, scope and state in the fragment; no refresh token", async () => {
    const url = authorizeUrl(base, {
      response_type: "token",
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      scope: "daily personal",
      state: "imp",
    });
    const answer = await consent(url, { user: uniqueEmail(), decision: "allow", granted_scope: "daily" });
    expect(answer.status).toBe(302);
    const loc = answer.location!;
    expect(loc.search).toBe("");
    const frag = new URLSearchParams(loc.hash.slice(1));
    expect(frag.get("token_type")).toBe("bearer");
    expect(frag.get("access_token")).toMatch(/^[A-Za-z0-9]+$/);
    expect(frag.get("expires_in")).toBe("2592000");
    expect(frag.get("scope")).toBe("daily");
    expect(frag.get("state")).toBe("imp");
    expect(frag.has("refresh_token")).toBe(false);
    const data = await call(base, "/v2/usercollection/daily_sleep", { token: frag.get("access_token")! });
    expect(data.status).toBe(200);
    const denied = await consent(url, { decision: "deny" });
    expect(new URLSearchParams(denied.location!.hash.slice(1)).get("error")).toBe("access_denied");
  });
});

describe("10-user cap for unapproved applications", () => {
  it("lets 10 distinct users in, refuses the 11th with access_denied, re-admits known users; approved apps are unlimited", async () => {
    const unapproved = await registerClient(base, { approved: false });
    const approved = await registerClient(base, { approved: true });
    const emails = Array.from({ length: 11 }, () => uniqueEmail("cap"));
    const grant = async (c: Client, email: string) =>
      (await consent(authorizeUrl(base, { response_type: "code", client_id: c.client_id, state: "cap" }), { user: email, decision: "allow" })).location!;
    for (const email of emails.slice(0, 10)) expect((await grant(unapproved, email)).searchParams.get("code")).toBeTruthy();
    const eleventh = await grant(unapproved, emails[10]!);
    expect(eleventh.searchParams.get("error")).toBe("access_denied");
    expect(eleventh.searchParams.get("error_description")).toMatch(/10 users/);
    expect(eleventh.searchParams.get("state")).toBe("cap");
    // a user already counted signs in again (case-insensitive e-mail)
    expect((await grant(unapproved, emails[3]!.toUpperCase())).searchParams.get("code")).toBeTruthy();
    for (const email of emails) expect((await grant(approved, email)).searchParams.get("code")).toBeTruthy();
  });
});

describe("POST /oauth/token", () => {
  it("exchanges a code (PKCE, body credentials) for bearer tokens with scope", async () => {
    const { code, verifier: v } = await getCode(client, { scope: "daily email" });
    const r = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code, redirect_uri: client.redirect_uri, code_verifier: v }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      token_type: "bearer",
      access_token: expect.stringMatching(/^[A-Za-z0-9]+$/),
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9]+$/),
      scope: "daily email",
    });
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it("accepts HTTP Basic credentials that are form-encoded before base64 (as Auth.js sends them)", async () => {
    const odd = await registerClient(base);
    // a client id/secret with characters that form-encoding changes
    const special = { ...odd, client_id: `${odd.client_id} x:y`, client_secret: "p@ss word+/=" };
    await call(base, "/_emulator/clients", {
      json: { client_id: special.client_id, client_secret: special.client_secret, redirect_uris: [odd.redirect_uri], approved: true },
    });
    const { code, verifier: v } = await getCode(special);
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
    const basic = Buffer.from(`${enc(special.client_id)}:${enc(special.client_secret)}`).toString("base64");
    const r = await call(base, "/oauth/token", {
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: "authorization_code", code, redirect_uri: special.redirect_uri, code_verifier: v },
    });
    expect(r.status).toBe(200);
  });

  it("rejects bad client credentials with 401 invalid_client", async () => {
    const { code, verifier: v } = await getCode(client);
    const forms: Array<Record<string, string>> = [
      { grant_type: "authorization_code", code, code_verifier: v, redirect_uri: client.redirect_uri, client_id: client.client_id, client_secret: "wrong" },
      { grant_type: "authorization_code", code, code_verifier: v, redirect_uri: client.redirect_uri },
      { grant_type: "authorization_code", code, code_verifier: v, redirect_uri: client.redirect_uri, client_id: "ghost", client_secret: "x" },
    ];
    for (const form of forms) {
      const r = await call(base, "/oauth/token", { form });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe("invalid_client");
      expect(typeof r.body.error_description).toBe("string");
    }
  });

  it("makes codes single-use, and a replay revokes the tokens issued from the code", async () => {
    const { code, verifier: v } = await getCode(client);
    const form = tokenForm(client, { grant_type: "authorization_code", code, redirect_uri: client.redirect_uri, code_verifier: v });
    const first = await call(base, "/oauth/token", { form });
    expect(first.status).toBe(200);
    const second = await call(base, "/oauth/token", { form });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
    const data = await call(base, "/v2/usercollection/daily_sleep", { token: first.body.access_token });
    expect(data.status).toBe(401);
    const refresh = await call(base, "/oauth/token", { form: tokenForm(client, { grant_type: "refresh_token", refresh_token: first.body.refresh_token }) });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("expires codes after codeTtlS", async () => {
    const { code, verifier: v } = await getCode(client);
    await emu.advance(2100);
    const r = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code, redirect_uri: client.redirect_uri, code_verifier: v }),
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_grant");
  });

  it("enforces the redirect_uri rule: identical when sent at authorize, omitted when omitted there", async () => {
    const a = await getCode(client);
    const mismatch = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code: a.code, code_verifier: a.verifier, redirect_uri: `${client.redirect_uri}?x=1` }),
    });
    expect(mismatch.body.error).toBe("invalid_grant");
    const missing = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code: a.code, code_verifier: a.verifier }),
    });
    expect(missing.body.error).toBe("invalid_grant");
    const b = await getCode(client, { redirect: null });
    const sent = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code: b.code, code_verifier: b.verifier, redirect_uri: client.redirect_uri }),
    });
    expect(sent.body.error).toBe("invalid_grant");
    const omitted = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code: b.code, code_verifier: b.verifier }),
    });
    expect(omitted.status).toBe(200);
  });

  it("checks PKCE: verifier required iff a challenge was given, 43–128 chars, S256 match", async () => {
    const withChallenge = await getCode(client);
    const form = (extra: Record<string, string>) =>
      tokenForm(client, { grant_type: "authorization_code", code: withChallenge.code, redirect_uri: client.redirect_uri, ...extra });
    expect((await call(base, "/oauth/token", { form: form({}) })).body.error).toBe("invalid_request");
    expect((await call(base, "/oauth/token", { form: form({ code_verifier: "a".repeat(42) }) })).body.error).toBe("invalid_request");
    expect((await call(base, "/oauth/token", { form: form({ code_verifier: "a".repeat(129) }) })).body.error).toBe("invalid_request");
    expect((await call(base, "/oauth/token", { form: form({ code_verifier: "b".repeat(43) }) })).body.error).toBe("invalid_grant");
    expect((await call(base, "/oauth/token", { form: form({ code_verifier: withChallenge.verifier }) })).status).toBe(200);

    // boundary lengths are accepted
    for (const len of [43, 128]) {
      const v = "v".repeat(len);
      const c = await getCode(client, { challenge: challengeOf(v) });
      const r = await call(base, "/oauth/token", {
        form: tokenForm(client, { grant_type: "authorization_code", code: c.code, redirect_uri: client.redirect_uri, code_verifier: v }),
      });
      expect(r.status, `verifier of ${len}`).toBe(200);
    }

    const noChallenge = await getCode(client, { challenge: null });
    const extra = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code: noChallenge.code, redirect_uri: client.redirect_uri, code_verifier: "c".repeat(43) }),
    });
    expect(extra.body.error).toBe("invalid_request");
    const plain = await call(base, "/oauth/token", {
      form: tokenForm(client, { grant_type: "authorization_code", code: noChallenge.code, redirect_uri: client.redirect_uri }),
    });
    expect(plain.status).toBe(200);
  });

  it("rotates refresh tokens: new pair each time, the used one is invalid_grant, old access token keeps working until expiry", async () => {
    const t = await connect(base, client);
    const r1 = await call(base, "/oauth/token", { form: tokenForm(client, { grant_type: "refresh_token", refresh_token: t.refresh_token }) });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(t.refresh_token);
    expect(r1.body.access_token).not.toBe(t.access_token);
    expect(r1.body.scope).toBe(ALL);
    const reuse = await call(base, "/oauth/token", { form: tokenForm(client, { grant_type: "refresh_token", refresh_token: t.refresh_token }) });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    const r2 = await call(base, "/oauth/token", { form: tokenForm(client, { grant_type: "refresh_token", refresh_token: r1.body.refresh_token }) });
    expect(r2.status).toBe(200);
    expect((await call(base, "/v2/usercollection/personal_info", { token: r2.body.access_token })).body.id).toBe(t.user_id);
    // another client cannot use it
    const other = await registerClient(base);
    const stolen = await call(base, "/oauth/token", { form: tokenForm(other, { grant_type: "refresh_token", refresh_token: r2.body.refresh_token }) });
    expect(stolen.body.error).toBe("invalid_grant");
  });

  it.each([
    [{ grant_type: "client_credentials" }, 400, "unsupported_grant_type"],
    [{ grant_type: "password", username: "a", password: "b" }, 400, "unsupported_grant_type"],
    [{}, 400, "invalid_request"],
    [{ grant_type: "authorization_code" }, 400, "invalid_request"],
    [{ grant_type: "refresh_token" }, 400, "invalid_request"],
    [{ grant_type: "authorization_code", code: "nope" }, 400, "invalid_grant"],
    [{ grant_type: "refresh_token", refresh_token: "nope" }, 400, "invalid_grant"],
  ])("answers %j with %i %s", async (form, status, error) => {
    const r = await call(base, "/oauth/token", { form: tokenForm(client, form as Record<string, string>) });
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ error, error_description: expect.any(String) });
  });

  it("rejects a JSON body with invalid_request", async () => {
    const r = await call(base, "/oauth/token", { json: { grant_type: "refresh_token", refresh_token: "x" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_request");
  });
});

describe("token lifetime and revocation", () => {
  it("answers 401 with WWW-Authenticate for expired tokens", async () => {
    const short = await startManualClockEmulator({ tokenTtlS: 1 });
    try {
      const t = await connect(short.url);
      expect(t.expires_in).toBe(1);
      await short.advance(1100);
      const r = await call(short.url, "/v2/usercollection/daily_sleep", { token: t.access_token });
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(r.body.detail).toMatch(/expired/);
      // the refresh token still works after the access token expired
      const refreshed = await call(short.url, "/oauth/token", {
        form: { grant_type: "refresh_token", refresh_token: t.refresh_token, client_id: DEMO.client_id, client_secret: DEMO.client_secret },
      });
      expect(refreshed.status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it("revokes by GET or POST (query or form): the access token and its refresh token end; unknown tokens answer 200", async () => {
    for (const how of ["get", "post-query", "post-form"] as const) {
      const t = await connect(base, client);
      const path = how === "post-form" ? "/oauth/revoke" : `/oauth/revoke?access_token=${t.access_token}`;
      const r =
        how === "get"
          ? await call(base, path)
          : how === "post-query"
            ? await call(base, path, { method: "POST" })
            : await call(base, path, { form: { token: t.access_token } });
      expect(r.status).toBe(200);
      expect(r.text).toBe("");
      expect((await call(base, "/v2/usercollection/daily_sleep", { token: t.access_token })).status).toBe(401);
      const refresh = await call(base, "/oauth/token", { form: tokenForm(client, { grant_type: "refresh_token", refresh_token: t.refresh_token }) });
      expect(refresh.body.error).toBe("invalid_grant");
    }
    expect((await call(base, "/oauth/revoke?access_token=unknown")).status).toBe(200);
    const missing = await call(base, "/oauth/revoke");
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
  });
});
