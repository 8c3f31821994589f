// The one body reader: caps that hold whatever content-length says, and the media-type parse.
import { describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/http/errors";
import { DRAIN_MAX_BYTES, DRAIN_MAX_MS, drainBody, parseMediaType, readBody, requireJsonMediaType, streamBody } from "@/lib/http/body";
import { streamedRequest } from "@/lib/test/requests";

/** A request whose body is `total` bytes in 64 KB chunks, declaring `declared` (or nothing); reports how much was pulled. */
const streamed = (total: number, declared?: number) => streamedRequest("http://x/api/import", "POST", total, declared);

async function code(p: Promise<unknown>): Promise<string | null> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof AppError ? err.code : null;
}

describe("readBody / streamBody", () => {
  it("keeps a body within the cap", async () => {
    const s = streamed(100_000);
    expect((await readBody(s.req, { maxBytes: 200_000 })).length).toBe(100_000);
  });

  it("stops at the cap when the body is chunked (no content-length) or lies about its length", async () => {
    for (const declared of [undefined, 10]) {
      const s = streamed(64 * 1_048_576, declared);
      expect(await code(readBody(s.req, { maxBytes: 64 * 1024 }))).toBe("payload_too_large");
      // Read at most the bounded drain, never the 64 MB offered.
      expect(s.pulled()).toBeLessThanOrEqual(DRAIN_MAX_BYTES + 65_536);
    }
  });

  it("refuses a declared oversize body at once; reads and drops a small one so the sender gets the 413", async () => {
    const huge = streamed(300 * 1_048_576, 300 * 1_048_576);
    expect(await code(readBody(huge.req, { maxBytes: 64 * 1024 }))).toBe("payload_too_large");
    expect(huge.pulled()).toBeLessThanOrEqual(65_536);
    const small = streamed(1_048_576, 1_048_576);
    expect(await code(readBody(small.req, { maxBytes: 64 * 1024 }))).toBe("payload_too_large");
    expect(small.pulled()).toBe(1_048_576);
  });

  it("a consumer that stops early (its own refusal) leaves the rest drained within the bound", async () => {
    const s = streamed(64 * 1_048_576);
    const chunks = streamBody(s.req, { maxBytes: 128 * 1_048_576, drainMaxBytes: 1_048_576 });
    for await (const _ of chunks) break;
    expect(s.pulled()).toBeLessThanOrEqual(1_048_576 + 65_536);
  });
});

describe("parseMediaType / requireJsonMediaType", () => {
  it("parses type, subtype and parameters (quoted too)", () => {
    expect(parseMediaType("application/json")).toEqual({ type: "application/json", params: {} });
    expect(parseMediaType(" Application/JSON ; Charset=UTF-8")).toEqual({ type: "application/json", params: { charset: "UTF-8" } });
    expect(parseMediaType('text/plain; charset="application/json"')).toEqual({ type: "text/plain", params: { charset: "application/json" } });
    expect(parseMediaType("multipart/form-data; boundary=----x")).toEqual({ type: "multipart/form-data", params: { boundary: "----x" } });
    for (const bad of ["", "json", "/json", "application/", "application/json;", "a b/c", "application/json; =x", 'x/y; a="unterminated']) {
      expect(parseMediaType(bad), bad).toEqual(bad === "application/json;" ? { type: "application/json", params: {} } : null);
    }
  });

  it("accepts exactly application/json (UTF-8 or no charset); a substring is not enough", () => {
    const req = (type?: string) => new Request("http://x", { method: "POST", headers: type ? { "content-type": type } : {}, body: "{}" });
    for (const ok of ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON;charset=UTF-8"]) {
      expect(() => requireJsonMediaType(req(ok)), ok).not.toThrow();
    }
    for (const bad of [
      "text/plain;charset=application/json",
      "text/plain; application/json",
      "application/json-patch+json",
      "application/jsonx",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=application/json",
      "application/json; charset=latin1",
    ]) {
      let caught: unknown = null;
      try {
        requireJsonMediaType(req(bad));
      } catch (e) {
        caught = e;
      }
      expect({ bad, code: (caught as AppError | null)?.code }).toEqual({ bad, code: "unsupported_media_type" });
    }
  });
});

describe("drainBody", () => {
  it("gives up on a client that stops sending after DRAIN_MAX_MS, and cancels without waiting for the cancellation", async () => {
    vi.useFakeTimers();
    try {
      let cancelled = false;
      const stalled = new ReadableStream<Uint8Array>({
        pull: () => new Promise<void>(() => {}), // never sends more
        cancel: () => {
          cancelled = true;
          return new Promise<void>(() => {}); // a cancellation that never settles
        },
      });
      let done = false;
      const draining = drainBody(stalled.getReader(), 0).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(DRAIN_MAX_MS - 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await draining;
      expect(done).toBe(true);
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
