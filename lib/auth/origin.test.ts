// The one public-origin resolver, the same-origin rule of API writes, and https detection.
import { afterEach, describe, expect, it, vi } from "vitest";

type Origin = typeof import("@/lib/auth/origin");

/** lib/auth/origin.ts with these variables (lib/env.mjs reads them when first imported). */
async function withEnv(vars: Record<string, string | undefined>): Promise<Origin> {
  vi.resetModules();
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return import("@/lib/auth/origin");
}

const saved = { AUTH_URL: process.env.AUTH_URL, PUBLIC_URL: process.env.PUBLIC_URL };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const req = (headers: Record<string, string>, url = "http://localhost:3000/api/tags") => ({ url, headers: new Headers(headers) });

describe("checkSameOrigin", () => {
  it("accepts this Ringside's own origin: the request's host, the proxy's forwarded host, or the configured address", async () => {
    const o = await withEnv({ AUTH_URL: "https://ringside.example.org", PUBLIC_URL: "https://hooks.example.org" });
    expect(o.checkSameOrigin(req({ origin: "http://localhost:3000", host: "localhost:3000" })).ok).toBe(true);
    expect(o.checkSameOrigin(req({ origin: "http://192.168.1.20:3000", host: "192.168.1.20:3000" }, "http://192.168.1.20:3000/api/tags")).ok).toBe(true);
    expect(o.checkSameOrigin(req({ origin: "https://ringside.example.org", host: "127.0.0.1:3000", "x-forwarded-host": "ringside.example.org" })).ok).toBe(
      true,
    );
    // behind a proxy that rewrites Host and sends no X-Forwarded-Host: the configured address
    expect(o.checkSameOrigin(req({ origin: "https://ringside.example.org", host: "127.0.0.1:3000" }, "http://127.0.0.1:3000/api/tags")).ok).toBe(true);
    expect(o.checkSameOrigin(req({ origin: "https://hooks.example.org", host: "127.0.0.1:3000" }, "http://127.0.0.1:3000/api/tags")).ok).toBe(true);
    expect(o.checkSameOrigin(req({ "sec-fetch-site": "same-origin", host: "localhost:3000" })).ok).toBe(true);
  });

  it("refuses other sites, another port of the same host, Origin: null, and requests that say nothing", async () => {
    const o = await withEnv({ AUTH_URL: undefined, PUBLIC_URL: undefined });
    const refused: Array<Record<string, string>> = [
      { origin: "http://evil.example", host: "localhost:3000" },
      { origin: "http://localhost:3001", host: "localhost:3000" },
      { origin: "https://ringside.example.org.evil.example", host: "localhost:3000", "x-forwarded-host": "ringside.example.org" },
      { origin: "null", host: "localhost:3000" },
      { origin: "not a url", host: "localhost:3000" },
      { origin: "file:///etc/passwd", host: "localhost:3000" },
      { "sec-fetch-site": "cross-site", host: "localhost:3000" },
      { "sec-fetch-site": "same-site", host: "localhost:3000" },
      { "sec-fetch-site": "none", host: "localhost:3000" },
      { host: "localhost:3000" },
    ];
    for (const h of refused) {
      const r = o.checkSameOrigin(req(h, "http://127.0.0.1:3000/api/tags"));
      expect({ h, ok: r.ok }).toEqual({ h, ok: false });
    }
    // an Origin that does not match wins over a same-origin Sec-Fetch-Site
    expect(o.checkSameOrigin(req({ origin: "http://evil.example", "sec-fetch-site": "same-origin", host: "localhost:3000" })).ok).toBe(false);
  });
});

describe("publicOriginFrom", () => {
  it("AUTH_URL, else PUBLIC_URL, else what the request says", async () => {
    let o = await withEnv({ AUTH_URL: "https://a.example.org/x", PUBLIC_URL: "https://p.example.org" });
    expect(o.publicOriginFrom(new Headers({ host: "localhost:3000" }))).toBe("https://a.example.org");
    o = await withEnv({ AUTH_URL: undefined, PUBLIC_URL: "https://p.example.org" });
    expect(o.publicOriginFrom(new Headers({ host: "localhost:3000" }))).toBe("https://p.example.org");
    o = await withEnv({ AUTH_URL: undefined, PUBLIC_URL: undefined });
    expect(o.publicOriginFrom(new Headers({ host: "127.0.0.1:3000", "x-forwarded-host": "r.example.org", "x-forwarded-proto": "https, http" }))).toBe(
      "https://r.example.org",
    );
    expect(o.publicOriginFrom(new Headers({ host: "192.168.1.20:3000" }), "http://192.168.1.20:3000/x")).toBe("http://192.168.1.20:3000");
  });

  it("https: the configured address, the proxy's X-Forwarded-Proto or the request says so", async () => {
    let o = await withEnv({ AUTH_URL: "https://a.example.org", PUBLIC_URL: undefined });
    expect(o.servedOverHttps(req({}))).toBe(true);
    // Next itself fills in X-Forwarded-Proto: http when no proxy sent one
    expect(o.servedOverHttps(req({ "x-forwarded-proto": "http" }))).toBe(true);
    o = await withEnv({ AUTH_URL: "http://a.example.org", PUBLIC_URL: undefined });
    expect(o.servedOverHttps(req({ "x-forwarded-proto": "http" }))).toBe(false);
    expect(o.servedOverHttps(req({ "x-forwarded-proto": "https, http" }))).toBe(true);
    o = await withEnv({ AUTH_URL: undefined, PUBLIC_URL: undefined });
    expect(o.servedOverHttps(req({}))).toBe(false);
    expect(o.servedOverHttps(req({ "x-forwarded-proto": "https" }))).toBe(true);
    expect(o.servedOverHttps(req({}, "https://localhost/x"))).toBe(true);
  });
});
