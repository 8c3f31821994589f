// Requests for tests of the body readers: a body streamed in 64 KB chunks, with or without a
// content-length, that reports how much of it the reader pulled.

export function streamedRequest(url: string, method: string, total: number, declared?: number): { req: Request; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(65_536).fill(0x78);
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled >= total) return c.close();
      const n = Math.min(chunk.byteLength, total - pulled);
      pulled += n;
      c.enqueue(chunk.subarray(0, n));
    },
  });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (declared !== undefined) headers["content-length"] = String(declared);
  return { req: new Request(url, { method, headers, body, duplex: "half" } as RequestInit), pulled: () => pulled };
}
