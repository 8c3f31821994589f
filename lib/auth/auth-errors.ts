import "server-only";
import { logger } from "@/lib/log";
import { recordFailure } from "@/lib/auth/callback-context";
import {
  classifyAuthorizeError,
  classifyTokenError,
  safeDetail,
  type SignInErrorCode,
} from "@/lib/auth/sign-in-errors";

/**
 * Auth.js reports every failure of a sign-in to its logger and then redirects with a coarse
 * code ("Configuration"). This logger keeps the precise reason for the error page (state/PKCE
 * checks, token-endpoint refusals, the profile read) and writes one JSON line with names and
 * codes only: no tokens, no codes from the redirect, no response bodies.
 */

type Classified = { code: SignInErrorCode; detail?: string };

function field(obj: unknown, key: string): unknown {
  return typeof obj === "object" && obj !== null ? (obj as Record<string, unknown>)[key] : undefined;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function classifyCause(err: unknown): Classified | null {
  if (!(err instanceof Error)) return null;
  const name = err.name;
  if (name === "AdmissionRefusedError") return null; // the adapter recorded the reason itself
  if (name === "WWWAuthenticateChallengeError") {
    const status = Number(field(err, "status") ?? 401);
    return { code: classifyTokenError(null, status, null), detail: `http_${status}` };
  }
  if (name === "ResponseBodyError") {
    const error = str(field(err, "error"));
    const status = typeof field(err, "status") === "number" ? (field(err, "status") as number) : null;
    return { code: classifyTokenError(error, status, str(field(err, "error_description"))), detail: safeDetail(error) };
  }
  if (name === "OperationProcessingError") {
    if (/"state"/.test(err.message)) return { code: "state_mismatch", detail: "state" };
    return { code: "token_error", detail: "invalid_response" };
  }
  if (name === "AuthorizationResponseError") {
    return { code: classifyAuthorizeError(str(field(err, "error")) ?? "error", str(field(err, "error_description"))) };
  }
  if (name === "TypeError" && /fetch/i.test(err.message)) return { code: "token_error", detail: "unreachable" };
  return null;
}

export function classifyAuthError(error: Error): Classified {
  const type = str(field(error, "type")) ?? error.name;
  const cause = field(error, "cause");
  switch (type) {
    case "InvalidCheck":
      return { code: "state_mismatch", detail: /pkce|code_verifier/i.test(error.message) ? "pkce" : "state" };
    case "OAuthCallbackError":
      return {
        code: classifyAuthorizeError(str(field(cause, "error")) ?? "error", str(field(cause, "error_description"))),
        detail: safeDetail(str(field(cause, "error"))),
      };
    case "OAuthProfileParseError":
      return { code: "profile_error" };
    case "OAuthAccountNotLinked":
      return { code: "email_in_use" };
    default:
      return classifyCause(field(cause, "err")) ?? classifyCause(error) ?? { code: "unknown", detail: safeDetail(type) };
  }
}

export const authLogger = {
  error(error: Error) {
    const { code, detail } = classifyAuthError(error);
    // The first recorded reason wins: a refusal recorded by the adapter stays.
    recordFailure(code, detail);
    logger.warn({ authError: str(field(error, "type")) ?? error.name, code, detail: detail ?? null }, "sign-in failed");
  },
  warn(code: string) {
    logger.warn({ authWarning: code }, "auth.js warning");
  },
  debug() {},
};
