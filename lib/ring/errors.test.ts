import { describe, expect, it } from "vitest";
import { ReconnectRequiredError, RingApiError, TokenRefreshError } from "@/lib/ring/errors";

// Status, code and retry hints are fields of the errors: nothing downstream reads them out of a message.
describe("ring errors", () => {
  it("decide the code once, from the status and the service's own detail", () => {
    const code = (status: number, detail?: string) => new RingApiError({ status, endpoint: "/v2/x", detail }).code;
    expect(code(0)).toBe("no_answer");
    expect(code(403, "The user's membership has expired.")).toBe("membership_expired");
    expect(code(403, 'Missing scopes: "daily"')).toBe("not_shared");
    expect([code(400), code(401), code(404), code(422), code(429), code(503), code(200), code(409)]).toEqual([
      "bad_request",
      "unauthorized",
      "not_found",
      "unprocessable",
      "rate_limited",
      "server_error",
      "invalid_body",
      "http_error",
    ]);
    const e = new RingApiError({ status: 429, endpoint: "/v2/x", retryAfter: 30, resetAt: 1_700_000_000, tier: "application" });
    expect(e).toMatchObject({ status: 429, retryAfter: 30, resetAt: 1_700_000_000, tier: "application", isTransient: false });
    expect(new RingApiError({ status: 502, endpoint: "/v2/x" }).isTransient).toBe(true);
  });

  it("carry the token endpoint's status and OAuth code, and the reason a reconnect is needed", () => {
    expect(new TokenRefreshError("x", { status: 503, code: "temporarily_unavailable" })).toMatchObject({ status: 503, code: "temporarily_unavailable" });
    expect(new TokenRefreshError("no answer")).toMatchObject({ status: null, code: null });
    expect(new ReconnectRequiredError("wrong_portal").reason).toBe("wrong_portal");
  });
});
