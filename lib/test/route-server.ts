// The app's route handlers (app/**/route.ts under the given folders) behind a real HTTP server
// in the test process, routed the way Next routes them ([param] segments, static segments
// first): for clients that need an address, such as `npm run mcp`'s stdio process or the MCP
// SDK's HTTP client. Requests and answers are the handlers' own Request and Response.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Route = { pattern: RegExp; names: string[]; statics: number; module: Record<string, unknown> };

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? routeFiles(p) : d.name === "route.ts" ? [p] : [];
  });
}

export type RouteServer = { url: string; close(): Promise<void>; requests: number };

export async function serveRoutes(folders: string[]): Promise<RouteServer> {
  const routes: Route[] = [];
  for (const folder of folders) {
    for (const file of routeFiles(path.resolve(folder))) {
      const segments = path.relative(path.resolve("app"), path.dirname(file)).split(path.sep);
      const names: string[] = [];
      const re = segments.map((s) => {
        const m = /^\[(\w+)\]$/.exec(s);
        if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(m[1]!);
        return "([^/]+)";
      });
      routes.push({ pattern: new RegExp(`^/${re.join("/")}$`), names, statics: segments.length - names.length, module: await import(file) });
    }
  }
  routes.sort((a, b) => b.statics - a.statics);
  const state = { requests: 0 };
  const server = http.createServer(async (req, res) => {
    state.requests++;
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = routes.find((r) => r.pattern.test(url.pathname));
    const handler = route?.module[req.method ?? "GET"] as Handler | undefined;
    if (!route || !handler) {
      res.writeHead(route ? 405 : 404).end();
      return;
    }
    const m = route.pattern.exec(url.pathname)!;
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(`http://localhost:${(server.address() as { port: number }).port}${req.url}`, {
      method: req.method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
    } as RequestInit);
    const answer = await handler(request, { params: Promise.resolve(params) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
