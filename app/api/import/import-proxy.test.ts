// An upload reaches the import route as it is sent, whole, however large: proxy.ts never runs in
// front of POST /api/import. Wherever a proxy runs, Next.js buffers the request body for it and
// hands the route only the first 10 MB (and only once the whole body has arrived): a 40 MB CSV
// was cut mid-row and refused (422), and nothing of an upload was spooled, nor its import
// recorded, until the client had sent the last byte. Asked of Next.js's own matcher.
import { describe, expect, it } from "vitest";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { config } from "@/proxy";

const runsFor = (url: string, headers: Record<string, string> = {}) => unstable_doesMiddlewareMatch({ config, url, headers });

describe("proxy.ts and the import route", () => {
  it.each([
    ["no forwarded protocol", {}],
    ["behind a plain http proxy", { "x-forwarded-proto": "http" }],
    ["behind an https proxy", { "x-forwarded-proto": "https" }],
    ["with a next-action header", { "next-action": "abc" }],
  ])("never runs for /api/import (%s)", (_, headers) => {
    expect(runsFor("http://localhost/api/import", headers)).toBe(false);
    expect(runsFor("http://localhost/api/import?dry_run=1", headers)).toBe(false);
  });

  it("still runs for the other API routes and the pages (the outage answer, the page's policy)", () => {
    expect(runsFor("http://localhost/api/days")).toBe(true);
    expect(runsFor("http://localhost/api/import-something")).toBe(true);
    expect(runsFor("http://localhost/settings")).toBe(true);
  });
});
