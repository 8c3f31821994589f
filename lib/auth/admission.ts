import "server-only";
import { env } from "@/lib/env.mjs";
import type { Admission } from "@/lib/auth/callback-context";
import type { SignInErrorCode } from "@/lib/auth/sign-in-errors";
import { findUsableInvite } from "@/lib/auth/invites";
import { findRingAccountByRingUserId } from "@/lib/db/queries/accounts";
import { countOwners } from "@/lib/db/queries/users";
import { checkSetupCode } from "@/lib/auth/setup-code";
import { withDatabaseLock } from "@/lib/db/prisma";

/**
 * Who may connect: someone already in the household (by ring account id), the very first
 * person (who becomes the owner: in demo mode anyone, otherwise someone ALLOWED_EMAILS names or
 * who entered the setup code printed in the server log), the holder of a valid invite, or an
 * e-mail on ALLOWED_EMAILS (only when the person shared their e-mail). Everyone else is refused.
 */
export type AdmissionInput = {
  ringUserId: string;
  email: string | null;
  inviteSecret: string | null;
  /** the person currently signed in to Ringside in this browser, if any */
  sessionUserId: string | null;
  /** the setup code entered on the sign-in page (carried in a cookie), if any */
  setupCode?: string | null;
  allowedEmails?: readonly string[];
  /** demo mode: the first person becomes the owner without a code */
  demo?: boolean;
};

export type AdmissionResult = { ok: true; admission: Admission } | { ok: false; code: SignInErrorCode };

export async function decideAdmission(input: AdmissionInput): Promise<AdmissionResult> {
  const existing = await findRingAccountByRingUserId(input.ringUserId);
  if (input.sessionUserId && existing?.userId !== input.sessionUserId) return { ok: false, code: "different_account" };
  if (existing) return { ok: true, admission: { kind: "existing", userId: existing.userId, accountId: existing.id } };
  const email = input.email?.trim().toLowerCase();
  const allowed = !!email && isAllowedEmail(email, input.allowedEmails ?? env.ALLOWED_EMAILS);
  if ((await countOwners()) === 0) {
    if (input.demo ?? env.RINGSIDE_DEMO) return { ok: true, admission: { kind: "owner", via: "demo" } };
    if (allowed) return { ok: true, admission: { kind: "owner", via: "allowlist" } };
    const code = checkSetupCode(input.setupCode);
    if (code === "ok") return { ok: true, admission: { kind: "owner", via: "setup_code" } };
    return { ok: false, code: code === "missing" ? "setup_code_required" : "setup_code_invalid" };
  }
  if (input.inviteSecret) {
    const invite = await findUsableInvite(input.inviteSecret);
    if (invite) return { ok: true, admission: { kind: "invite", inviteId: invite.id } };
  }
  if (allowed) return { ok: true, admission: { kind: "allowlist", email: email! } };
  return { ok: false, code: input.inviteSecret ? "invite_invalid" : "not_invited" };
}

/** ALLOWED_EMAILS entries are exact addresses or "*@domain" (any address at that domain). */
export function isAllowedEmail(email: string, allowed: readonly string[]): boolean {
  const e = email.trim().toLowerCase();
  const at = e.lastIndexOf("@");
  if (at < 1) return false;
  const domain = e.slice(at + 1);
  return allowed.some((entry) => {
    const a = entry.trim().toLowerCase();
    return a.startsWith("*@") ? a.slice(2) === domain : a === e;
  });
}

let chain: Promise<unknown> = Promise.resolve();

/** The database lock key of admission (PostgreSQL advisory lock; any fixed number of ours). */
const ADMISSION_LOCK_KEY = 72707370;

/**
 * Runs admission-critical writes (owner creation, invite use) one at a time: in this process,
 * and on PostgreSQL across every process that serves sign-ins (an advisory lock).
 */
export function withAdmissionLock<T>(fn: () => Promise<T>): Promise<T> {
  const locked = () => withDatabaseLock(ADMISSION_LOCK_KEY, fn);
  const run = chain.then(locked, locked);
  chain = run.catch(() => undefined);
  return run;
}
