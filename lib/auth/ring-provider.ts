import "server-only";
import type { OAuthConfig } from "next-auth/providers";
import { clock } from "@/lib/clock";
import { env } from "@/lib/env.mjs";
import { callbackContext } from "@/lib/auth/callback-context";
import { normalizeScopes } from "@/lib/auth/scopes";
import type { RingOAuth } from "@/lib/auth/ring-oauth";

export type RingProfile = { id: string; email?: string | null };

/**
 * The scopes the person granted: the token response's `scope` when present, else the
 * callback redirect's `scope`, else (a service that reports neither) what was requested.
 */
export function grantedScope(tokenScope: unknown): string {
  if (typeof tokenScope === "string") return normalizeScopes(tokenScope).join(" ");
  const fromCallback = callbackContext()?.callbackScope;
  if (typeof fromCallback === "string") return normalizeScopes(fromCallback).join(" ");
  return normalizeScopes(env.RING_SCOPES).join(" ");
}

/**
 * Repairs a token response before Auth.js's OAuth library (oauth4webapi) reads it: the newer
 * identity provider answers `"id_token": null` (Addendum 2026-11-23), which the library rejects
 * ("id_token" must be a string) although Ringside asks for no ID token. Anything else, error
 * answers included, passes through untouched.
 */
export async function conformTokenResponse(response: Response): Promise<Response> {
  if (!(response.headers.get("content-type") ?? "").toLowerCase().includes("json")) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (!body || typeof body !== "object" || Array.isArray(body) || !("id_token" in body) || (body as { id_token: unknown }).id_token !== null) return response;
  const { id_token: _dropped, ...rest } = body as Record<string, unknown>;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(rest), { status: response.status, statusText: response.statusText, headers });
}

/**
 * The ring service as an Auth.js OAuth 2.0 provider: authorization-code flow with PKCE
 * (S256) and state. The addresses and scope names come from `oauth` (lib/auth/ring-oauth.ts:
 * the legacy provider from the environment, or the newer one from its discovery document, with
 * its `issuer` so that Auth.js checks `iss` as well), the credentials from the environment, so
 * pointing Ringside at the emulator or the real service is configuration only. The profile is
 * personal_info: its `id` is the ring account's identity, its e-mail is present only when the
 * email scope was granted.
 */
export function ringProvider(oauth: RingOAuth): OAuthConfig<RingProfile> {
  return {
    id: "ring",
    name: "Ring",
    type: "oauth",
    ...(oauth.issuer ? { issuer: oauth.issuer } : {}),
    clientId: env.RING_CLIENT_ID,
    clientSecret: env.RING_CLIENT_SECRET,
    checks: ["pkce", "state"],
    authorization: { url: oauth.authorizeUrl, params: { scope: oauth.requestScope } },
    token: { url: oauth.tokenUrl, conform: conformTokenResponse },
    userinfo: `${env.RING_API_BASE_URL}/v2/usercollection/personal_info`,
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile(p) {
      // Auth.js does not check the userinfo status: a 401 body would become the profile.
      if (typeof p?.id !== "string" || !p.id) throw new Error("The ring service sent no account id.");
      const email = typeof p.email === "string" && p.email.includes("@") ? p.email.toLowerCase() : null;
      // no name: the ring service gives none, and the address is not one (it would show where a name does)
      return { id: p.id, email, name: null, image: null };
    },
    account(tokens) {
      // Only the columns Ringside keeps; the adapter encrypts the tokens before storing them.
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        // from the app's clock (Auth.js adds expires_in to the machine's): the refresh compares with it
        expires_at: Number(tokens.expires_in) > 0 ? Math.floor(clock.now() / 1000) + Number(tokens.expires_in) : tokens.expires_at,
        token_type: tokens.token_type,
        scope: grantedScope(tokens.scope),
      };
    },
  };
}
