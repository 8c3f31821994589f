import "server-only";
import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import { createAccount } from "@/lib/db/queries/accounts";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma, type ProcessDb } from "@/lib/db/prisma";
import { logger } from "@/lib/log";
import { callbackContext, recordFailure } from "@/lib/auth/callback-context";
import { withAdmissionLock } from "@/lib/auth/admission";
import { checkSetupCode, consumeSetupCode } from "@/lib/auth/setup-code";
import { normalizeScopes } from "@/lib/auth/scopes";
import { countOwners, createUser, InviteUnavailableError } from "@/lib/db/queries/users";
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

/** Auth.js's user: its e-mail is a string (a ring account may have none: stored as null). */
type StoredUser = Omit<AdapterUser, "email"> & { email: string | null };
const asAdapterUser = <U extends StoredUser>(u: U): U & AdapterUser => ({ ...u, email: u.email ?? "" });
const asAdapterUserOrNull = <U extends StoredUser>(u: U | null): (U & AdapterUser) | null => (u ? asAdapterUser(u) : null);

/** Prisma's "no such record" (P2025): a session a disconnect or a sign-out removed meanwhile is nothing to do. */
async function unlessGone<T>(work: () => PromiseLike<T> | T): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025") return null;
    throw err;
  }
}

/**
 * Auth.js's database adapter: Prisma's official one (`@auth/prisma-adapter`, one model call per
 * method on User, Account, Session and VerificationToken) on the process's client, under
 * Ringside's rules (docs/decisions/0031-prisma-client-at-run-time.md):
 * - createUser assigns the role (first person = owner) and the ring id, and consumes the invite
 *   (or, for the owner, the setup code), re-checking the signIn callback's admission under a
 *   lock (two first sign-ins at once cannot both become owner; an invite cannot be used twice);
 * - linkAccount encrypts access_token/refresh_token before they are stored, stores the granted
 *   scopes in canonical form and keeps only the columns Ringside uses;
 * - a person without an e-mail (a ring account may have none) is given to Auth.js with an empty
 *   string; updateUser changes only what Auth.js may change of a person (name, e-mail, picture,
 *   e-mail verification);
 * - updateSession and deleteSession of a session already gone are nothing to do (P2025).
 */
export function ringsideAdapter(db: ProcessDb = prisma()): Adapter {
  const official = PrismaAdapter(db);
  return {
    getUser: async (id) => asAdapterUserOrNull(await official.getUser!(id)),
    getUserByEmail: async (email) => asAdapterUserOrNull(await official.getUserByEmail!(email)),
    getUserByAccount: async (account) => asAdapterUserOrNull(await official.getUserByAccount!(account)),
    updateUser: async ({ id, name, email, image, emailVerified }) => asAdapterUser(await official.updateUser!({ id, name, email, image, emailVerified })),
    createSession: (session) => official.createSession!(session),
    async updateSession({ sessionToken, expires }) {
      if (!expires) return null;
      return unlessGone(() => official.updateSession!({ sessionToken, expires }));
    },
    async deleteSession(sessionToken) {
      await unlessGone(async () => {
        await official.deleteSession!(sessionToken);
      });
    },
    unlinkAccount: (account) => official.unlinkAccount!(account),
    createVerificationToken: (token) => official.createVerificationToken!(token),
    useVerificationToken: (params) => official.useVerificationToken!(params),
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
          return asAdapterUser(user);
        } catch (err) {
          if (err instanceof InviteUnavailableError) return refuse("invite_invalid", err.message);
          throw err;
        }
      });
    },
    async getSessionAndUser(sessionToken: string) {
      const found = await official.getSessionAndUser!(sessionToken);
      if (!found) return null;
      const { userId, expires } = found.session;
      return { session: { sessionToken: found.session.sessionToken, userId, expires }, user: asAdapterUser(found.user) };
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
