// Why a "Connect your ring" attempt ended without a session, in words for the person at the
// screen. Pure: the callback route maps whatever went wrong to one of these codes, and the
// error page (app/(auth)/sign-in/error) renders the text. No token or secret ever goes in.

export const SIGN_IN_ERROR_CODES = [
  "denied",
  "user_limit",
  "state_mismatch",
  "state_missing",
  "issuer_mismatch",
  "wrong_portal",
  "token_error",
  "client_rejected",
  "profile_error",
  "not_invited",
  "invite_invalid",
  "setup_code_required",
  "setup_code_invalid",
  "different_account",
  "email_in_use",
  "provider_error",
  "provider_unreachable",
  "unknown",
] as const;
export type SignInErrorCode = (typeof SIGN_IN_ERROR_CODES)[number];

export type SignInErrorText = { title: string; message: string; canRetry: boolean };

export const SIGN_IN_ERRORS: Record<SignInErrorCode, SignInErrorText> = {
  denied: {
    title: "You chose not to share",
    message:
      "The ring service says access was denied, so nothing was connected and nothing was stored. " +
      "If that was a slip, try again and choose Allow on the consent page.",
    canRetry: true,
  },
  user_limit: {
    title: "The ring service's 10-person limit was reached",
    message:
      "Every app registered with the ring service starts out unapproved, and an unapproved app may be connected by at most 10 ring accounts. " +
      "This Ringside's registration has reached that limit, so the service refused another person. Nothing was stored.",
    canRetry: false,
  },
  state_mismatch: {
    title: "The sign-in could not be verified",
    message:
      "The answer from the ring service did not match the sign-in this browser started (the security checks \u2014 state and PKCE \u2014 failed). " +
      "This happens when a sign-in tab is old, was opened twice, or cookies were cleared. Nothing was stored; start again from here.",
    canRetry: true,
  },
  state_missing: {
    title: "The ring service's answer carried no state",
    message:
      "Ringside sends a random state with every sign-in and requires the ring service to return it unchanged, so that nobody can slip a foreign " +
      "sign-in into this browser. This answer came back without it, so it was refused and nothing was stored. " +
      "Some reports say the newer identity provider may not return state: if this happens every time with your real account, " +
      "tell the project (the technical detail below is safe to share).",
    canRetry: true,
  },
  issuer_mismatch: {
    title: "The answer did not come from the expected ring service",
    message:
      "This Ringside uses the newer identity provider (RING_OAUTH_ISSUER), which names itself in every answer (the \u201ciss\u201d parameter). " +
      "This answer named another issuer, or none, so it was refused: it may have been forged or come from another service. Nothing was stored. " +
      "If it keeps happening, the owner should check that RING_OAUTH_ISSUER is exactly the issuer of the portal the app was registered in.",
    canRetry: true,
  },
  wrong_portal: {
    title: "This app is registered in the newer developer portal",
    message:
      "The ring service refused Ringside at its older token address with \u201cinvalid request\u201d \u2014 what it answers for applications " +
      "registered in the newer developer portal. Those get their tokens from the newer identity provider. " +
      "The owner should set RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous (keeping RING_CLIENT_ID and " +
      "RING_CLIENT_SECRET), restart Ringside and connect again; /setup shows the details. Nothing was stored.",
    canRetry: false,
  },
  token_error: {
    title: "The ring service did not issue access",
    message:
      "Ringside received the approval but the ring service refused to exchange it for access (for example, the approval had already been used or " +
      "had expired). Nothing was stored; please try again.",
    canRetry: true,
  },
  client_rejected: {
    title: "The ring service does not recognise this Ringside",
    message:
      "The ring service rejected Ringside's client credentials. The owner should check RING_CLIENT_ID and RING_CLIENT_SECRET, and that Ringside " +
      "uses the identity provider of the portal the app was registered in: apps from the newer developer portal need " +
      "RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous, apps from the older portal must leave it unset. Nothing was stored.",
    canRetry: true,
  },
  profile_error: {
    title: "Your ring account could not be read",
    message: "The ring service gave access but Ringside could not read your account id. Nothing was stored; please try again in a moment.",
    canRetry: true,
  },
  not_invited: {
    title: "This Ringside is private",
    message:
      "This Ringside already has an owner, and your ring account is not on its guest list. " +
      "Ask the owner for an invite link (Settings \u2192 Household), then open that link in this browser. " +
      "Nothing was stored, and the access you just granted was handed back to the ring service.",
    canRetry: false,
  },
  invite_invalid: {
    title: "This invite link cannot be used",
    message: "The invite link is unknown, was already used, was revoked or has expired (links last 7 days). Ask the owner for a new one.",
    canRetry: false,
  },
  setup_code_required: {
    title: "This Ringside needs its setup code",
    message:
      "Nobody owns this Ringside yet, and the first person to connect becomes its owner, so the first connect needs the one-time setup code. " +
      "Whoever runs Ringside finds it in the server log (\u201cRingside has no owner yet\u201d). Enter it on the sign-in page and connect again. " +
      "Nothing was stored, and the access you just granted was handed back to the ring service.",
    canRetry: false,
  },
  setup_code_invalid: {
    title: "That setup code is not right",
    message:
      "The setup code entered on the sign-in page does not match the one in the server log, or it was already used. " +
      "Check the code (letters and digits; dashes and case do not matter) and try again from the sign-in page. " +
      "Nothing was stored, and the access you just granted was handed back to the ring service.",
    canRetry: false,
  },
  different_account: {
    title: "That is a different ring account",
    message:
      "You are signed in to Ringside with another ring account. To reconnect, choose the same ring account you connected before; " +
      "to use another account, sign out first.",
    canRetry: true,
  },
  email_in_use: {
    title: "That e-mail address is already used here",
    message:
      "Another member of this Ringside shared the same e-mail address with a different ring account. Nothing was stored. " +
      "Connect the ring account you used before, or ask the owner.",
    canRetry: false,
  },
  provider_error: {
    title: "The ring service reported a problem",
    message: "The ring service ended the sign-in with an error. Nothing was stored; please try again.",
    canRetry: true,
  },
  provider_unreachable: {
    title: "The ring service's sign-in could not be reached",
    message:
      "Ringside reads the newer identity provider's settings (its discovery document, from RING_OAUTH_ISSUER) before a sign-in, and could not read " +
      "them just now. Nothing was stored; try again in a moment. " +
      "If it keeps failing, the owner should check RING_OAUTH_ISSUER and the server's network.",
    canRetry: true,
  },
  unknown: {
    title: "Connecting did not work",
    message: "Something went wrong while connecting your ring. Nothing was stored; please try again.",
    canRetry: true,
  },
};

