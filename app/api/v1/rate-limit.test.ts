// Per-token rate limits on the read API and the MCP endpoint (API_RATE_LIMIT=3 here): the
// fourth request within the burst gets 429 with Retry-After and the error envelope; another
// token is not affected.
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.API_RATE_LIMIT = "3";
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let a = "";
let b = "";

beforeAll(async () => {
  const { seedPerson } = await import("@/lib/test/people");
  await seedPerson({ userId: "u-rl", seed: "rl", from: "2024-06-01", to: "2024-06-30" });
  const { createApiToken } = await import("@/lib/services/api-tokens");
  a = (await createApiToken("u-rl", { name: "a", kinds: ["daily_sleep", "notes"] })).token;
  b = (await createApiToken("u-rl", { name: "b", kinds: ["daily_sleep"] })).token;
});

const get = async (token: string) => {
  const { GET } = await import("@/app/api/v1/metrics/route");
  return (GET as Handler)(new Request("http://localhost/api/v1/metrics", { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({}) });
};

describe("rate limits", () => {
  it("429 with Retry-After and the envelope once a token's burst is spent; other tokens unaffected", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await get(a);
      statuses.push(r.status);
      expect(r.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
    }
    const limited = await get(a);
    expect([...statuses, limited.status]).toEqual([200, 200, 200, 429]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(20);
    expect(await limited.json()).toEqual({
      error: { code: "rate_limited", message: expect.stringMatching(/Too many requests with this token: try again in \d+ s\./) },
    });
    expect((await get(b)).status).toBe(200);
  });

  it("the MCP endpoint counts against the same bucket", async () => {
    const { POST } = await import("@/app/api/mcp/route");
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const post = () =>
      (POST as unknown as Handler)(
        new Request("http://localhost/api/mcp", {
          method: "POST",
          headers: { authorization: `Bearer ${b}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify(init),
        }),
        { params: Promise.resolve({}) },
      );
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await limited.json()).error.code).toBe("rate_limited");
  });
});
