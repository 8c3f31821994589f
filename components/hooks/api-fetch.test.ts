import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch, withQuery } from "@/components/hooks/api-fetch";
import { normaliseSyncStatus } from "@/components/dashboard/freshness";

afterEach(() => vi.unstubAllGlobals());

describe("apiFetch", () => {
  it("turns the error envelope into an ApiError with code and status", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ error: { code: "not_found", message: "No such tag." } }), { status: 404 })),
    );
    const err = await apiFetch("/api/tags/9").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: "not_found", message: "No such tag." });
  });

  it("copes with a body that is not our envelope, and sends JSON", async () => {
    const fetchMock = vi.fn(async () => new Response("<html>bad gateway</html>", { status: 502 }));
    vi.stubGlobal("fetch", fetchMock);
    await expect(apiFetch("/api/x", { method: "PUT", json: { a: 1 } })).rejects.toMatchObject({ status: 502, code: "http_error" });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });

  it("revalidates a GET with the tag of its last answer and hands back that answer on 304", async () => {
    const body = { from: "2024-01-01", value: [1, 2] };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify(body), { status: 200, headers: { etag: 'W/"3-abc"' } }))
      .mockResolvedValueOnce(new Response(null, { status: 304, headers: { etag: 'W/"3-abc"' } }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ ...body, value: [1, 3] }), { status: 200, headers: { etag: 'W/"4-def"' } }));
    vi.stubGlobal("fetch", fetchMock);
    const url = "/api/metrics/sleep.score?from=2024-01-01&to=2024-01-02";
    const first = await apiFetch(url);
    expect(first).toEqual(body);
    const headersOf = (i: number) => (fetchMock.mock.calls[i] as unknown as [string, RequestInit])[1].headers as Record<string, string>;
    expect(headersOf(0)["if-none-match"]).toBeUndefined();
    // 304: the remembered answer, the very same object
    expect(await apiFetch(url)).toBe(first);
    expect(headersOf(1)["if-none-match"]).toBe('W/"3-abc"');
    // changed data: the new answer, and its tag next time
    expect(await apiFetch(url)).toEqual({ ...body, value: [1, 3] });
    expect(headersOf(2)["if-none-match"]).toBe('W/"3-abc"');
  });

  it("never sends a tag with a write, nor for another URL", async () => {
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200, headers: { etag: 'W/"1-x"' } }));
    vi.stubGlobal("fetch", fetchMock);
    await apiFetch("/api/notes/2024-01-01");
    await apiFetch("/api/notes/2024-01-01", { method: "PUT", json: { text: "x", tags: [] } });
    await apiFetch("/api/notes/2024-01-02");
    const headersOf = (i: number) => (fetchMock.mock.calls[i] as unknown as [string, RequestInit])[1].headers as Record<string, string>;
    expect(headersOf(1)["if-none-match"]).toBeUndefined();
    expect(headersOf(2)["if-none-match"]).toBeUndefined();
  });

  it("builds query strings without empty values", () => {
    expect(withQuery("/api/days", { metric: "sleep.score", from: "2024-01-01", to: null, x: "" })).toBe("/api/days?metric=sleep.score&from=2024-01-01");
  });
});

describe("sync status, read defensively", () => {
  it("reads the sync feature's collections list", () => {
    const s = normaliseSyncStatus({
      running: false,
      collections: [
        { collection: "daily_sleep", status: "idle", lastSuccessAt: "2024-05-01T10:00:00.000Z", newestDay: "2024-05-01", lastError: null },
        { collection: "daily_spo2", status: "not_shared" },
        "junk",
      ],
    });
    expect(s).toEqual([
      { collection: "daily_sleep", status: "idle", lastSuccessAt: "2024-05-01T10:00:00.000Z", newestDay: "2024-05-01", oldestDay: null, lastError: null },
      { collection: "daily_spo2", status: "not_shared", lastSuccessAt: null, newestDay: null, oldestDay: null, lastError: null },
    ]);
  });

  it("accepts a map keyed by collection and ignores anything else", () => {
    expect(normaliseSyncStatus({ collections: { sleep: { status: "error", lastError: "boom" } } })[0]).toMatchObject({
      collection: "sleep",
      status: "error",
      lastError: "boom",
    });
    expect(normaliseSyncStatus(null)).toEqual([]);
    expect(normaliseSyncStatus("nope")).toEqual([]);
  });
});
