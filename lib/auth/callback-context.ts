import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { SignInErrorCode } from "@/lib/auth/sign-in-errors";

/**
 * What one OAuth callback request knows beyond what Auth.js passes to its callbacks: the
 * granted `scope` of the redirect, the invite cookie, the current session cookie, the admission
 * decided in the signIn callback, and the reason when the sign-in fails. The callback route
 * (lib/auth/callback-route.ts) opens the context; config callbacks, events, the adapter and the
 * Auth.js logger read and fill it.
 */
export type Admission =
  | { kind: "existing"; userId: string; accountId: string }
  | { kind: "owner"; via: "demo" | "allowlist" | "setup_code" }
  | { kind: "invite"; inviteId: string }
  | { kind: "allowlist"; email: string };

export type CallbackContext = {
  /** Which identity provider this sign-in talks to (decides how token errors read). */
  provider?: "legacy" | "newer";
  callbackScope: string | null;
  inviteSecret: string | null;
  /** the setup code entered on the sign-in page (its cookie), if any */
  setupCode?: string | null;
  sessionToken: string | null;
  ringUserId?: string;
  admission?: Admission;
  /** access token of this sign-in, kept only to revoke it if the sign-in is refused later */
  accessToken?: string;
  failure?: SignInErrorCode;
  failureDetail?: string;
  inviteUsed?: boolean;
};

const storage = new AsyncLocalStorage<CallbackContext>();

export function runWithCallbackContext<T>(ctx: CallbackContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(ctx, fn);
}

export function callbackContext(): CallbackContext | undefined {
  return storage.getStore();
}

/** Records why the sign-in failed (the first reason wins). */
export function recordFailure(code: SignInErrorCode, detail?: string): void {
  const ctx = storage.getStore();
  if (!ctx || ctx.failure) return;
  ctx.failure = code;
  if (detail) ctx.failureDetail = detail;
}
