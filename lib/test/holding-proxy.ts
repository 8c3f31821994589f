// A small HTTP proxy in front of the emulator that can hold answers in flight: a matching
// request goes on to the emulator at once, and its answer waits at the proxy until the test
// releases it. A test does something (a delete, a disconnect, a member's removal) while a sync
// page or a webhook's document fetch is on its way, at a moment it chooses, with no sleep and
// no race. The proxy also sees a client give up on a held request (its connection closed before
// the answer): an aborted fetch.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Hold = {
  /** Resolves once `n` requests (default 1) are held. */
  arrived(n?: number): Promise<void>;
  /** Sends every held answer (to the clients still waiting) and lets later matching requests through. */
  release(): void;
  /** Resolves once `n` held requests (default: all held so far) were given up by their client. */
  abandoned(n?: number): Promise<void>;
  /** Requests held so far, answers delivered after the release, and requests given up by their client while held. */
  counts(): { held: number; delivered: number; abandoned: number };
};

export type HoldingProxy = {
  url: string;
  /**
   * Holds the answers of requests for exactly `path` (`/v2/usercollection/sleep`: its list
   * pages, not one of its documents, nor `sleep_time`'s): after letting the first `skip` of them
   * through (default none), the next `count` (every one until the release when not given).
   */
  hold(path: string, opts?: { count?: number; skip?: number }): Hold;
  close(): Promise<void>;
};

type Waiter = { n: () => boolean; resolve: () => void };

class HoldState implements Hold {
  held = 0;
  /** matching requests let through before the first one held */
  passed = 0;
  delivered = 0;
  gaveUp = 0;
  released = false;
  private readonly pending: Array<() => void> = [];
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly path: string,
    readonly count: number,
    readonly skip: number,
  ) {}

  /** Whether this hold takes the request (one it lets through before its first is counted here). */
  matches(pathname: string): boolean {
    if (this.released || this.held >= this.count || pathname !== this.path) return false;
    if (this.passed < this.skip) {
      this.passed++;
      return false;
    }
    return true;
  }

  /** Takes a request: `send` runs at the release, or at once when released meanwhile. */
  take(send: () => void): void {
    this.held++;
    if (this.released) send();
    else this.pending.push(send);
    this.notify();
  }

  gaveUpOne(): void {
    this.gaveUp++;
    this.notify();
  }

  private notify(): void {
    for (const w of [...this.waiters]) {
      if (!w.n()) continue;
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  private until(n: () => boolean): Promise<void> {
    if (n()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  arrived(n = 1): Promise<void> {
    return this.until(() => this.held >= n);
  }

  abandoned(n?: number): Promise<void> {
    return this.until(() => this.gaveUp >= (n ?? Math.max(1, this.held)));
  }

  release(): void {
    this.released = true;
    for (const send of this.pending.splice(0)) send();
  }

  counts() {
    return { held: this.held, delivered: this.delivered, abandoned: this.gaveUp };
  }
}

/** Starts the proxy on a free port of 127.0.0.1, in front of `target` (the emulator's URL). */
export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const holds: HoldState[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const url = new URL(req.url ?? "/", target);
      const hold = holds.find((h) => h.matches(url.pathname));
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && k !== "host" && k !== "content-length" && k !== "connection") headers.set(k, v);
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
      const body = Buffer.from(await upstream.arrayBuffer());
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== "content-length" && k !== "content-encoding" && k !== "transfer-encoding" && k !== "connection" && k !== "keep-alive") out[k] = v;
      });
      out["content-length"] = String(body.length);
      const send = () => {
        if (res.destroyed || res.writableEnded) return;
        res.writeHead(upstream.status, out);
        res.end(body);
        if (hold) hold.delivered++;
      };
      if (!hold) return send();
      // a client that closes the connection before the held answer was sent gave the request up
      res.on("close", () => {
        if (!res.writableEnded) hold.gaveUpOne();
      });
      hold.take(send);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold(path, opts = {}) {
      const h = new HoldState(path, opts.count ?? Number.POSITIVE_INFINITY, opts.skip ?? 0);
      holds.push(h);
      return h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of holds) h.release();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
