import "server-only";
import { logger } from "@/lib/log";
import { callbackContext, recordFailure } from "@/lib/auth/callback-context";
import { classifyAuthorizeError, classifyTokenError, safeDetail, type SignInErrorCode } from "@/lib/auth/sign-in-errors";

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

/**
 * Classifies the error under Auth.js's wrapper. oauth4webapi's errors are told apart by their
 * `code` (class names do not survive the production bundle's minification).
 */
function classifyCause(err: unknown): Classified | null {
  if (!(err instanceof Error)) return null;
  if (err.name === "AdmissionRefusedError") return null; // the adapter recorded the reason itself
  const code = str(field(err, "code"));
  const status = typeof field(err, "status") === "number" ? (field(err, "status") as number) : null;
  switch (code) {
    case "OAUTH_WWW_AUTHENTICATE_CHALLENGE":
      return { code: classifyTokenError(null, status ?? 401, null), detail: `http_${status ?? 401}` };
    case "OAUTH_RESPONSE_BODY_ERROR": {
      const error = str(field(err, "error"));
      return {
        code: classifyTokenError(error, status, str(field(err, "error_description")), callbackContext()?.provider ?? "legacy"),
        detail: safeDetail(error),
      };
    }
    case "OAUTH_AUTHORIZATION_RESPONSE_ERROR":
      return { code: classifyAuthorizeError(str(field(err, "error")) ?? "error", str(field(err, "error_description"))) };
    case "OAUTH_INVALID_RESPONSE":
    case "OAUTH_RESPONSE_IS_NOT_JSON":
    case "OAUTH_RESPONSE_IS_NOT_CONFORM":
    case "OAUTH_PARSE_ERROR":
      if (/"state"/.test(err.message)) return { code: "state_mismatch", detail: "state" };
      return { code: "token_error", detail: safeDetail(code.toLowerCase().replace(/^oauth_/, "")) };
    default:
      break;
  }
  if (/"state"/.test(err.message)) return { code: "state_mismatch", detail: "state" };
  if (err instanceof TypeError && /fetch/i.test(err.message)) return { code: "token_error", detail: "unreachable" };
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
    default: {
      const inner = field(cause, "err");
      const innerCode = inner instanceof Error ? (str(field(inner, "code")) ?? inner.name) : null;
      return classifyCause(inner) ?? classifyCause(error) ?? { code: "unknown", detail: safeDetail(innerCode ?? type) };
    }
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
