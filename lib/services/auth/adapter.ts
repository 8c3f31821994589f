import "server-only";
import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import { createAccount } from "@/lib/db/queries/accounts";
import { createSession, deleteSession, findSessionWithUser, updateSessionExpiry } from "@/lib/db/queries/sessions";
import { logger } from "@/lib/log";
import { callbackContext, recordFailure } from "@/lib/auth/callback-context";
import { withAdmissionLock } from "@/lib/auth/admission";
import { checkSetupCode, consumeSetupCode } from "@/lib/auth/setup-code";
import { normalizeScopes } from "@/lib/auth/scopes";
import {
  countOwners,
  createUser,
  findUser,
  findUserByAccount,
  findUserByEmail,
  InviteUnavailableError,
  updateUserProfile,
  type UserRow,
} from "@/lib/db/queries/users";
import { encryptToken } from "@/lib/ring/crypto";
import { revokeAccessToken } from "@/lib/ring/oauth";

/** Thrown inside the adapter when the household refuses a new person; no rows are written. */
export class AdmissionRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdmissionRefusedError";
  }
}

async function refuse(code: "not_invited" | "invite_invalid" | "setup_code_invalid", message: string): Promise<never> {
  recordFailure(code);
  const ctx = callbackContext();
  if (ctx?.accessToken) await revokeAccessToken(ctx.accessToken, "sign-in refused");
  throw new AdmissionRefusedError(message);
}

/** Auth.js's user: its e-mail is a string (a ring account may have none). */
const asAdapterUser = (u: UserRow | null): AdapterUser | null => (u ? { ...u, email: u.email ?? "" } : null);

/**
 * Auth.js's database adapter on Ringside's queries (lib/db/queries: users, sessions, accounts),
 * with Ringside's rules:
 * - createUser assigns the role (first person = owner) and the ring id, and consumes the invite
 *   (or, for the owner, the setup code),
 *   re-checking the signIn callback's admission under a lock (two first sign-ins at once cannot
 *   both become owner; an invite cannot be used twice);
 * - linkAccount encrypts access_token/refresh_token before they reach SQLite, stores the
 *   granted scopes in canonical form and keeps only the columns Ringside uses;
 * - getSessionAndUser, asked on every signed-in request, is one prepared join
 *   (lib/db/queries/sessions.ts).
 */
export function ringsideAdapter(): Adapter {
  return {
    getUser: async (id) => asAdapterUser(await findUser(id)),
    getUserByEmail: async (email) => asAdapterUser(await findUserByEmail(email)),
    getUserByAccount: async ({ provider, providerAccountId }) => asAdapterUser(await findUserByAccount(provider, providerAccountId)),
    async updateUser({ id, ...patch }) {
      const user = asAdapterUser(await updateUserProfile(id, patch));
      if (!user) throw new Error("No such person.");
      return user;
    },
    createSession: (s) => createSession(s),
    async updateSession({ sessionToken, expires }) {
      if (!expires) return null;
      return updateSessionExpiry(sessionToken, expires);
    },
    async deleteSession(sessionToken) {
      await deleteSession(sessionToken);
    },
    async createUser(data: AdapterUser): Promise<AdapterUser> {
      const ctx = callbackContext();
      const admission = ctx?.admission;
      if (!ctx?.ringUserId || !admission || admission.kind === "existing") {
        throw new AdmissionRefusedError("A person can only be created by a ring sign-in that was admitted.");
      }
      return withAdmissionLock(async () => {
        let role: "owner" | "member" = "member";
        if (admission.kind === "owner" && admission.via === "allowlist" && (await countOwners()) > 0) {
          // Another allowlisted person became the owner meanwhile (first sign-ins at once): the
          // allowlist admits this one all the same, as a member.
        } else if (admission.kind === "owner") {
          if ((await countOwners()) > 0) await refuse("not_invited", "This Ringside got its owner meanwhile.");
          // The code is checked again under the lock: it works once.
          if (admission.via === "setup_code" && checkSetupCode(ctx.setupCode) !== "ok")
            await refuse("setup_code_invalid", "The setup code was used meanwhile.");
          role = "owner";
        }
        try {
          const user = await createUser(
            {
              name: data.name ?? null,
              email: data.email ?? null,
              image: data.image ?? null,
              emailVerified: data.emailVerified ?? null,
              role,
              ringUserId: ctx.ringUserId!,
            },
            admission.kind === "invite" ? { inviteId: admission.inviteId } : {},
          );
          if (admission.kind === "invite") ctx.inviteUsed = true;
          // The instance has its owner: the setup code has done its job, however the owner got in.
          if (role === "owner") consumeSetupCode();
          logger.info({ userId: user.id, role, via: admission.kind }, "person joined");
          return asAdapterUser(user)!;
        } catch (err) {
          if (err instanceof InviteUnavailableError) return refuse("invite_invalid", err.message);
          throw err;
        }
      });
    },
    async getSessionAndUser(sessionToken: string) {
      const found = await findSessionWithUser(sessionToken);
      if (!found) return null;
      return { session: found.session, user: { ...found.user, email: found.user.email ?? "" } };
    },
    async linkAccount(account: AdapterAccount): Promise<AdapterAccount | null | undefined> {
      await createAccount({
        userId: account.userId,
        type: account.type,
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        accessToken: account.access_token ? encryptToken(account.access_token) : null,
        refreshToken: account.refresh_token ? encryptToken(account.refresh_token) : null,
        expiresAt: typeof account.expires_at === "number" ? account.expires_at : null,
        tokenType: typeof account.token_type === "string" ? account.token_type : null,
        scope: normalizeScopes(account.scope).join(" "),
      });
      return undefined;
    },
  };
}
