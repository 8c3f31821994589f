import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import NextAuth from "next-auth";
import { authConfigFor } from "@/lib/services/auth/config";
import { ringOAuth } from "@/lib/auth/ring-oauth";

// Lazy form: the ring provider's addresses may come from the identity provider's discovery
// document (RING_OAUTH_ISSUER), read once per process (lib/auth/ring-oauth.ts).
const nextAuth = NextAuth(async () => authConfigFor(await ringOAuth()));

export const { handlers, signIn, signOut } = nextAuth;
/** The current session (cached per request). */
export const auth = cache(nextAuth.auth);

/**
 * Starts "Connect your ring" (authorization-code flow with PKCE and state) and lands on
 * `redirectTo`. When the newer identity provider's discovery document cannot be read just now,
 * the person lands on the error page instead of a server error.
 */
export async function signInWithRing(redirectTo: string): Promise<void> {
  try {
    await ringOAuth();
  } catch {
    redirect("/sign-in/error?error=provider_unreachable&detail=discovery");
  }
  await nextAuth.signIn("ring", { redirectTo });
}
