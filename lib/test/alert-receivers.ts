// Test support, never imported by the app: real receivers on localhost for the three alert
// channels, used by the unit, integration and Playwright tests.
//   - an HTTP server speaking ntfy's publish API (POST/PUT /<topic> with text and headers, or
//     POST / with JSON), optionally requiring an access token;
//   - a webhook receiver that checks Ringside's signature the way the README tells people to;
//   - a real SMTP server (smtp-server), each mail parsed with mailparser.
// Only node: modules and relative imports, so Playwright specs can import it as well.
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

async function readBody(req: http.IncomingMessage, cap: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > cap) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** Decides each request's fate before it is taken in: a status to fail with, or null to accept. */
export type FailurePlan = (attempt: number) => number | null;

// -----------------------------------------------------------------------------------------
// ntfy
// -----------------------------------------------------------------------------------------

export type NtfyMessage = {
  topic: string;
  title: string | null;
  message: string;
  tags: string[];
  priority: number | null;
  click: string | null;
  authorization: string | null;
  /** "json" (POST / with JSON) or "text" (POST /<topic>) */
  form: "json" | "text";
};

export type NtfyReceiver = {
  url: string;
  /** the topic URL a person would enter */
  topicUrl(topic: string): string;
  messages: NtfyMessage[];
  /** requests seen, accepted or not */
  attempts: number;
  failWith: FailurePlan | null;
  close(): Promise<void>;
};

const TOPIC_RE = /^[-_A-Za-z0-9]{1,64}$/;
/** ntfy's default message size limit */
const NTFY_MESSAGE_LIMIT = 4096;

export async function startNtfyReceiver(opts: { port?: number; token?: string } = {}): Promise<NtfyReceiver> {
  const r: NtfyReceiver = {
    url: "",
    topicUrl: (topic) => `${r.url}/${topic}`,
    messages: [],
    attempts: 0,
    failWith: null,
    close: () => closeServer(server),
  };
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    r.attempts++;
    if (req.method !== "POST" && req.method !== "PUT") return answer(res, 405, { code: 40500, http: 405, error: "method not allowed" });
    const failure = r.failWith?.(r.attempts) ?? null;
    if (failure) return answer(res, failure, { code: failure * 100, http: failure, error: "failing on purpose" });
    const auth = req.headers.authorization ?? null;
    if (opts.token && auth !== `Bearer ${opts.token}`) return answer(res, 401, { code: 40101, http: 401, error: "unauthorized" });
    const body = await readBody(req, 64 * 1024);
    if (body === null) return answer(res, 413, { code: 41301, http: 413, error: "too large" });
    const path = new URL(req.url ?? "/", "http://x").pathname;
    let msg: NtfyMessage;
    if (path === "/") {
      let j: Record<string, unknown>;
      try {
        j = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return answer(res, 400, { code: 40024, http: 400, error: "invalid request: request body must be message JSON" });
      }
      if (typeof j.topic !== "string" || !TOPIC_RE.test(j.topic)) return answer(res, 400, { code: 40009, http: 400, error: "invalid topic" });
      msg = {
        topic: j.topic,
        title: typeof j.title === "string" ? j.title : null,
        message: typeof j.message === "string" ? j.message : "triggered",
        tags: Array.isArray(j.tags) ? j.tags.map(String) : [],
        priority: typeof j.priority === "number" ? j.priority : null,
        click: typeof j.click === "string" ? j.click : null,
        authorization: auth,
        form: "json",
      };
    } else {
      const topic = path.slice(1);
      if (!TOPIC_RE.test(topic)) return answer(res, 404, { code: 40401, http: 404, error: "page not found" });
      const h = (name: string) => (req.headers[name] as string | undefined) ?? null;
      msg = {
        topic,
        title: h("x-title") ?? h("title") ?? h("t"),
        message: body || "triggered",
        tags: (h("x-tags") ?? h("tags") ?? "").split(",").filter(Boolean),
        priority: (h("x-priority") ?? h("priority")) ? Number(h("x-priority") ?? h("priority")) : null,
        click: h("x-click") ?? h("click"),
        authorization: auth,
        form: "text",
      };
    }
    if (Buffer.byteLength(msg.message) > NTFY_MESSAGE_LIMIT) return answer(res, 413, { code: 41301, http: 413, error: "message too large" });
    r.messages.push(msg);
    answer(res, 200, {
      id: crypto.randomBytes(6).toString("hex"),
      time: Math.floor(clock.now() / 1000),
      event: "message",
      topic: msg.topic,
      message: msg.message,
      title: msg.title,
    });
  });
  const port = await listen(server, opts.port ?? 0);
  r.url = `http://127.0.0.1:${port}`;
  return r;
}

