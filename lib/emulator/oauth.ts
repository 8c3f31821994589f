// OAuth 2.0 of the ring service's two identity providers (providers.ts): authorize (consent
// page and answer) here; token (authorization_code with PKCE, single-use refresh rotation),
// revoke, and for the newer provider discovery and introspection in oauth-token.ts. One
// implementation, run for the provider whose address was called.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { DEFAULT_CONSENT_EMAIL, renderConsentPage } from "./consent-page";
import type { EmulatorContext, RequestMeta } from "./context";
import { errorPage } from "./errors";
import { DEVELOPER_PATHS, grantedScopes, parseScopeRequest, scopeName, type Portal } from "./providers";
import { IMPLICIT_TOKEN_TTL_S, UNAPPROVED_USER_CAP, type Client } from "./store";

/** The provider a request was addressed to, and the issuer it names on callbacks (developer only). */
export type ProviderView = { portal: Portal; iss: string | null };

export function providerView(ctx: EmulatorContext, url: URL, portal: Portal): ProviderView {
  return { portal, iss: portal === "developer" ? `${ctx.origin(url)}${DEVELOPER_PATHS.issuer}` : null };
}

const AUTHORIZE_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method"];
export const TOKEN_PARAMS = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier", "refresh_token"];
const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
export const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;

type AuthorizeRequest = {
  provider: ProviderView;
  client: Client;
  redirectUri: string;
  /** redirect_uri as sent; null when omitted (then it must be omitted at the token endpoint too). */
  redirectUriSent: string | null;
  responseType: "code" | "token";
  /** Requested names, in the provider's spelling. */
  names: string[];
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | "plain" | null;
};

type AuthorizeCheck = { kind: "ok"; request: AuthorizeRequest } | { kind: "page"; response: Response } | { kind: "redirect"; response: Response };

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

function errorRedirect(base: string, error: string, description: string, state: string | null, iss: string | null, fragment: boolean): Response {
  return redirectWith(base, { error, error_description: description, state, iss }, fragment);
}

export function repeated(params: URLSearchParams, names: readonly string[]): string | undefined {
  return names.find((n) => params.getAll(n).length > 1);
}

/**
 * Validates an authorization request. Unsafe problems (client, redirect URI) → 400 page, others →
 * error redirect (with `iss` at the newer provider). The newer provider knows only clients of the
 * developer portal; the legacy address serves both kinds (one report says it still works for
 * migrated apps), but its codes are redeemable only at the legacy token address.
 */
function checkAuthorizeRequest(ctx: EmulatorContext, params: URLSearchParams, provider: ProviderView): AuthorizeCheck {
  const page = (message: string) => ({ kind: "page" as const, response: errorPage(400, "Authorization request rejected", message) });
  if (params.getAll("client_id").length > 1) return page("client_id was sent more than once.");
  if (params.getAll("redirect_uri").length > 1) return page("redirect_uri was sent more than once.");
  const clientId = params.get("client_id");
  if (!clientId) return page("The request has no client_id.");
  const client = ctx.state.clients.get(clientId);
  if (!client) return page(`Unknown client_id "${clientId}".`);
  if (provider.portal === "developer" && client.portal !== "developer")
    return page(`Unknown client_id "${clientId}": this identity provider knows only applications registered in the developer portal.`);
  const redirectUriSent = params.get("redirect_uri");
  let redirectUri: string;
  if (redirectUriSent !== null) {
    if (!client.redirectUris.includes(redirectUriSent)) return page(`redirect_uri "${redirectUriSent}" is not registered for this application.`);
    redirectUri = redirectUriSent;
  } else {
    if (client.redirectUris.length !== 1) return page("redirect_uri is required: the application does not have exactly one registered redirect URI.");
    redirectUri = client.redirectUris[0]!;
  }

  const state = params.get("state");
  const responseTypeRaw = params.get("response_type");
  const developer = provider.portal === "developer";
  // The client-side flow exists only at the legacy provider; elsewhere errors go in the query.
  const fragment = !developer && responseTypeRaw === "token";
  const fail = (error: string, description: string) => ({
    kind: "redirect" as const,
    response: errorRedirect(redirectUri, error, description, state, provider.iss, fragment),
  });
  const dup = repeated(params, AUTHORIZE_PARAMS);
  if (dup) return fail("invalid_request", `Parameter ${dup} was sent more than once.`);
  if (!responseTypeRaw) return fail("invalid_request", "response_type is required.");
  if (developer && responseTypeRaw !== "code") return fail("unsupported_response_type", `response_type must be "code".`);
  if (responseTypeRaw !== "code" && responseTypeRaw !== "token") return fail("unsupported_response_type", `response_type must be "code" or "token".`);

  const scope = parseScopeRequest(provider.portal, params.get("scope"), ctx.config.bareScopes);
  if (!scope.ok) return fail("invalid_scope", `Unknown scope: ${scope.unknown.join(" ")}.`);

  let codeChallenge: string | null = null;
  let codeChallengeMethod: "S256" | "plain" | null = null;
  if (responseTypeRaw === "code") {
    const challenge = params.get("code_challenge");
    const method = params.get("code_challenge_method");
    if (challenge !== null) {
      if (developer) {
        // Discovery advertises S256 and plain; an absent method means plain (RFC 7636 §4.3).
        const m = method ?? "plain";
        if (m !== "S256" && m !== "plain") return fail("invalid_request", "code_challenge_method must be S256 or plain.");
        if (m === "S256" && !CHALLENGE_RE.test(challenge))
          return fail("invalid_request", "code_challenge must be the base64url (no padding) SHA-256 of the code_verifier.");
        if (m === "plain" && !VERIFIER_RE.test(challenge))
          return fail("invalid_request", "A plain code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~].");
        codeChallengeMethod = m;
      } else {
        if (method !== "S256") return fail("invalid_request", "code_challenge_method must be S256 when code_challenge is given.");
        if (!CHALLENGE_RE.test(challenge)) return fail("invalid_request", "code_challenge must be the base64url (no padding) SHA-256 of the code_verifier.");
        codeChallengeMethod = "S256";
      }
      codeChallenge = challenge;
    } else if (method !== null) {
      return fail("invalid_request", "code_challenge_method was given without code_challenge.");
    }
  }
  return {
    kind: "ok",
    request: {
      provider,
      client,
      redirectUri,
      redirectUriSent,
      responseType: responseTypeRaw,
      names: scope.names,
      state,
      codeChallenge,
      codeChallengeMethod,
    },
  };
}

