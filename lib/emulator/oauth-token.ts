// The token side of the emulator's OAuth: the token endpoint (authorization code with PKCE,
// refresh with rotation), client authentication, revocation (both portals), introspection and
// the newer provider's discovery document. The authorize side is oauth.ts.
import { createHash } from "node:crypto";
import type { EmulatorContext, RequestMeta } from "./context";
import { empty, json, oauthError } from "./errors";
import { discoveryDocument, type Portal } from "./providers";
import { TOKEN_PARAMS, VERIFIER_RE, providerView, readForm, repeated } from "./oauth";
import { fingerprint, type AccessToken, type Client, type RefreshToken } from "./store";

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

/**
 * The token response. The newer provider adds `id_token: null` (as public clients report it;
 * oauth4webapi, under Auth.js, rejects a null id_token as it stands) and names scopes its way.
 */
function tokenResponse(portal: Portal, access: AccessToken, expiresIn: number, refresh: RefreshToken): Response {
  const body: Record<string, unknown> = {
    token_type: "bearer",
    access_token: access.value,
    expires_in: expiresIn,
    refresh_token: refresh.value,
    scope: access.scopeNames.join(" "),
  };
  if (portal === "developer") body.id_token = null;
  return json(body, 200, { "cache-control": "no-store", pragma: "no-cache" });
}

/**
 * The client of a token-endpoint, revocation or introspection request, authenticated, and
 * known to the provider whose address was called. A developer-portal client at the legacy
 * token address gets 400 invalid_request "Invalid request", as the real service answers
 * (Addendum 2026-11-23); an old-portal client at the newer provider is unknown there.
 */
function clientOf(
  ctx: EmulatorContext,
  req: Request,
  body: URLSearchParams,
  portal: Portal,
  legacyRefusal: boolean,
): { ok: true; client: Client } | { ok: false; response: Response; clientId?: string } {
  const creds = readClientCredentials(req, body);
  if (!creds.ok) return creds;
  const client = ctx.state.authenticateClient(creds.clientId, creds.clientSecret);
  if (!client) return { ok: false, response: oauthError("invalid_client", "Client authentication failed.") };
  if (portal === "developer" && client.portal !== "developer")
    return {
      ok: false,
      response: oauthError("invalid_client", "Client authentication failed: the application is not registered with this identity provider."),
    };
  if (portal === "legacy" && legacyRefusal && client.portal === "developer")
    return { ok: false, response: oauthError("invalid_request", "Invalid request"), clientId: client.clientId };
  return { ok: true, client };
}

/** POST /oauth/token (legacy) and POST /oauth/v2/ext/oauth-token (newer provider). */
export async function handleToken(ctx: EmulatorContext, req: Request, meta: RequestMeta, portal: Portal = "legacy"): Promise<Response> {
  meta.kind = "token";
  meta.provider = portal;
  if (req.method !== "POST") return json({ error: "invalid_request", error_description: "Use POST." }, 405, { allow: "POST" });
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) return oauthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  const body = new URLSearchParams(await req.text());
  const grantType = body.get("grant_type");
  meta.grantType = grantType;
  const dup = repeated(body, TOKEN_PARAMS);
  if (dup) return oauthError("invalid_request", `Parameter ${dup} was sent more than once.`);

  const auth = clientOf(ctx, req, body, portal, true);
  if (!auth.ok) {
    meta.clientId = auth.clientId ?? null;
    return auth.response;
  }
  const client = auth.client;
  meta.clientId = client.clientId;

  if (!grantType) return oauthError("invalid_request", "grant_type is required.");
  if (grantType === "authorization_code") {
    const codeValue = body.get("code");
    if (!codeValue) return oauthError("invalid_request", "code is required.");
    const code = ctx.state.codes.get(codeValue);
    if (!code || code.clientId !== client.clientId || code.provider !== portal) return oauthError("invalid_grant", "The authorization code is invalid.");
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
      if (!VERIFIER_RE.test(verifier)) return oauthError("invalid_request", "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~].");
      const derived = code.codeChallengeMethod === "plain" ? verifier : pkceS256(verifier);
      if (derived !== code.codeChallenge) return oauthError("invalid_grant", "code_verifier does not match the code_challenge.");
    } else if (verifier !== null) {
      return oauthError("invalid_request", "code_verifier was sent but the authorization request had no code_challenge.");
    }
    code.usedAt = ctx.now();
    const { access, refresh } = ctx.state.issueTokens({
      clientId: client.clientId,
      userId: code.userId,
      scopes: code.scopes,
      scopeNames: code.scopeNames,
      provider: code.provider,
      flow: "authorization_code",
      withRefresh: true,
      ttlS: ctx.config.tokenTtlS,
      grantId: code.code,
    });
    return tokenResponse(portal, access, ctx.config.tokenTtlS, refresh!);
  }
  if (grantType === "refresh_token") {
    const value = body.get("refresh_token");
    if (!value) return oauthError("invalid_request", "refresh_token is required.");
    const known = ctx.state.refreshTokens.get(value);
    if (known) meta.userId = known.userId;
    const rotated = ctx.state.rotateRefreshToken(value, client.clientId, portal);
    if (!rotated.ok) return oauthError("invalid_grant", rotated.reason);
    return tokenResponse(portal, rotated.access, ctx.config.tokenTtlS, rotated.refresh);
  }
  return oauthError("unsupported_grant_type", "grant_type must be either authorization_code or refresh_token.");
}

