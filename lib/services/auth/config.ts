import "server-only";
import type { NextAuthConfig } from "next-auth";
import { resolveSecret } from "@/lib/secrets";
import { logger } from "@/lib/log";
import { ringProvider, grantedScope } from "@/lib/auth/ring-provider";
import type { RingOAuth } from "@/lib/auth/ring-oauth";
import { ringsideAdapter } from "@/lib/services/auth/adapter";
import { authLogger } from "@/lib/auth/auth-errors";
import { callbackContext, recordFailure } from "@/lib/auth/callback-context";
import { decideAdmission } from "@/lib/auth/admission";
import { storeTokensAfterSignIn } from "@/lib/db/queries/accounts";
import { findSessionUserId, updateUserEmail } from "@/lib/db/queries/users";
import { encryptToken } from "@/lib/ring/crypto";
import { revokeAccessToken } from "@/lib/ring/oauth";
import { onAccountConnected } from "@/lib/sync";

declare module "next-auth" {
  interface Session {
    user: { id: string; role: string; email?: string | null; name?: string | null; image?: string | null };
  }
}

export const SIGN_IN_PAGE = "/sign-in";
export const SIGN_IN_ERROR_PAGE = "/sign-in/error";

/**
 * Auth.js: the ring provider, database sessions through Ringside's (token-encrypting) adapter on its queries.
 * The signIn callback is the household's door: it admits existing members, the first person
 * (owner; with the setup code unless demo mode or ALLOWED_EMAILS), invite holders and ALLOWED_EMAILS; refuses everyone else (no rows written, their
 * fresh token revoked at the service); and, for a returning person, stores the new tokens on
 * their existing connection (Auth.js itself does not update tokens of a known account).
 */
const baseConfig = {
  adapter: ringsideAdapter(),
  session: { strategy: "database" },
  trustHost: true,
  secret: resolveSecret("auth-secret"),
  providers: [],
  pages: { signIn: SIGN_IN_PAGE, error: SIGN_IN_ERROR_PAGE },
  logger: authLogger,
  callbacks: {
    async signIn({ account, profile }) {
      const ctx = callbackContext();
      if (!account || account.provider !== "ring" || !ctx) {
        recordFailure("unknown");
        return `${SIGN_IN_ERROR_PAGE}?error=unknown`;
      }
      const ringUserId = account.providerAccountId;
      const accessToken = typeof account.access_token === "string" ? account.access_token : undefined;
      ctx.ringUserId = ringUserId;
      ctx.accessToken = accessToken;
      const email = typeof profile?.email === "string" && profile.email.includes("@") ? profile.email.toLowerCase() : null;
      const sessionUserId = ctx.sessionToken ? await findSessionUserId(ctx.sessionToken) : null;
      const result = await decideAdmission({ ringUserId, email, inviteSecret: ctx.inviteSecret, setupCode: ctx.setupCode ?? null, sessionUserId });
      if (!result.ok) {
        recordFailure(result.code);
        if (accessToken) await revokeAccessToken(accessToken, "sign-in refused");
        logger.info({ code: result.code }, "sign-in refused");
        return `${SIGN_IN_ERROR_PAGE}?error=${result.code}`;
      }
      ctx.admission = result.admission;
      if (result.admission.kind === "existing") {
        // Reconnect / re-consent: keep the same person and data, replace the tokens.
        if (!accessToken) {
          recordFailure("token_error", "no_access_token");
          return `${SIGN_IN_ERROR_PAGE}?error=token_error`;
        }
        await storeTokensAfterSignIn(result.admission.accountId, result.admission.userId, {
          accessToken: encryptToken(accessToken),
          refreshToken: typeof account.refresh_token === "string" ? encryptToken(account.refresh_token) : null,
          expiresAt: typeof account.expires_at === "number" ? account.expires_at : null,
          tokenType: typeof account.token_type === "string" ? account.token_type : null,
          scope: grantedScope(account.scope),
        });
        if (email) await updateUserEmail(result.admission.userId, email);
      }
      return true;
    },
    session({ session, user }) {
      session.user.id = user.id;
      session.user.role = (user as { role?: string }).role ?? "member";
      return session;
    },
  },
  events: {
    async signIn({ user, isNewUser }) {
      if (!user.id) return;
      logger.info({ userId: user.id, isNewUser: Boolean(isNewUser) }, "ring connected");
      try {
        // Backfill for a new person, catch-up after a reconnect (consent may have changed).
        await onAccountConnected(user.id);
      } catch (err) {
        logger.error({ userId: user.id, error: err instanceof Error ? err.name : "error" }, "could not queue the sync after connecting");
      }
    },
  },
} satisfies NextAuthConfig;

const built = new WeakMap<RingOAuth, NextAuthConfig>();

/** The Auth.js configuration for the identity provider in use (built once per provider settings). */
export function authConfigFor(oauth: RingOAuth): NextAuthConfig {
  let config = built.get(oauth);
  if (!config) {
    config = { ...baseConfig, providers: [ringProvider(oauth)] };
    built.set(oauth, config);
  }
  return config;
}
