// The three channel senders against real receivers on localhost (lib/test/alert-receivers.ts):
// an HTTP server speaking ntfy's publish API, a webhook receiver checking the signature as the
// README says, and a real SMTP server. Plus the careful POST: no redirects, capped answers,
// bounded time.
import { clock as suiteClock } from "@/lib/clock";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNtfySender, ntfyPublishTarget } from "@/lib/alerts/channels/ntfy";
import { addressPolicy, isAllowedAddress, isAllowedLiteral } from "@/lib/alerts/channels/address";
import { createWebhookSender, signWebhookPayload } from "@/lib/alerts/channels/webhook";
import { createEmailSender } from "@/lib/alerts/channels/email";
import { postToReceiver, MAX_RESPONSE_BYTES } from "@/lib/alerts/channels/http";
import type { OutgoingMessage } from "@/lib/alerts/channels/types";
import {
  startNtfyReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  type NtfyReceiver,
  type SmtpReceiver,
  type WebhookReceiver,
} from "@/lib/test/alert-receivers";

/** The receivers below listen on 127.0.0.1: allowed here as an owner would allow ntfy on the LAN. */
const LOOPBACK = addressPolicy(["127.0.0.1"]);
const sendNtfy = createNtfySender(LOOPBACK);

const message: OutgoingMessage = {
  purpose: "alert",
  id: "episode-7",
  rule: "metric_out_of_range",
  key: "low",
  startedAt: "2026-11-20T07:00:00.000Z",
  title: "Readiness score below your usual range — 3 days",
  body: "Readiness score has been below your usual range for 3 days in a row (Wed 18 Nov – Fri 20 Nov). Grüße ✓",
  link: "https://ringside.example/trends?m=readiness.score&range=30d",
  data: { metric: "readiness.score", side: "below", days: 3 },
};

