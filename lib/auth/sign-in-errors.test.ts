import { describe, expect, it } from "vitest";
import { classifyAuthorizeError, classifyTokenError, safeDetail, SIGN_IN_ERROR_CODES, SIGN_IN_ERRORS } from "@/lib/auth/sign-in-errors";

describe("sign-in error classification", () => {
  it("tells a plain denial from the service's 10-user cap", () => {
    expect(classifyAuthorizeError("access_denied", null)).toBe("denied");
    expect(
      classifyAuthorizeError("access_denied", "This application is not approved yet and already has the maximum of 10 users."),
    ).toBe("user_limit");
    expect(classifyAuthorizeError("invalid_scope", "Unknown scope: x")).toBe("provider_error");
  });
  it("maps token-endpoint refusals", () => {
    expect(classifyTokenError("invalid_grant", 400, "code_verifier does not match")).toBe("token_error");
    expect(classifyTokenError("invalid_client", 401, null)).toBe("client_rejected");
    expect(classifyTokenError(null, 401, null)).toBe("client_rejected");
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