/**
 * GET or POST /oauth/revoke?access_token=… (also a form body access_token/token). Unknown tokens
 * → 200 too (RFC 7009). Tokens of the newer provider are unknown here (200, not revoked).
 */
export async function handleRevoke(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  meta.kind = "revoke";
  meta.provider = "legacy";
  if (req.method !== "GET" && req.method !== "POST")
    return json({ error: "invalid_request", error_description: "Use GET or POST." }, 405, { allow: "GET, POST" });
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
  if (known?.provider === "legacy") ctx.state.revokeToken(token);
  return empty(200);
}

async function readPostForm(req: Request, names: readonly string[]): Promise<{ ok: true; body: URLSearchParams } | { ok: false; response: Response }> {
  if (req.method !== "POST") return { ok: false, response: json({ error: "invalid_request", error_description: "Use POST." }, 405, { allow: "POST" }) };
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded"))
    return { ok: false, response: oauthError("invalid_request", "The body must be application/x-www-form-urlencoded.") };
  const body = new URLSearchParams(await req.text());
  const dup = repeated(body, names);
  if (dup) return { ok: false, response: oauthError("invalid_request", `Parameter ${dup} was sent more than once.`) };
  return { ok: true, body };
}

const REVOKE_PARAMS = ["token", "token_type_hint", "client_id", "client_secret"];

/** A token of the newer provider by value, access or refresh (a hint only orders the search). */
function findDeveloperToken(ctx: EmulatorContext, value: string, hint: string | null): AccessToken | RefreshToken | undefined {
  const a = () => ctx.state.accessTokens.get(value);
  const r = () => ctx.state.refreshTokens.get(value);
  const t = hint === "refresh_token" ? (r() ?? a()) : (a() ?? r());
  return t?.provider === "developer" ? t : undefined;
}

/**
 * The common part of the newer provider's revoke and introspect: the form, the calling client,
 * the `token` (logged by fingerprint) and the token it names, if it is one of the provider's.
 */
async function readDeveloperTokenRequest(
  ctx: EmulatorContext,
  req: Request,
  meta: RequestMeta,
  kind: "revoke" | "introspect",
): Promise<{ ok: false; response: Response } | { ok: true; clientId: string; token: string; known: AccessToken | RefreshToken | undefined }> {
  meta.kind = kind;
  meta.provider = "developer";
  const form = await readPostForm(req, REVOKE_PARAMS);
  if (!form.ok) return form;
  const auth = clientOf(ctx, req, form.body, "developer", false);
  if (!auth.ok) return auth;
  meta.clientId = auth.client.clientId;
  const token = form.body.get("token");
  if (!token) return { ok: false, response: oauthError("invalid_request", "token is required.") };
  meta.tokenFingerprint = fingerprint(token); // the request log names the token
  return { ok: true, clientId: auth.client.clientId, token, known: findDeveloperToken(ctx, token, form.body.get("token_type_hint")) };
}

/**
 * POST /oauth/v2/ext/oauth-revoke (RFC 7009): form `token`, optional `token_type_hint`,
 * client authentication (Basic or body). Revokes an access token with its refresh token or a
 * refresh token with its access token. Unknown tokens, tokens of another client and an
 * unknown hint all answer 200 (nothing the client could act on; another client's token stays
 * valid).
 */
export async function handleDeveloperRevoke(ctx: EmulatorContext, req: Request, meta: RequestMeta): Promise<Response> {
  const r = await readDeveloperTokenRequest(ctx, req, meta, "revoke");
  if (!r.ok) return r.response;
  if (r.known && r.known.clientId === r.clientId) {
    meta.userId = r.known.userId;
    ctx.state.revokeToken(r.token);
  }
  return empty(200, { "cache-control": "no-store" });
}

/**
 * POST /oauth/v2/ext/oauth-introspect (RFC 7662): `{active}` plus, for a live token of the
 * calling client, scope, client_id, token_type, exp, iat, sub and iss.
 */
export async function handleIntrospect(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  const r = await readDeveloperTokenRequest(ctx, req, meta, "introspect");
  if (!r.ok) return r.response;
  const known = r.known;
  const headers = { "cache-control": "no-store" };
  if (!known || known.clientId !== r.clientId || known.revoked) return json({ active: false }, 200, headers);
  const iss = providerView(ctx, url, "developer").iss;
  if ("expiresAt" in known) {
    if (known.expiresAt <= ctx.now()) return json({ active: false }, 200, headers);
    return json(
      {
        active: true,
        scope: known.scopeNames.join(" "),
        client_id: known.clientId,
        token_type: "bearer",
        exp: Math.floor(known.expiresAt / 1000),
        iat: Math.floor(known.issuedAt / 1000),
        sub: known.userId,
        iss,
      },
      200,
      headers,
    );
  }
  if (known.usedAt !== null) return json({ active: false }, 200, headers);
  return json(
    { active: true, scope: known.scopeNames.join(" "), client_id: known.clientId, token_type: "refresh_token", sub: known.userId, iss },
    200,
    headers,
  );
}

/** GET the newer provider's discovery document (OpenID Connect and RFC 8414 addresses). */
export function handleDiscovery(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Response {
  meta.kind = "discovery";
  meta.provider = "developer";
  if (req.method !== "GET" && req.method !== "HEAD") return json({ detail: "Method Not Allowed" }, 405, { allow: "GET" });
  return json(discoveryDocument(ctx.origin(url)), 200, { "cache-control": "max-age=300" });
}