async function server(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

describe("ntfy", () => {
  let open: NtfyReceiver;
  let locked: NtfyReceiver;
  beforeAll(async () => {
    open = await startNtfyReceiver();
    locked = await startNtfyReceiver({ token: "tk_secret0123456789" });
  });
  afterAll(async () => {
    await open.close();
    await locked.close();
  });

  it("publishes title, text, tags, priority and click as JSON to the server's root, in UTF-8", async () => {
    const result = await sendNtfy({ kind: "ntfy", url: open.topicUrl("my-ringside"), token: null }, message);
    expect(result).toEqual({ ok: true });
    expect(open.messages).toHaveLength(1);
    expect(open.messages[0]).toMatchObject({
      form: "json",
      topic: "my-ringside",
      title: message.title,
      message: message.body,
      tags: ["warning"],
      priority: 4,
      click: message.link,
      authorization: null,
    });
  });

  it("sends the access token as a bearer token; a wrong one is refused for good (not retried)", async () => {
    expect(await sendNtfy({ kind: "ntfy", url: locked.topicUrl("private"), token: "tk_secret0123456789" }, message)).toEqual({ ok: true });
    expect(locked.messages.at(-1)?.authorization).toBe("Bearer tk_secret0123456789");
    const wrong = await sendNtfy({ kind: "ntfy", url: locked.topicUrl("private"), token: "tk_wrong" }, message);
    expect(wrong).toEqual({ ok: false, retry: false, error: "the server answered HTTP 401" });
    expect(locked.messages).toHaveLength(1);
  });

  it("a server error or a 429 is worth retrying", async () => {
    open.failWith = (n) => (n % 2 === 0 ? 503 : 429);
    const before = open.attempts;
    const a = await sendNtfy({ kind: "ntfy", url: open.topicUrl("t1"), token: null }, message);
    const b = await sendNtfy({ kind: "ntfy", url: open.topicUrl("t1"), token: null }, message);
    open.failWith = null;
    expect(open.attempts - before).toBe(2);
    expect([a, b]).toEqual(
      expect.arrayContaining([
        { ok: false, retry: true, error: "the server answered HTTP 503" },
        { ok: false, retry: true, error: "the server answered HTTP 429" },
      ]),
    );
  });

  it("finds the root of a server behind a path prefix, and refuses a URL without a topic", () => {
    expect(ntfyPublishTarget("https://example.com/ntfy/alerts")).toEqual({ endpoint: "https://example.com/ntfy/", topic: "alerts" });
    expect(ntfyPublishTarget("https://ntfy.sh/my_topic-1")).toEqual({ endpoint: "https://ntfy.sh/", topic: "my_topic-1" });
    expect(ntfyPublishTarget("https://ntfy.sh/")).toBeNull();
    expect(ntfyPublishTarget("https://ntfy.sh/a b")).toBeNull();
    expect(ntfyPublishTarget("https://ntfy.sh/topic?x=1")).toBeNull();
  });
});

describe("webhook", () => {
  let rx: WebhookReceiver;
  beforeAll(async () => {
    rx = await startWebhookReceiver();
    rx.secret = "hook-secret-for-tests-0123456789abcdef";
  });
  afterAll(() => rx.close());

  it("posts JSON signed with HMAC-SHA256 over timestamp.body; the receiver verifies it", async () => {
    const send = createWebhookSender(() => suiteClock.now(), LOOPBACK);
    expect(await send({ kind: "webhook", url: rx.url, secret: rx.secret! }, message)).toEqual({ ok: true });
    const call = rx.calls.at(-1)!;
    expect(call.verified).toBe(true);
    expect(call.event).toBe("episode-7");
    expect(call.body).toEqual({
      type: "alert",
      id: "episode-7",
      rule: "metric_out_of_range",
      key: "low",
      title: message.title,
      message: message.body,
      link: message.link,
      started_at: message.startedAt,
      data: message.data,
    });
    expect(call.timestamp && Math.abs(Number(call.timestamp) - suiteClock.now() / 1000)).toBeLessThan(5);
  });

  it("the signature is the documented one (a script can recompute it)", () => {
    // computed independently: python3 -c "import hmac,hashlib; print(hmac.new(b's3cret', b'1700000000.{\"a\":1}', hashlib.sha256).hexdigest())"
    expect(signWebhookPayload("s3cret", "1700000000", '{"a":1}')).toBe("sha256=1698a50bc74d1ff1db85c4e0a5297c2ad9fdba245d5737cdb789e4cc6e098940");
  });

  it("a receiver with another secret, or a stale timestamp, does not accept it (401, not retried)", async () => {
    const wrong = await createWebhookSender(Date.now, LOOPBACK)({ kind: "webhook", url: rx.url, secret: "not-the-secret" }, message);
    expect(wrong).toEqual({ ok: false, retry: false, error: "the server answered HTTP 401" });
    const stale = await createWebhookSender(() => suiteClock.now() - 3_600_000, LOOPBACK)({ kind: "webhook", url: rx.url, secret: rx.secret! }, message);
    expect(stale.ok).toBe(false);
    expect(rx.calls.slice(-2).map((c) => c.verified)).toEqual([false, false]);
  });

  it("the body is the same on every attempt; the timestamp is made per attempt", async () => {
    let clock = 1_800_000_000_000;
    const local = await startWebhookReceiver({ now: () => clock });
    local.secret = "per-attempt";
    local.failWith = (n) => (n === 1 ? 502 : null);
    try {
      const send = createWebhookSender(() => clock, LOOPBACK);
      const first = await send({ kind: "webhook", url: local.url, secret: "per-attempt" }, message);
      expect(first).toEqual({ ok: false, retry: true, error: "the server answered HTTP 502" });
      clock += 30_000;
      expect(await send({ kind: "webhook", url: local.url, secret: "per-attempt" }, message)).toEqual({ ok: true });
      expect(local.verified()).toHaveLength(1);
      expect(local.verified()[0]!.timestamp).toBe(String(Math.floor(clock / 1000)));
      expect(JSON.parse(local.verified()[0]!.raw)).toEqual(JSON.parse((await import("@/lib/alerts/channels/webhook")).webhookBody(message)));
    } finally {
      await local.close();
    }
  });
});

describe("careful POST", () => {
  it("never follows a redirect (the signed body and token stay where the person sent them)", async () => {
    let reached = 0;
    const elsewhere = await server((_req, res) => {
      reached++;
      res.writeHead(200).end();
    });
    const mover = await server((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/stolen` }).end());
    try {
      const r = await postToReceiver(`${mover.url}/hook`, { headers: { authorization: "Bearer tk_x" }, body: "{}" }, LOOPBACK);
      expect(r).toEqual({ ok: false, retry: false, error: "the server answered with a redirect (HTTP 307); enter the address it points to" });
      expect(reached).toBe(0);
    } finally {
      await mover.close();
      await elsewhere.close();
    }
  });

  it("reads at most a few KB of an answer and stops the rest", async () => {
    let written = 0;
    let markClosed: (early: boolean) => void = () => undefined;
    const closed = new Promise<boolean>((resolve) => (markClosed = resolve));
    const big = await server((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => markClosed(!res.writableFinished));
      pump();
    });
    try {
      const r = await postToReceiver(`${big.url}/x`, { headers: {}, body: "{}" }, LOOPBACK);
      expect(r).toEqual({ ok: false, retry: true, error: "the server answered HTTP 500" });
      expect(await closed).toBe(true); // the connection was dropped before the answer was all sent
      expect(written).toBeLessThan(50 * 1024 * 1024);
      expect(MAX_RESPONSE_BYTES).toBeLessThanOrEqual(4096);
    } finally {
      await big.close();
    }
  });

  it("gives up after its time limit (retried later), and refuses what is not http(s)", async () => {
    const silent = await server(() => {
      /* never answers */
    });
    try {
      expect(await postToReceiver(`${silent.url}/x`, { headers: {}, body: "{}", timeoutMs: 300 }, LOOPBACK)).toEqual({
        ok: false,
        retry: true,
        error: "no answer within 300 ms",
      });
    } finally {
      await silent.close();
    }
    expect(await postToReceiver("file:///etc/passwd", { headers: {}, body: "" }, LOOPBACK)).toEqual({
      ok: false,
      retry: false,
      error: "only http and https addresses can be used",
    });
    const gone = await server(() => undefined);
    const goneUrl = gone.url;
    await gone.close();
    const refused = await postToReceiver(`${goneUrl}/x`, { headers: {}, body: "" }, LOOPBACK);
    expect(refused).toEqual({ ok: false, retry: true, error: "connection refused" });
  });
});

describe("internal addresses (the audit: channels reached loopback, link-local and the LAN)", () => {
  it("five spellings of loopback, a name of this machine and the link-local metadata address reach nothing, and say why", async () => {
    let reached = 0;
    const listener = await server((_req, res) => {
      reached++;
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "inside secret" }));
    });
    const port = new URL(listener.url).port;
    try {
      const spellings = [
        `127.0.0.1:${port}`,
        `[::1]:${port}`,
        `localhost:${port}`,
        `0x7f000001:${port}`,
        `[::ffff:127.0.0.1]:${port}`,
        `127.1:${port}`,
        "169.254.169.254",
        "10.0.0.1",
        "[fd00::1]",
        "[fe80::1]",
      ];
      for (const host of spellings) {
        const webhook = await createWebhookSender()({ kind: "webhook", url: `http://${host}/hook`, secret: "s" }, message);
        const ntfy = await createNtfySender()({ kind: "ntfy", url: `http://${host}/topic`, token: "tk_chosen" }, message);
        for (const r of [webhook, ntfy]) expect(r, host).toEqual({ ok: false, retry: false, error: expect.stringContaining("ALERT_ALLOWED_PRIVATE_HOSTS") });
      }
      expect(reached).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it("checks the address connected to, not the name: a name resolving to loopback is refused at connect time", async () => {
    let reached = 0;
    const listener = await server((_req, res) => {
      reached++;
      res.writeHead(200).end();
    });
    try {
      // allowed as a literal (a name passes the first check), refused by the lookup of the connection
      const url = listener.url.replace("127.0.0.1", "localhost");
      expect(isAllowedLiteral(new URL(url), addressPolicy())).toBe(true);
      expect(await postToReceiver(url, { headers: {}, body: "{}" })).toMatchObject({ ok: false, retry: false });
      expect(reached).toBe(0);
      // the owner's allow-list by name, by address and by range lets it through
      for (const allow of [["localhost"], ["127.0.0.1"], ["127.0.0.0/8", "::1"]]) {
        expect(await postToReceiver(url, { headers: {}, body: "{}" }, addressPolicy(allow))).toEqual({ ok: true });
      }
      expect(reached).toBe(3);
    } finally {
      await listener.close();
    }
  });

  it("judges each address: public unicast yes; loopback, private, link-local, unique-local, CGNAT, mapped and embedded forms no", () => {
    const none = addressPolicy();
    for (const a of ["93.184.215.14", "2606:4700::6810:85e5", "8.8.8.8"]) expect(isAllowedAddress(a, "x", none), a).toBe(true);
    for (const a of [
      "127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.20",
      "169.254.169.254",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "100.64.0.1",
      "0.0.0.0",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:192.168.1.1",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "224.0.0.1",
      "255.255.255.255",
    ]) {
      expect(isAllowedAddress(a, "x", none), a).toBe(false);
    }
    const lan = addressPolicy(["192.168.1.0/24", "ntfy.lan", "[fd00::5]"]);
    expect(isAllowedAddress("192.168.1.20", "x", lan)).toBe(true);
    expect(isAllowedAddress("::ffff:192.168.1.20", "x", lan)).toBe(true);
    expect(isAllowedAddress("192.168.2.20", "x", lan)).toBe(false);
    expect(isAllowedAddress("10.0.0.9", "ntfy.lan", lan)).toBe(true);
    expect(isAllowedAddress("fd00::5", "x", lan)).toBe(true);
    expect(isAllowedAddress("fd00::6", "x", lan)).toBe(false);
  });

  it("the IPv4-compatible form ::a.b.c.d is judged as the IPv4 address it embeds (it counted as public)", () => {
    const none = addressPolicy();
    for (const a of ["::127.0.0.1", "::7f00:1", "::10.0.0.1", "::192.168.1.20", "::169.254.169.254", "::0.0.0.2"])
      expect(isAllowedAddress(a, "x", none), a).toBe(false);
    expect(isAllowedAddress("::8.8.8.8", "x", none)).toBe(true);
    // (the URL parser writes [::127.0.0.1] as [::7f00:1])
    expect(new URL("http://[::127.0.0.1]:3000/hook").hostname).toBe("[::7f00:1]");
    expect(isAllowedLiteral(new URL("http://[::127.0.0.1]:3000/hook"), none)).toBe(false);
    expect(isAllowedAddress("::192.168.1.20", "x", addressPolicy(["192.168.1.0/24"]))).toBe(true);
  });

  it("a failure text carries the status only, never what the receiver answered", async () => {
    const talker = await server((_req, res) =>
      res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: "db password is hunter2", message: "x" })),
    );
    try {
      expect(await postToReceiver(`${talker.url}/x`, { headers: {}, body: "{}" }, LOOPBACK)).toEqual({
        ok: false,
        retry: false,
        error: "the server answered HTTP 403",
      });
    } finally {
      await talker.close();
    }
  });
});

describe("e-mail", () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver({ user: "ringside", password: "mail-pass" });
  });
  afterAll(() => smtp.close());
  const config = () => ({
    host: "127.0.0.1",
    port: smtp.port,
    secure: "none" as const,
    user: "ringside",
    password: "mail-pass",
    from: "Ringside <alerts@ringside.test>",
  });

  it("sends a plain-text mail through the instance's SMTP server to the person's address", async () => {
    const send = createEmailSender(config());
    expect(await send({ kind: "email", recipient: "person@example.test" }, message)).toEqual({ ok: true });
    const mail = smtp.mails.at(-1)!;
    expect(mail.from).toBe("alerts@ringside.test");
    expect(mail.to).toEqual(["person@example.test"]);
    expect(mail.subject).toBe(message.title);
    expect(mail.text.trim()).toBe(message.body);
    expect(mail.headers["x-ringside-event"]).toBe("episode-7");
    expect(mail.authUser).toBe("ringside");
  });

  it("a temporary refusal is retried, a permanent one and a wrong password are not", async () => {
    const send = createEmailSender(config());
    smtp.failWith = () => 451;
    const later = await send({ kind: "email", recipient: "person@example.test" }, message);
    smtp.failWith = () => 550;
    const never = await send({ kind: "email", recipient: "person@example.test" }, message);
    smtp.failWith = null;
    expect(later).toMatchObject({ ok: false, retry: true });
    expect(later.ok === false && later.error).toMatch(/^the mail server answered 451/);
    expect(never).toMatchObject({ ok: false, retry: false });
    const badAuth = await createEmailSender({ ...config(), password: "wrong" })({ kind: "email", recipient: "person@example.test" }, message);
    expect(badAuth).toEqual({ ok: false, retry: false, error: "the mail server refused SMTP_USER / SMTP_PASSWORD" });
  });

  it("says so when e-mail is not configured, and retries when the server is down", async () => {
    expect(await createEmailSender(null)({ kind: "email", recipient: "a@b.test" }, message)).toEqual({
      ok: false,
      retry: false,
      error: "e-mail is not set up on this Ringside (SMTP_HOST and SMTP_FROM)",
    });
    const down = await createEmailSender({ ...config(), port: 1 })({ kind: "email", recipient: "a@b.test" }, message);
    expect(down).toMatchObject({ ok: false, retry: true });
  });
});
