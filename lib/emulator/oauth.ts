// OAuth 2.0 of the ring service: GET/POST /oauth/authorize (and /authorize), POST
// /oauth/token (authorization_code with PKCE, single-use refresh rotation), /oauth/revoke.
import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import { DEFAULT_CONSENT_EMAIL, renderConsentPage } from "./consent-page";
import type { EmulatorContext, RequestMeta } from "./context";
import { empty, errorPage, json, oauthError } from "./errors";
import { ALL_SCOPES, IMPLICIT_TOKEN_TTL_S, UNAPPROVED_USER_CAP, fingerprint, type Client, type Scope } from "./store";

const AUTHORIZE_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method"];
const TOKEN_PARAMS = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier", "refresh_token"];
const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;

type AuthorizeRequest = {
  client: Client;
  redirectUri: string;
  /** redirect_uri as sent; null when omitted (then it must be omitted at the token endpoint too). */
  redirectUriSent: string | null;
  responseType: "code" | "token";
  scopes: Scope[];
  state: string | null;
  codeChallenge: string | null;
};

type AuthorizeCheck =
  | { kind: "ok"; request: AuthorizeRequest }
  | { kind: "page"; response: Response }
  | { kind: "redirect"; response: Response };

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

/** Appends parameters to the redirect URI: in the query (code flow) or in the fragment (token flow). */
function redirectWith(base: string, params: Record<string, string | null>, fragment: boolean): Response {
  const url = new URL(base);
  const entries = Object.entries(params).filter((e): e is [string, string] => e[1] !== null);
  if (fragment) url.hash = new URLSearchParams(entries).toString();
  else for (const [k, v] of entries) url.searchParams.append(k, v);
  return redirect(url.toString());
}

function errorRedirect(base: string, error: string, description: string, state: string | null, fragment: boolean): Response {
  return redirectWith(base, { error, error_description: description, state }, fragment);
}

function repeated(params: URLSearchParams, names: readonly string[]): string | undefined {
  return names.find((n) => params.getAll(n).length > 1);
}

