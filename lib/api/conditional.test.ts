// The ETag of a data answer and If-None-Match matching (lib/api/conditional.ts).
import { describe, expect, it } from "vitest";
import { answerEtag, conditionalHeaders, ifNoneMatchMatches, notModified, tagAnswer } from "@/lib/api/conditional";

const base = { release: "build-1:abc", userId: "u1", version: 7, url: "/api/metrics/sleep.score?from=2024-01-01&to=2024-12-31" };

describe("answerEtag", () => {
  it("is a weak tag that names the version and is stable for the same inputs", () => {
    const tag = answerEtag(base);
    expect(tag).toMatch(/^W\/"7-[A-Za-z0-9_-]{22}"$/);
    expect(answerEtag({ ...base })).toBe(tag);
  });

  it("changes with each of release, person, data version and request", () => {
    const tag = answerEtag(base);
    for (const other of [
      { ...base, release: "build-2:abc" },
      { ...base, userId: "u2" },
      { ...base, version: 8 },
      { ...base, url: "/api/metrics/sleep.score?from=2024-01-02&to=2024-12-31" },
      { ...base, url: "/api/metrics/readiness.score?from=2024-01-01&to=2024-12-31" },
    ]) {
      expect(answerEtag(other)).not.toBe(tag);
    }
  });
});

describe("ifNoneMatchMatches", () => {
  const tag = 'W/"7-abc"';
  it("matches the tag, weakly, alone or in a list", () => {
    expect(ifNoneMatchMatches('W/"7-abc"', tag)).toBe(true);
    expect(ifNoneMatchMatches('"7-abc"', tag)).toBe(true);
    expect(ifNoneMatchMatches('W/"6-zzz", W/"7-abc"', tag)).toBe(true);
  });

  it("does not match other tags, `*`, nothing, or an oversized header", () => {
    expect(ifNoneMatchMatches('W/"6-abc"', tag)).toBe(false);
    expect(ifNoneMatchMatches("*", tag)).toBe(false);
    expect(ifNoneMatchMatches(null, tag)).toBe(false);
    expect(ifNoneMatchMatches("", tag)).toBe(false);
    expect(ifNoneMatchMatches(`${'W/"x", '.repeat(700)}${tag}`, tag)).toBe(false);
  });
});

describe("answers", () => {
  it("304 carries the tag and the revalidation headers, and no body", async () => {
    const res = notModified('W/"1-a"');
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe('W/"1-a"');
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(await res.text()).toBe("");
  });

  it("tags a 200 and leaves an error untagged", () => {
    expect(tagAnswer(Response.json({ a: 1 }), 'W/"1-a"').headers.get("etag")).toBe('W/"1-a"');
    const err = tagAnswer(Response.json({ error: {} }, { status: 404 }), 'W/"1-a"');
    expect(err.headers.get("etag")).toBeNull();
    expect(conditionalHeaders('W/"1-a"').vary).toContain("Cookie");
  });
});