function consentScopes(portal: Portal, names: readonly string[]): Array<{ name: string; label: string }> {
  return names.map((name) => ({ name, label: scopeName(portal, name)?.label ?? name }));
}

const consentFormSchema = z.object({
  user: z.email({ message: "Enter the e-mail address of the emulated account." }).max(254),
});

export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return new URLSearchParams();
  return new URLSearchParams(await req.text());
}

/** GET renders the consent page; POST (from that page) grants or denies. */
export async function handleAuthorize(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta, portal: Portal = "legacy"): Promise<Response> {
  meta.kind = "authorize";
  meta.provider = portal;
  if (req.method !== "GET" && req.method !== "POST") return errorPage(405, "Method not allowed", "Use GET to open the consent page.");
  const check = checkAuthorizeRequest(ctx, url.searchParams, providerView(ctx, url, portal));
  if (check.kind !== "ok") return check.response;
  const ar = check.request;
  const iss = ar.provider.iss;
  meta.clientId = ar.client.clientId;
  const actionUrl = `${url.pathname}${url.search}`;
  const scopes = consentScopes(portal, ar.names);
  if (req.method === "GET") {
    return renderConsentPage({
      clientId: ar.client.clientId,
      approved: ar.client.approved,
      scopes,
      actionUrl,
      email: url.searchParams.get("login_hint") ?? DEFAULT_CONSENT_EMAIL,
    });
  }

  const form = await readForm(req);
  const fragment = ar.responseType === "token";
  const decision = form.get("decision");
  if (decision === "deny") return redirectWith(ar.redirectUri, { error: "access_denied", state: ar.state, iss }, fragment);
  const rerender = (error: string) =>
    renderConsentPage({
      clientId: ar.client.clientId,
      approved: ar.client.approved,
      scopes,
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
        iss,
      },
      fragment,
    );
  }
  client.authorizedUsers.add(user.id);

  // Field absent (a scripted POST) = every requested scope; the page always sends the field.
  const grantedValues = form.getAll("granted_scope");
  const granted =
    grantedValues.length === 0
      ? ar.names
      : (() => {
          const chosen = new Set(grantedValues.flatMap((v) => v.split(/\s+/)).filter(Boolean));
          return ar.names.filter((s) => chosen.has(s));
        })();
  const scope = granted.join(" ");
  const scopesGranted = grantedScopes(portal, granted);

  if (ar.responseType === "code") {
    const code = ctx.state.issueCode({
      clientId: client.clientId,
      userId: user.id,
      scopes: scopesGranted,
      scopeNames: granted,
      provider: portal,
      redirectUri: ar.redirectUriSent,
      codeChallenge: ar.codeChallenge,
      codeChallengeMethod: ar.codeChallengeMethod,
    });
    return redirectWith(ar.redirectUri, { code: code.code, scope, state: ar.state, iss }, false);
  }
  const { access } = ctx.state.issueTokens({
    clientId: client.clientId,
    userId: user.id,
    scopes: scopesGranted,
    scopeNames: granted,
    provider: portal,
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