/** Validates an authorization request. Unsafe problems (client, redirect URI) → 400 page, others → error redirect. */
function checkAuthorizeRequest(ctx: EmulatorContext, params: URLSearchParams): AuthorizeCheck {
  const page = (message: string) => ({ kind: "page" as const, response: errorPage(400, "Authorization request rejected", message) });
  if (params.getAll("client_id").length > 1) return page("client_id was sent more than once.");
  if (params.getAll("redirect_uri").length > 1) return page("redirect_uri was sent more than once.");
  const clientId = params.get("client_id");
  if (!clientId) return page("The request has no client_id.");
  const client = ctx.state.clients.get(clientId);
  if (!client) return page(`Unknown client_id "${clientId}".`);
  const redirectUriSent = params.get("redirect_uri");
  let redirectUri: string;
  if (redirectUriSent !== null) {
    if (!client.redirectUris.includes(redirectUriSent))
      return page(`redirect_uri "${redirectUriSent}" is not registered for this application.`);
    redirectUri = redirectUriSent;
  } else {
    if (client.redirectUris.length !== 1)
      return page("redirect_uri is required: the application does not have exactly one registered redirect URI.");
    redirectUri = client.redirectUris[0]!;
  }

  const state = params.get("state");
  const responseTypeRaw = params.get("response_type");
  const fragment = responseTypeRaw === "token";
  const fail = (error: string, description: string) => ({
    kind: "redirect" as const,
    response: errorRedirect(redirectUri, error, description, state, fragment),
  });
  const dup = repeated(params, AUTHORIZE_PARAMS);
  if (dup) return fail("invalid_request", `Parameter ${dup} was sent more than once.`);
  if (!responseTypeRaw) return fail("invalid_request", "response_type is required.");
  if (responseTypeRaw !== "code" && responseTypeRaw !== "token")
    return fail("unsupported_response_type", `response_type must be "code" or "token".`);

  const scopeRaw = (params.get("scope") ?? "").trim();
  let scopes: Scope[];
  if (scopeRaw === "") scopes = [...ALL_SCOPES];
  else {
    const requested = [...new Set(scopeRaw.split(/\s+/))];
    const unknown = requested.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) return fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}.`);
    scopes = requested as Scope[];
  }

  let codeChallenge: string | null = null;
  if (responseTypeRaw === "code") {
    const challenge = params.get("code_challenge");
    const method = params.get("code_challenge_method");
    if (challenge !== null) {
      if (method !== "S256") return fail("invalid_request", "code_challenge_method must be S256 when code_challenge is given.");
      if (!CHALLENGE_RE.test(challenge))
        return fail("invalid_request", "code_challenge must be the base64url (no padding) SHA-256 of the code_verifier.");
      codeChallenge = challenge;
    } else if (method !== null) {
      return fail("invalid_request", "code_challenge_method was given without code_challenge.");
    }
  }
  return { kind: "ok", request: { client, redirectUri, redirectUriSent, responseType: responseTypeRaw, scopes, state, codeChallenge } };
}

const consentFormSchema = z.object({
  user: z.email({ message: "Enter the e-mail address of the emulated account." }).max(254),
});

async function readForm(req: Request): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return new URLSearchParams();
  return new URLSearchParams(await req.text());
}

/** GET renders the consent page; POST (from that page) grants or denies. */
export async function handleAuthorize(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  meta.kind = "authorize";
  if (req.method !== "GET" && req.method !== "POST")
    return errorPage(405, "Method not allowed", "Use GET to open the consent page.");
  const check = checkAuthorizeRequest(ctx, url.searchParams);
  if (check.kind !== "ok") return check.response;
  const ar = check.request;
  meta.clientId = ar.client.clientId;
  const actionUrl = `${url.pathname}${url.search}`;
  if (req.method === "GET") {
    return renderConsentPage({
      clientId: ar.client.clientId,
      approved: ar.client.approved,
      scopes: ar.scopes,
      actionUrl,
      email: url.searchParams.get("login_hint") ?? DEFAULT_CONSENT_EMAIL,
    });
  }

  const form = await readForm(req);
  const fragment = ar.responseType === "token";
  const decision = form.get("decision");
  if (decision === "deny") return redirectWith(ar.redirectUri, { error: "access_denied", state: ar.state }, fragment);
  const rerender = (error: string) =>
    renderConsentPage({
      clientId: ar.client.clientId,
      approved: ar.client.approved,
      scopes: ar.scopes,
      actionUrl,
      email: form.get("user") ?? undefined,
      error,
      status: 400,
    });
  if (decision !== "allow") return rerender(`decision must be "allow" or "deny".`);
  const parsed = consentFormSchema.safeParse({ user: (form.get("user") ?? "").trim() });
  if (!parsed.success) return rerender(parsed.error.issues[0]?.message ?? "Invalid e-mail.");

  const { user } = ctx.state.ensureUser(parsed.data.user);
  meta.userId = user.id;
  const client = ar.client;
  if (!client.approved && !client.authorizedUsers.has(user.id) && client.authorizedUsers.size >= UNAPPROVED_USER_CAP) {
    return redirectWith(
      ar.redirectUri,
      {
        error: "access_denied",
        error_description: `This application is not approved yet and already has the maximum of ${UNAPPROVED_USER_CAP} users.`,
        state: ar.state,
      },
      fragment,
    );
  }
  client.authorizedUsers.add(user.id);

  // Field absent (a scripted POST) = every requested scope; the page always sends the field.
  const grantedValues = form.getAll("granted_scope");
  const granted =
    grantedValues.length === 0
      ? ar.scopes
      : (() => {
          const chosen = new Set(grantedValues.flatMap((v) => v.split(/\s+/)).filter(Boolean));
          return ar.scopes.filter((s) => chosen.has(s));
        })();
  const scope = granted.join(" ");

  if (ar.responseType === "code") {
    const code = ctx.state.issueCode({
      clientId: client.clientId,
      userId: user.id,
      scopes: granted,
      redirectUri: ar.redirectUriSent,
      codeChallenge: ar.codeChallenge,
    });
    return redirectWith(ar.redirectUri, { code: code.code, scope, state: ar.state }, false);
  }
  const { access } = ctx.state.issueTokens({
    clientId: client.clientId,
    userId: user.id,
    scopes: granted,
    flow: "implicit",
    withRefresh: false,
    ttlS: IMPLICIT_TOKEN_TTL_S,
    grantId: randomUUID(),
  });
  return redirectWith(
    ar.redirectUri,
    { token_type: "bearer", access_token: access.value, expires_in: String(IMPLICIT_TOKEN_TTL_S), scope, state: ar.state },
    true,
  );
}

/** application/x-www-form-urlencoded decoding of one Basic credential part (RFC 6749 §2.3.1). */
function formDecode(value: string): string {
  return decodeURIComponent(value.replaceAll("+", " "));
}

type ClientAuth = { ok: true; clientId: string; clientSecret: string } | { ok: false; response: Response };

function readClientCredentials(req: Request, body: URLSearchParams): ClientAuth {
  const header = req.headers.get("authorization");
  const bodyId = body.get("client_id");
  const bodySecret = body.get("client_secret");
  if (header && /^basic\s/i.test(header)) {
    if (bodySecret !== null) return { ok: false, response: oauthError("invalid_request", "Use only one client authentication method.") };
    let decoded: string;
    try {
      decoded = Buffer.from(header.replace(/^basic\s+/i, "").trim(), "base64").toString("utf8");
    } catch {
      return { ok: false, response: oauthError("invalid_client", "Malformed Basic credentials.") };
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) return { ok: false, response: oauthError("invalid_client", "Malformed Basic credentials.") };
    let id: string;
    let secret: string;
    try {
      id = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      return { ok: false, response: oauthError("invalid_client", "Malformed Basic credentials.") };
    }
    if (bodyId !== null && bodyId !== id)
      return { ok: false, response: oauthError("invalid_request", "client_id in the body differs from the Basic credentials.") };
    return { ok: true, clientId: id, clientSecret: secret };
  }
  if (!bodyId || bodySecret === null) return { ok: false, response: oauthError("invalid_client", "Client authentication failed: no client credentials.") };
  return { ok: true, clientId: bodyId, clientSecret: bodySecret };
}

function pkceS256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

function tokenResponse(accessToken: string, expiresIn: number, refreshToken: string, scopes: readonly Scope[]): Response {
  return json(
    { token_type: "bearer", access_token: accessToken, expires_in: expiresIn, refresh_token: refreshToken, scope: scopes.join(" ") },
    200,
    { "cache-control": "no-store", pragma: "no-cache" },
  );
}

/** POST /oauth/token */
export async function handleToken(ctx: EmulatorContext, req: Request, meta: RequestMeta): Promise<Response> {
  meta.kind = "token";
  if (req.method !== "POST") return json({ error: "invalid_request", error_description: "Use POST." }, 405, { allow: "POST" });
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded"))
    return oauthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  const body = new URLSearchParams(await req.text());
  const grantType = body.get("grant_type");
  meta.grantType = grantType;
  const dup = repeated(body, TOKEN_PARAMS);
  if (dup) return oauthError("invalid_request", `Parameter ${dup} was sent more than once.`);

  const creds = readClientCredentials(req, body);
  if (!creds.ok) return creds.response;
  const client = ctx.state.authenticateClient(creds.clientId, creds.clientSecret);
  if (!client) return oauthError("invalid_client", "Client authentication failed.");
  meta.clientId = client.clientId;

  if (!grantType) return oauthError("invalid_request", "grant_type is required.");
  if (grantType === "authorization_code") {
    const codeValue = body.get("code");
    if (!codeValue) return oauthError("invalid_request", "code is required.");
    const code = ctx.state.codes.get(codeValue);
    if (!code || code.clientId !== client.clientId) return oauthError("invalid_grant", "The authorization code is invalid.");
    meta.userId = code.userId;
    if (code.usedAt !== null) {
      // RFC 6749 §4.1.2: a replayed code revokes what was issued from it.
      ctx.state.revokeGrant(code.code);
      return oauthError("invalid_grant", "The authorization code has already been used.");
    }
    if (code.expiresAt <= ctx.now()) return oauthError("invalid_grant", "The authorization code has expired.");
    const sentRedirect = body.get("redirect_uri");
    if (code.redirectUri === null && sentRedirect !== null)
      return oauthError("invalid_grant", "redirect_uri must be omitted: it was omitted in the authorization request.");
    if (code.redirectUri !== null && sentRedirect !== code.redirectUri)
      return oauthError("invalid_grant", "redirect_uri does not match the one of the authorization request.");
    const verifier = body.get("code_verifier");
    if (code.codeChallenge !== null) {
      if (verifier === null) return oauthError("invalid_request", "code_verifier is required: a code_challenge was given.");
      if (!VERIFIER_RE.test(verifier))
        return oauthError("invalid_request", "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~].");
      if (pkceS256(verifier) !== code.codeChallenge) return oauthError("invalid_grant", "code_verifier does not match the code_challenge.");
    } else if (verifier !== null) {
      return oauthError("invalid_request", "code_verifier was sent but the authorization request had no code_challenge.");
    }
    code.usedAt = ctx.now();
    const { access, refresh } = ctx.state.issueTokens({
      clientId: client.clientId,
      userId: code.userId,
      scopes: code.scopes,
      flow: "authorization_code",
      withRefresh: true,
      ttlS: ctx.config.tokenTtlS,
      grantId: code.code,
    });
    return tokenResponse(access.value, ctx.config.tokenTtlS, refresh!.value, access.scopes);
  }
  if (grantType === "refresh_token") {
    const value = body.get("refresh_token");
    if (!value) return oauthError("invalid_request", "refresh_token is required.");
    const known = ctx.state.refreshTokens.get(value);
    if (known) meta.userId = known.userId;
    const rotated = ctx.state.rotateRefreshToken(value, client.clientId);
    if (!rotated.ok) return oauthError("invalid_grant", rotated.reason);
    return tokenResponse(rotated.access.value, ctx.config.tokenTtlS, rotated.refresh.value, rotated.access.scopes);
  }
  return oauthError("unsupported_grant_type", "grant_type must be either authorization_code or refresh_token.");
}

/** GET or POST /oauth/revoke?access_token=… (also a form body access_token/token). Unknown tokens → 200 too (RFC 7009). */
export async function handleRevoke(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  meta.kind = "revoke";
  if (req.method !== "GET" && req.method !== "POST") return json({ error: "invalid_request", error_description: "Use GET or POST." }, 405, { allow: "GET, POST" });
  let token = url.searchParams.get("access_token") ?? url.searchParams.get("token");
  if (!token && req.method === "POST") {
    const form = await readForm(req);
    token = form.get("access_token") ?? form.get("token");
  }
  if (!token) return oauthError("invalid_request", "access_token is required.");
  const known = ctx.state.accessTokens.get(token) ?? ctx.state.refreshTokens.get(token);
  // The request log names the token revoked (by its fingerprint, never the token).
  meta.tokenFingerprint = fingerprint(token);
  if (known) {
    meta.clientId = known.clientId;
    meta.userId = known.userId;
  }
  ctx.state.revokeToken(token);
  return empty(200);
}
