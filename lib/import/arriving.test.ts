// The upload's reader (lib/import/spool.ts arriving): a refusal part-way waits for the body's own
// bounded drain before it goes on, so the answer leaves only after the rest was read; a body that
// never settles holds it at most a little longer than the drain's bound.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DRAIN_MAX_MS } from "@/lib/http/body";
import { arriving } from "@/lib/import/spool";

const never = new AbortController().signal;

afterEach(() => {
  vi.useRealTimers();
});

async function readFirstChunk(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of arriving(body, never, never)) {
    expect(chunk.byteLength).toBe(1);
    break; // the import refused after its first chunk
  }
}

describe("arriving", () => {
  it("a refusal part-way returns only once the body dropped the rest of itself", async () => {
    let drained = false;
    async function* body() {
      try {
        yield new Uint8Array(1);
        yield new Uint8Array(1);
      } finally {
        await new Promise((r) => setTimeout(r, 20));
        drained = true;
      }
    }
    await readFirstChunk(body());
    expect(drained).toBe(true);
  });

  it("a body whose end never settles holds the refusal no longer than the drain's bound and a second", async () => {
    vi.useFakeTimers();
    async function* body() {
      try {
        yield new Uint8Array(1);
      } finally {
        await new Promise(() => undefined);
      }
    }
    let done = false;
    const reading = readFirstChunk(body()).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(DRAIN_MAX_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await reading;
    expect(done).toBe(true);
  });
});
