// Settings → Alerts on the real database, for what the security audit found: a member pointing
// a channel at the server's own network, "Send a test" as a port scanner, and (e-mail) a
// member making the owner's mail server write to anyone. The receivers listen on 127.0.0.1,
// which this file allows as an owner would allow ntfy on the LAN.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { sqlRun } from "@/lib/test/sql";
import { startNtfyReceiver, startSmtpReceiver, type NtfyReceiver, type SmtpReceiver } from "@/lib/test/alert-receivers";
import { ALERT_LIMITS } from "@/lib/alerts/catalog";

process.env.ALERT_ALLOWED_PRIVATE_HOSTS = "127.0.0.1";

const clock = new ManualClock(Date.parse("2026-11-23T10:00:00Z"));
let service: typeof import("@/lib/services/alerts");
let ntfy: NtfyReceiver;
let smtp: SmtpReceiver;

async function person(id: string): Promise<string> {
  const now = new Date(clock.now()).toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
    id,
    `${id}@example.test`,
    now,
    now,
  );
  return id;
}

beforeAll(async () => {
  setClock(clock);
  smtp = await startSmtpReceiver();
  Object.assign(process.env, { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_SECURE: "none", SMTP_FROM: "Ringside <alerts@ringside.test>" });
  service = await import("@/lib/services/alerts");
  ntfy = await startNtfyReceiver();
});

afterAll(async () => {
  setClock(undefined);
  await ntfy?.close();
  await smtp?.close();
});

describe("channels may not point at the server's own network", () => {
  it("loopback, link-local, private and unique-local addresses are refused when the channel is added", async () => {
    const id = await person("net-member");
    for (const url of [
      "http://[::1]:3000/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/hook",
      "http://0x7f000002/hook",
      "http://[fd00::1]/topic",
      "http://[::ffff:127.0.0.2]/x",
    ]) {
      await expect(service.addAlertChannel(id, { kind: "webhook", url }), url).rejects.toMatchObject({
        code: "unprocessable_entity",
        message: expect.stringContaining("ALERT_ALLOWED_PRIVATE_HOSTS"),
      });
    }
    // a public name, and what the owner allowed, are fine
    await expect(service.addAlertChannel(id, { kind: "webhook", url: "https://hooks.example.test/ringside" })).resolves.toMatchObject({
      id: expect.any(String),
    });
    await expect(service.addAlertChannel(id, { kind: "ntfy", url: ntfy.topicUrl("allowed") })).resolves.toMatchObject({ id: expect.any(String) });
  });
});

describe("Send a test is throttled per person", () => {
  it(`${ALERT_LIMITS.sendsBurst} at once, then one every ${ALERT_LIMITS.sendsRefillMinutes} min; another person is not held up`, async () => {
    const a = await person("test-a");
    const b = await person("test-b");
    const ca = await service.addAlertChannel(a, { kind: "ntfy", url: ntfy.topicUrl("topic-a") });
    const cb = await service.addAlertChannel(b, { kind: "ntfy", url: ntfy.topicUrl("topic-b") });
    for (let i = 0; i < ALERT_LIMITS.sendsBurst; i++) expect(await service.sendAlertTest(a, ca.id, null)).toEqual({ ok: true });
    await expect(service.sendAlertTest(a, ca.id, null)).rejects.toMatchObject({ code: "rate_limited" });
    expect(await service.sendAlertTest(b, cb.id, null)).toEqual({ ok: true });
    expect(ntfy.messages.filter((m) => m.topic === "topic-a")).toHaveLength(ALERT_LIMITS.sendsBurst);
    await clock.advance(ALERT_LIMITS.sendsRefillMinutes * 60_000);
    expect(await service.sendAlertTest(a, ca.id, null)).toEqual({ ok: true });
    await expect(service.sendAlertTest(a, ca.id, null)).rejects.toMatchObject({ code: "rate_limited" });
  });
});