// -----------------------------------------------------------------------------------------
// Webhook
// -----------------------------------------------------------------------------------------

export type WebhookCall = {
  /** the signature checked out (timestamp fresh, HMAC right) */
  verified: boolean;
  event: string | null;
  timestamp: string | null;
  body: Record<string, unknown>;
  raw: string;
};

export type WebhookReceiver = {
  url: string;
  calls: WebhookCall[];
  /** only the verified calls */
  verified(): WebhookCall[];
  /** the secret the receiver checks with (the one Ringside showed once) */
  secret: string | null;
  attempts: number;
  failWith: FailurePlan | null;
  close(): Promise<void>;
};

/**
 * A receiver as the README describes it: reject a timestamp more than 5 minutes off, recompute
 * "sha256=" + hex(HMAC-SHA256(secret, timestamp + "." + body)) and compare in constant time.
 * Unverified calls are answered 401 (and recorded, so a test can see them).
 */
export async function startWebhookReceiver(opts: { port?: number; path?: string; now?: () => number } = {}): Promise<WebhookReceiver> {
  const now = opts.now ?? (() => clock.now());
  const path = opts.path ?? "/hooks/ringside";
  const r: WebhookReceiver = {
    url: "",
    calls: [],
    verified: () => r.calls.filter((c) => c.verified),
    secret: null,
    attempts: 0,
    failWith: null,
    close: () => closeServer(server),
  };
  const server = http.createServer(async (req, res) => {
    r.attempts++;
    const failure = r.failWith?.(r.attempts) ?? null;
    if (failure) {
      res.writeHead(failure).end();
      return;
    }
    if (req.method !== "POST" || new URL(req.url ?? "/", "http://x").pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    const raw = (await readBody(req, 256 * 1024)) ?? "";
    const timestamp = (req.headers["x-ringside-timestamp"] as string | undefined) ?? null;
    const signature = (req.headers["x-ringside-signature"] as string | undefined) ?? null;
    let verified = false;
    if (r.secret && timestamp && signature && /^\d+$/.test(timestamp) && Math.abs(now() / 1000 - Number(timestamp)) <= 300) {
      const expected = Buffer.from(`sha256=${crypto.createHmac("sha256", r.secret).update(`${timestamp}.${raw}`).digest("hex")}`);
      const given = Buffer.from(signature);
      verified = expected.length === given.length && crypto.timingSafeEqual(expected, given);
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      verified = false;
    }
    r.calls.push({ verified, event: (req.headers["x-ringside-event"] as string | undefined) ?? null, timestamp, body, raw });
    res.writeHead(verified ? 204 : 401).end();
  });
  const port = await listen(server, opts.port ?? 0);
  r.url = `http://127.0.0.1:${port}${path}`;
  return r;
}

// -----------------------------------------------------------------------------------------
// SMTP
// -----------------------------------------------------------------------------------------

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; headers: Record<string, string>; authUser: string | null };

export type SmtpReceiver = {
  port: number;
  mails: ReceivedMail[];
  /** transactions seen (MAIL FROM), accepted or not */
  attempts: number;
  /** answer the next mails with this SMTP error code (e.g. 451: try later, 550: refused) */
  failWith: FailurePlan | null;
  close(): Promise<void>;
};

/** A real SMTP server without TLS (Ringside connects with SMTP_SECURE=none), optionally with AUTH. */
export async function startSmtpReceiver(opts: { port?: number; user?: string; password?: string } = {}): Promise<SmtpReceiver> {
  const r: SmtpReceiver = { port: 0, mails: [], attempts: 0, failWith: null, close: async () => undefined };
  const server = new SMTPServer({
    logger: false,
    secure: false,
    hideSTARTTLS: true,
    authOptional: !opts.user,
    allowInsecureAuth: true,
    disabledCommands: opts.user ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    size: 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.user && auth.password === opts.password) return callback(null, { user: auth.username });
      return callback(new Error("Invalid username or password"));
    },
    onMailFrom(_address, _session, callback) {
      r.attempts++;
      const failure = r.failWith?.(r.attempts) ?? null;
      if (failure) {
        const err = new Error(failure >= 500 ? "Refused on purpose" : "Try again later") as Error & { responseCode: number };
        err.responseCode = failure;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const headers: Record<string, string> = {};
          for (const [k, v] of mail.headers) headers[k] = typeof v === "string" ? v : JSON.stringify(v);
          r.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((a) => a.address),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            headers,
            authUser: (session.user as string | undefined) ?? null,
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  r.port = (server.server.address() as AddressInfo).port;
  r.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return r;
}
