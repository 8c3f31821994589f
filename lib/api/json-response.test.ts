// The chart routes' JSON answers: gzipped once when large and accepted, plain otherwise.
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, jsonResponse, GZIP_MIN_BYTES } from "@/lib/api/json-response";

const big = { value: Array.from({ length: 3000 }, (_, i) => i * 1.5) };
const req = (ae?: string) => new Request("http://x/api/metrics/sleep.score", { headers: ae === undefined ? {} : { "accept-encoding": ae } });

describe("acceptsGzip", () => {
  it("reads the header as RFC 9110 does", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("*;q=0, gzip")).toBe(true);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});

describe("jsonResponse", () => {
  it("gzips a large answer when the client accepts it, and the body decodes to the data", async () => {
    const res = jsonResponse(req("gzip, br"), big);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("vary")).toMatch(/accept-encoding/i);
    const raw = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(raw.byteLength);
    expect(raw.byteLength).toBeLessThan(JSON.stringify(big).length / 2);
    expect(JSON.parse(gunzipSync(raw).toString("utf8"))).toEqual(big);
  });

  it("sends plain JSON to a client that does not accept gzip, and small answers as they are", async () => {
    for (const r of [req(), req("identity"), req("gzip;q=0")]) {
      const res = jsonResponse(r, big);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(await res.json()).toEqual(big);
    }
    const small = { ok: true, pad: "x".repeat(GZIP_MIN_BYTES / 4) };
    const res = jsonResponse(req("gzip"), small, { status: 201 });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.json()).toEqual(small);
  });
});
