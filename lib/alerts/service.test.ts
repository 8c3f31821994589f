// Settings → Alerts on the real database, for what the security audit found: a member pointing
// a channel at the server's own network, "Send a test" as a port scanner, and (e-mail) a
// member making the owner's mail server write to anyone. The receivers listen on 127.0.0.1,
// which this file allows as an owner would allow ntfy on the LAN.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { sqlRun } from "@/lib/test/sql";
import { startNtfyReceiver, type NtfyReceiver } from "@/lib/alerts/test-receivers";
import { ALERT_LIMITS } from "@/lib/alerts/catalog";

process.env.ALERT_ALLOWED_PRIVATE_HOSTS = "127.0.0.1";

const clock = new ManualClock(Date.parse("2026-11-23T10:00:00Z"));
let service: typeof import("@/lib/alerts/service");
let ntfy: NtfyReceiver;

async function person(id: string): Promise<string> {
  const now = new Date(clock.now()).toISOString();
  await sqlRun(`INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`, id, `${id}@example.test`, now, now);
  return id;
}

beforeAll(async () => {
  setClock(clock);
  service = await import("@/lib/alerts/service");
  ntfy = await startNtfyReceiver();
});

afterAll(async () => {
  setClock(undefined);
  await ntfy?.close();
});

describe("channels may not point at the server's own network", () => {
  it("loopback, link-local, private and unique-local addresses are refused when the channel is added", async () => {
    const id = await person("net-member");
    for (const url of ["http://[::1]:3000/hook", "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/hook", "http://0x7f000002/hook", "http://[fd00::1]/topic", "http://[::ffff:127.0.0.2]/x"]) {
      await expect(service.addAlertChannel(id, { kind: "webhook", url }), url).rejects.toMatchObject({ code: "unprocessable_entity", message: expect.stringContaining("ALERT_ALLOWED_PRIVATE_HOSTS") });
    }
    // a public name, and what the owner allowed, are fine
    await expect(service.addAlertChannel(id, { kind: "webhook", url: "https://hooks.example.test/ringside" })).resolves.toMatchObject({ id: expect.any(String) });
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
