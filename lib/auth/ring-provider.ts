import "server-only";
import type { OAuthConfig } from "next-auth/providers";
import { env } from "@/lib/env.mjs";

export type RingProfile = { id: string; email?: string | null };

/**
 * The ring service as an Auth.js OAuth 2.0 provider: authorization-code flow with PKCE
 * (S256) and state. Every URL and credential comes from the environment, so pointing
 * Ringside at the emulator or at the real service is configuration only.
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
      return { id: p.id, email: p.email ?? null, name: p.email ?? null, image: null };
    },
  };
}