export function isSignInErrorCode(value: unknown): value is SignInErrorCode {
  return typeof value === "string" && (SIGN_IN_ERROR_CODES as readonly string[]).includes(value);
}

const USER_LIMIT_RE = /not approved|maximum of \d+ users|user (?:limit|cap)|too many users|10 users/i;

/**
 * Maps the error a ring service put in the redirect (`error`, `error_description`) to a code.
 * The service signals its 10-user cap for unapproved apps as a refusal whose description says so.
 */
export function classifyAuthorizeError(error: string, description: string | null): SignInErrorCode {
  if (description && USER_LIMIT_RE.test(description)) return "user_limit";
  if (error === "user_limit_reached" || error === "too_many_users") return "user_limit";
  if (error === "access_denied") return "denied";
  return "provider_error";
}

/**
 * Maps a token-endpoint error (`error` of RFC 6749 §5.2, HTTP status) to a code. At the legacy
 * token address, 400 invalid_request is what the service answers an app of the newer developer
 * portal (facts Addendum 2026-11-23), so there it gets its own explanation.
 */
export function classifyTokenError(
  error: string | null,
  status: number | null,
  description: string | null,
  provider: "legacy" | "newer" = "legacy",
): SignInErrorCode {
  if (description && USER_LIMIT_RE.test(description)) return "user_limit";
  if (error === "invalid_client" || error === "unauthorized_client" || status === 401) return "client_rejected";
  if (provider === "legacy" && error === "invalid_request" && (status === 400 || status === null)) return "wrong_portal";
  return "token_error";
}

/** Whether a refused refresh means "this app belongs to the newer provider" (same rule as the code exchange). */
export function isWrongPortalRefusal(error: string | null, status: number, provider: "legacy" | "newer"): boolean {
  return classifyTokenError(error, status, null, provider) === "wrong_portal";
}

/**
 * RFC 9207 on a callback: with the newer provider, `iss` must be present and equal the
 * issuer; with the legacy one (no issuer configured) a callback that names an issuer came from
 * the newer provider, i.e. the app belongs to the developer portal.
 */
export function checkCallbackIssuer(expected: string | null, iss: string | null): { ok: true } | { ok: false; code: SignInErrorCode; detail: string } {
  if (expected === null) return iss === null ? { ok: true } : { ok: false, code: "wrong_portal", detail: "iss_unexpected" };
  if (iss === null) return { ok: false, code: "issuer_mismatch", detail: "iss_missing" };
  if (iss !== expected) return { ok: false, code: "issuer_mismatch", detail: "iss_mismatch" };
  return { ok: true };
}

/** The short technical detail shown under the message (RFC 6749 error names only, never descriptions verbatim). */
export function safeDetail(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const clean = value.replace(/[^A-Za-z0-9_.:-]/g, "").slice(0, 60);
  return clean || undefined;
}
