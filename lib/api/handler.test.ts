// parseJsonBody: the size cap, and refusals that still reach a client that is sending; the
// rules every API write passes before anything else (same origin, exactly application/json).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseJsonBody, withRoute } from "@/lib/api/handler";
import { AppError } from "@/lib/http/errors";
import { streamedRequest } from "@/lib/test/requests";

const schema = z.object({ text: z.string() });

/** A request whose body is `total` bytes in 64 KB chunks; reports how much was pulled. */
const streamed = (total: number, declare: boolean) => streamedRequest("http://x/api/notes/2026-01-01", "PUT", total, declare ? total : undefined);

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

describe("parseJsonBody", () => {
  it("parses a body within the cap", async () => {
    const req = new Request("http://x", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"text":"hi"}' });
    expect(await parseJsonBody(req, schema)).toEqual({ text: "hi" });
  });

  it("refuses a body over the cap with 413 after reading the rest, streamed or declared", async () => {
    for (const declare of [false, true]) {
      const s = streamed(1_048_576, declare);
      expect(await refusal(parseJsonBody(s.req, schema, 64 * 1024))).toBe("payload_too_large");
      expect(s.pulled()).toBe(1_048_576); // drained: the sender is not cut off mid-upload
    }
  });

  it("stops reading a refused body past the drain bound", async () => {
    const s = streamed(40 * 1_048_576, false);
    expect(await refusal(parseJsonBody(s.req, schema, 64 * 1024))).toBe("payload_too_large");
    expect(s.pulled()).toBeLessThan(20 * 1_048_576);
  });

  it("answers bad types and bad JSON with 415 and 400", async () => {
    const plain = new Request("http://x", { method: "PUT", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(await refusal(parseJsonBody(plain, schema))).toBe("unsupported_media_type");
    const broken = new Request("http://x", { method: "PUT", headers: { "content-type": "application/json" }, body: "{" });
    expect(await refusal(parseJsonBody(broken, schema))).toBe("bad_request");
  });
});

describe("withRoute: API writes", () => {
  const route = withRoute(async ({ req }) => Response.json({ method: req.method }));
  const call = (method: string, headers: Record<string, string>, body?: string) =>
    route(new Request("http://localhost:3000/api/tags", { method, headers: { host: "localhost:3000", ...headers }, body }), { params: Promise.resolve({}) });
  const json = { "content-type": "application/json" };

  it("pass from this Ringside's own page, with a JSON body or none", async () => {
    expect((await call("POST", { origin: "http://localhost:3000", ...json }, "{}")).status).toBe(200);
    expect((await call("DELETE", { origin: "http://localhost:3000" })).status).toBe(200);
    expect((await call("PATCH", { "sec-fetch-site": "same-origin", ...json }, "{}")).status).toBe(200);
    expect((await call("GET", {})).status).toBe(200); // reads are not writes
  });

  it("from another site, Origin: null or no origin at all: 403 in the envelope", async () => {
    const refused: Array<Record<string, string>> = [
      { origin: "http://localhost:3001" },
      { origin: "null" },
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      {},
    ];
    for (const h of refused) {
      const res = await call("POST", { ...h, "content-type": "text/plain;charset=application/json" }, '{"name":"x"}');
      expect({ h, status: res.status, body: await res.json() }).toEqual({
        h,
        status: 403,
        body: { error: { code: "forbidden", message: expect.any(String) } },
      });
    }
  });

  it("a body or a declared type that is not exactly application/json: 415", async () => {
    for (const type of ["text/plain;charset=application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const res = await call("POST", { origin: "http://localhost:3000", "content-type": type }, "{}");
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
    }
  });
});
