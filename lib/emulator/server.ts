// node:http wrapper around the emulator's fetch-style handler. "localhost" binds 127.0.0.1
// and, when available, [::1] on the same port, so clients resolving either way connect.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { resolveConfig, type EmulatorConfig } from "./config";
import { isDropResponse } from "./errors";
import { createEmulator, type Emulator, type EmulatorOptions } from "./handler";
import { logger } from "@/lib/log";

const MAX_BODY_BYTES = 1_048_576;

export type RunningEmulator = {
  url: string;
  port: number;
  config: EmulatorConfig;
  /** The in-process emulator (state, reset) for tests that want to look inside. */
  emulator: Emulator;
  close(): Promise<void>;
};

async function readBody(req: http.IncomingMessage): Promise<Buffer | "too-large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return "too-large";
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function toRequest(req: http.IncomingMessage, body: Buffer | null, fallbackHost: string): Request {
  const host = req.headers.host ?? fallbackHost;
  const url = /^https?:\/\//i.test(req.url ?? "") ? req.url! : `http://${host}${req.url ?? "/"}`;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  const method = req.method ?? "GET";
  const hasBody = body !== null && body.length > 0 && method !== "GET" && method !== "HEAD";
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

function nodeListener(emulator: Emulator, fallbackHost: string): http.RequestListener {
  return (req, res) => {
    void (async () => {
      try {
        const body = await readBody(req);
        if (body === "too-large") {
          res.writeHead(413, { "content-type": "application/json", connection: "close" });
          res.end(JSON.stringify({ detail: "Request body too large.", status: 413, title: "Payload Too Large" }));
          return;
        }
        const response = await emulator.handle(toRequest(req, body, fallbackHost));
        if (isDropResponse(response)) {
          req.socket.destroy();
          return;
        }
        const headers: Record<string, string> = {};
        response.headers.forEach((value, key) => {
          headers[key] = value;
        });
        const payload = response.body ? Buffer.from(await response.arrayBuffer()) : null;
        if (payload) headers["content-length"] = String(payload.length);
        res.writeHead(response.status, headers);
        res.end(payload ?? undefined);
      } catch (e) {
        logger.error({ err: e instanceof Error ? e.message : String(e) }, "emulator server error");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: "Internal emulator error.", status: 500, title: "Internal Server Error" }));
      }
    })();
  };
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the emulator. Settings are the defaults merged with `overrides` (environment variables are not read). */
export async function startEmulator(overrides: Partial<EmulatorConfig> = {}, options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const config = resolveConfig(overrides);
  const emulator = createEmulator(config, options);
  const servers: http.Server[] = [];
  const make = () => {
    const s = http.createServer(nodeListener(emulator, `${config.host}:${config.port}`));
    // No idle deadline: the client closes an idle connection (Node's fetch after 4 s), never the
    // emulator. A deadline is also sent as a hint (`Keep-Alive: timeout=N`) that Node's fetch
    // adopts (N − 2 s), and where the client runs in the emulator's own process (the tests) a
    // synchronous stretch across the deadline lets the client send on the idle connection before
    // the server's timer closes it with that request unread: a reset (ECONNRESET) every time.
    // Closing the server closes every connection.
    s.keepAliveTimeout = 0;
    servers.push(s);
    return s;
  };
  let port: number;
  try {
    if (config.host === "localhost") {
      port = await listen(make(), config.port, "127.0.0.1");
      const v6 = make();
      await listen(v6, port, "::1").catch(() => servers.splice(servers.indexOf(v6), 1));
    } else {
      port = await listen(make(), config.port, config.host);
    }
  } catch (e) {
    emulator.close();
    await Promise.all(servers.map(closeServer));
    throw e;
  }
  const hostForUrl = config.host.includes(":") ? `[${config.host}]` : config.host;
  emulator.setOrigin(`http://${hostForUrl}:${port}`);
  const running: RunningEmulator = {
    url: `http://${hostForUrl}:${port}`,
    port,
    config: { ...config, port },
    emulator,
    close: async () => {
      emulator.close();
      await Promise.all(servers.map(closeServer));
    },
  };
  return running;
}
