import "server-only";
import type { OAuthConfig } from "next-auth/providers";
import { env } from "@/lib/env.mjs";
import { callbackContext } from "@/lib/auth/callback-context";
import { normalizeScopes } from "@/lib/auth/scopes";

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
 * The ring service as an Auth.js OAuth 2.0 provider: authorization-code flow with PKCE
 * (S256) and state. Every URL and credential comes from the environment (RING_AUTHORIZE_URL
 * may be the service's alternative /authorize address; RING_TOKEN_URL depends on the portal the
 * app was registered in), so pointing Ringside at the emulator or the real service is
 * configuration only. The profile is personal_info: its `id` is the ring account's identity,
 * its e-mail is present only when the email scope was granted.
 */
export function ringProvider(): OAuthConfig<RingProfile> {
  return {
    id: "ring",
    name: "Ring",
    type: "oauth",
    clientId: env.RING_CLIENT_ID,
    clientSecret: env.RING_CLIENT_SECRET,
    checks: ["pkce", "state"],
    authorization: { url: env.RING_AUTHORIZE_URL, params: { scope: env.RING_SCOPES.join(" ") } },
    token: env.RING_TOKEN_URL,
    userinfo: `${env.RING_API_BASE_URL}/v2/usercollection/personal_info`,
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile(p) {
      // Auth.js does not check the userinfo status: a 401 body would become the profile.
      if (typeof p?.id !== "string" || !p.id) throw new Error("The ring service sent no account id.");
      const email = typeof p.email === "string" && p.email.includes("@") ? p.email.toLowerCase() : null;
      return { id: p.id, email, name: email, image: null };
    },
    account(tokens) {
      // Only the columns Ringside keeps; the adapter encrypts the tokens before storing them.
      return {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expires_at: tokens.expires_at,
        token_type: tokens.token_type,
        scope: grantedScope(tokens.scope),
      };
    },
  };
}
