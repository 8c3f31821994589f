// A small HTTP proxy in front of the emulator that can rewrite JSON answers: the app sees the
// ring service as it could be (documents with unexpected nulls, missing keys, extra keys).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Rewrite = (pathname: string, body: unknown) => unknown;

export type Proxy = { url: string; close(): Promise<void> };

export async function startProxy(target: string, rewrite: Rewrite): Promise<Proxy> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers.set(k, v);
      let upstream: Response;
      try {
        upstream = await fetch(`${target}${req.url ?? "/"}`, {
          method: req.method,
          headers,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
          redirect: "manual",
        });
      } catch {
        req.socket.destroy(); // the emulator dropped the connection: so do we
        return;
      }
      let body = Buffer.from(await upstream.arrayBuffer());
      const type = upstream.headers.get("content-type") ?? "";
      if (upstream.ok && type.includes("json") && body.length > 0) {
        const url = new URL(req.url ?? "/", target);
        body = Buffer.from(JSON.stringify(rewrite(url.pathname, JSON.parse(body.toString("utf8")))));
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== "content-length" && k !== "content-encoding" && k !== "transfer-encoding") out[k] = v;
      });
      out["content-length"] = String(body.length);
      res.writeHead(upstream.status, out);
      res.end(body);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