describe("an e-mail address is confirmed by the code sent to it before anything else goes there", () => {
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

  it("the address gets its code and nothing else; a wrong code is refused; the right one confirms it; then tests and alerts go", async () => {
    const id = await person("mail-a");
    const { id: channelId, confirmation } = await service.addAlertChannel(id, { kind: "email", recipient: "third.party@example.test" });
    expect(confirmation).toEqual({ ok: true });
    expect(mailsTo("third.party@example.test")).toHaveLength(1);
    const first = mailsTo("third.party@example.test")[0]!;
    expect(first.subject).toMatch(/confirmation code/);
    expect(first.text).toMatch(/ignore this message/);
    const code = codeIn(first.text);
    expect(code).toMatch(/^\d{6}$/);
    // unconfirmed: no test, no alert, no digest (the worker's channels leave it out)
    await expect(service.sendAlertTest(id, channelId, null)).rejects.toMatchObject({ code: "unprocessable_entity" });
    expect((await service.getAlertsOverview(id)).channels[0]).toMatchObject({ confirmed: false });
    expect((await service.dbAlertStore.listChannels(id)).map((c) => c.confirmed)).toEqual([false]);
    const wrong = code === "000000" ? "111111" : "000000";
    await expect(service.confirmAlertChannel(id, channelId, wrong)).rejects.toMatchObject({ message: "That is not the code sent to this address." });
    await expect(service.confirmAlertChannel(id, channelId, "12ab")).rejects.toMatchObject({ code: "unprocessable_entity" });
    // another person cannot confirm it
    const other = await person("mail-other");
    await expect(service.confirmAlertChannel(other, channelId, code)).rejects.toMatchObject({ code: "not_found" });
    await service.confirmAlertChannel(id, channelId, code);
    expect((await service.getAlertsOverview(id)).channels[0]).toMatchObject({ confirmed: true });
    expect(await service.sendAlertTest(id, channelId, null)).toEqual({ ok: true });
    expect(mailsTo("third.party@example.test")).toHaveLength(2);
  });

  it(`a code allows ${5} wrong tries and holds 24 hours; a new code starts again`, async () => {
    const id = await person("mail-b");
    const { id: channelId } = await service.addAlertChannel(id, { kind: "email", recipient: "b@example.test" });
    const code = codeIn(mailsTo("b@example.test")[0]!.text);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < service.CONFIRM_CODE_MAX_TRIES; i++)
      await expect(service.confirmAlertChannel(id, channelId, wrong)).rejects.toMatchObject({ code: "unprocessable_entity" });
    await expect(service.confirmAlertChannel(id, channelId, code)).rejects.toMatchObject({ message: "Too many wrong codes: send a new one." });
    expect(await service.resendAlertConfirmation(id, channelId, null)).toEqual({ ok: true });
    const second = codeIn(mailsTo("b@example.test")[1]!.text);
    await clock.advance(service.CONFIRM_CODE_TTL_MS);
    await expect(service.confirmAlertChannel(id, channelId, second)).rejects.toMatchObject({ message: "The code has expired: send a new one." });
    expect(await service.resendAlertConfirmation(id, channelId, null)).toEqual({ ok: true });
    await service.confirmAlertChannel(id, channelId, codeIn(mailsTo("b@example.test")[2]!.text));
    await expect(service.resendAlertConfirmation(id, channelId, null)).rejects.toMatchObject({ code: "conflict" });
  });

  it("codes are throttled like tests: a member cannot make the mail server write to an address over and over", async () => {
    const id = await person("mail-c");
    const { id: channelId } = await service.addAlertChannel(id, { kind: "email", recipient: "c@example.test" });
    for (let i = 1; i < ALERT_LIMITS.sendsBurst; i++) expect(await service.resendAlertConfirmation(id, channelId, null)).toEqual({ ok: true });
    await expect(service.resendAlertConfirmation(id, channelId, null)).rejects.toMatchObject({ code: "rate_limited" });
    await expect(service.addAlertChannel(id, { kind: "email", recipient: "d@example.test" })).rejects.toMatchObject({ code: "rate_limited" });
    expect(mailsTo("c@example.test")).toHaveLength(ALERT_LIMITS.sendsBurst);
    expect(mailsTo("d@example.test")).toHaveLength(0);
  });
});
