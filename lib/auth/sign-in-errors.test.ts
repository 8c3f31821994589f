import { describe, expect, it } from "vitest";
import {
  checkCallbackIssuer,
  classifyAuthorizeError,
  classifyTokenError,
  isWrongPortalRefusal,
  safeDetail,
  SIGN_IN_ERROR_CODES,
  SIGN_IN_ERRORS,
} from "@/lib/auth/sign-in-errors";

describe("sign-in error classification", () => {
  it("tells a plain denial from the service's 10-user cap", () => {
    expect(classifyAuthorizeError("access_denied", null)).toBe("denied");
    expect(classifyAuthorizeError("access_denied", "This application is not approved yet and already has the maximum of 10 users.")).toBe("user_limit");
    expect(classifyAuthorizeError("invalid_scope", "Unknown scope: x")).toBe("provider_error");
  });
  it("maps token-endpoint refusals", () => {
    expect(classifyTokenError("invalid_grant", 400, "code_verifier does not match")).toBe("token_error");
    expect(classifyTokenError("invalid_client", 401, null)).toBe("client_rejected");
    expect(classifyTokenError(null, 401, null)).toBe("client_rejected");
  });
  it("400 invalid_request at the legacy token address means a developer-portal app (wrong_portal); at the newer provider it is a plain token error", () => {
    expect(classifyTokenError("invalid_request", 400, "Invalid request")).toBe("wrong_portal");
    expect(classifyTokenError("invalid_request", 400, "Invalid request", "legacy")).toBe("wrong_portal");
    expect(classifyTokenError("invalid_request", 400, "Invalid request", "newer")).toBe("token_error");
    expect(classifyTokenError("invalid_grant", 400, null, "legacy")).toBe("token_error");
    expect(isWrongPortalRefusal("invalid_request", 400, "legacy")).toBe(true);
    expect(isWrongPortalRefusal("invalid_request", 400, "newer")).toBe(false);
    expect(isWrongPortalRefusal("invalid_grant", 400, "legacy")).toBe(false);
    expect(SIGN_IN_ERRORS.wrong_portal.message).toContain("RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous");
    expect(SIGN_IN_ERRORS.wrong_portal.canRetry).toBe(false);
  });
  it("checks iss on the callback (RFC 9207): required and exact with an issuer, a surprise without one", () => {
    const issuer = "https://idp.example.test/oauth/v2/ext/oauth-anonymous";
    expect(checkCallbackIssuer(issuer, issuer)).toEqual({ ok: true });
    expect(checkCallbackIssuer(issuer, null)).toEqual({ ok: false, code: "issuer_mismatch", detail: "iss_missing" });
    expect(checkCallbackIssuer(issuer, `${issuer}/`)).toEqual({ ok: false, code: "issuer_mismatch", detail: "iss_mismatch" });
    expect(checkCallbackIssuer(issuer, "https://evil.example.test")).toMatchObject({ ok: false, code: "issuer_mismatch" });
    expect(checkCallbackIssuer(null, null)).toEqual({ ok: true });
    expect(checkCallbackIssuer(null, issuer)).toEqual({ ok: false, code: "wrong_portal", detail: "iss_unexpected" });
  });
  it("every code has a page text, and retry is offered where retrying can help", () => {
    for (const code of SIGN_IN_ERROR_CODES) expect(SIGN_IN_ERRORS[code].message.length).toBeGreaterThan(20);
    expect(SIGN_IN_ERRORS.denied.canRetry).toBe(true);
    expect(SIGN_IN_ERRORS.state_mismatch.canRetry).toBe(true);
    expect(SIGN_IN_ERRORS.not_invited.canRetry).toBe(false);
    expect(SIGN_IN_ERRORS.user_limit.message).toMatch(/10/);
  });
  it("safeDetail keeps only short identifier-like text", () => {
    expect(safeDetail("invalid_grant")).toBe("invalid_grant");
    expect(safeDetail("<script>alert(1)</script>")).toBe("scriptalert1script");
    expect(safeDetail("x".repeat(200))?.length).toBe(60);
    expect(safeDetail(null)).toBeUndefined();
  });
});
