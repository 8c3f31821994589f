// The Content-Security-Policy's form-action (the import issue's finding: it allowed any http(s)
// origin). Forms post to Ringside itself; the one cross-origin step a form leads to is the
// sign-in's redirect to the ring service's authorization page (browsers apply form-action to
// the redirects after a submission).
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env.mjs";
import { contentSecurityPolicy } from "@/lib/security-headers.mjs";

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("form-action", () => {
  it("is Ringside itself and the ring service's authorization origin, not any http(s) origin", () => {
    for (const csp of [contentSecurityPolicy({ isProduction: true }), contentSecurityPolicy({ isProduction: true, nonce: "abc" })]) {
      const sources = directive(csp, "form-action").split(" ").slice(1);
      expect(sources).not.toContain("http:");
      expect(sources).not.toContain("https:");
      expect(sources[0]).toBe("'self'");
      expect(sources).toContain(new URL(env.RING_AUTHORIZE_URL).origin);
    }
  });
});
