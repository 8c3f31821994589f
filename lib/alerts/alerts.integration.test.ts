// Integration: the alerts worker on the real SQLite database, fed by real syncs from the real
// emulator, sending through the real senders to real receivers on localhost (ntfy publish API,
// a signature-checking webhook receiver, an SMTP server). Each rule is triggered from emulator
// data (documents edited or deleted through its control API, faults, a revoked grant) and
// reaches each channel exactly once per episode; the digest arrives at its hour. Time is a
// manual clock shared by the sync engine, the worker and the receivers: no sleeps.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { wornEmail } from "@/lib/test/emulator-kit";
import {
  connectPerson,
  emulatorControl,
  emulatorDocuments,
  emulatorFault,
  startSyncTestEnv,
  type ConnectedPerson,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";
import {
  startNtfyReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  type NtfyReceiver,
  type SmtpReceiver,
  type WebhookReceiver,
} from "@/lib/test/alert-receivers";
import { importAlertApp, ManualClock, type AlertApp } from "@/lib/test/alert-kit";
import { addDays } from "@/lib/days";

const TODAY = "2026-11-23"; // a Monday
const HOUR = 3_600_000;
const clock = new ManualClock(Date.parse(`${TODAY}T10:00:00Z`)); // only ever moves forward

let t: SyncTestEnv;
let ntfy: NtfyReceiver;
let smtp: SmtpReceiver;
const hooks: WebhookReceiver[] = [];

let app: AlertApp;

type Person = ConnectedPerson & { topic: string; hook: WebhookReceiver; mailbox: string };

/** The person's messages at each receiver. */
function received(p: Person) {
  return {
    ntfy: ntfy.messages.filter((m) => m.topic === p.topic),
    mail: smtp.mails.filter((m) => m.to.includes(p.mailbox) && !m.subject.startsWith("Ringside confirmation code")),
    hook: p.hook.verified(),
  };
}

async function sync(p: Person): Promise<void> {
  await app.engine.syncUser(p.userId).catch(() => undefined);
  app.worker.markSynced(p.userId);
  await app.worker.tick();
}

/** A connected person worn on the last four days (and on `wornAfter` days after TODAY, for a test that syncs them), with ntfy, e-mail and webhook channels. */
async function setUp(tag: string, opts: { includeValues?: boolean; timeZone?: string; wornAfter?: number } = {}): Promise<Person> {
  const days = [-3, -2, -1, 0].map((d) => addDays(TODAY, d));
  for (let d = 1; d <= (opts.wornAfter ?? 0); d++) days.push(addDays(TODAY, d));
  const person = await connectPerson(t, { email: wornEmail(tag, days, [], undefined, TODAY) });
  const outcomes = await app.engine.backfillUser(person.userId);
  expect(outcomes.filter((o) => o.result !== "done" && o.reason !== "cycle_off")).toEqual([]);
  const hook = await startWebhookReceiver({ now: () => clock.now() });
  hooks.push(hook);
  const p: Person = { ...person, topic: `${tag}-topic`, hook, mailbox: `${tag}@mail.test` };
  await app.service.saveAlertSettings(p.userId, { includeValues: opts.includeValues ?? false, timeZone: opts.timeZone ?? "UTC" }, null);
  await app.service.addAlertChannel(p.userId, { kind: "ntfy", url: ntfy.topicUrl(p.topic), token: "tk_integration" });
  const mail = await app.service.addAlertChannel(p.userId, { kind: "email", recipient: p.mailbox });
  // the address is confirmed with the code sent to it, as its owner would
  const code = /\b(\d{6})\b/.exec(smtp.mails.filter((m) => m.to.includes(p.mailbox)).at(-1)?.text ?? "")?.[1];
  await app.service.confirmAlertChannel(p.userId, mail.id, code);
  const { secret } = await app.service.addAlertChannel(p.userId, { kind: "webhook", url: hook.url, label: "Home Assistant" });
  hook.secret = secret;
  return p;
}

const logs: string[] = [];

beforeAll(async () => {
  ntfy = await startNtfyReceiver({ token: "tk_integration" });
  smtp = await startSmtpReceiver({ user: "ringside", password: "smtp-pass" });
  t = await startSyncTestEnv(
    { historyDays: 150, pageSize: 100, today: TODAY },
    {
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      SMTP_SECURE: "none",
      SMTP_USER: "ringside",
      SMTP_PASSWORD: "smtp-pass",
      SMTP_FROM: "Ringside <alerts@ringside.test>",
      AUTH_URL: "https://ringside.test",
      LOG_LEVEL: "info",
      // the receivers listen on this machine, as ntfy on the LAN would
      ALERT_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    },
  );
  app = await importAlertApp(clock);
  const keep = (chunk: string | Uint8Array) => (logs.push(String(chunk)), true);
  vi.spyOn(process.stdout, "write").mockImplementation(keep);
  vi.spyOn(process.stderr, "write").mockImplementation(keep);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
  await ntfy?.close();
  await smtp?.close();
  for (const h of hooks) await h.close();
});

async function patchDoc(p: Person, collection: string, day: string, fields: Record<string, unknown>): Promise<void> {
  const doc = (await emulatorDocuments(t, p.ringUserId, collection as never)).find((d) => d.day === day);
  expect(doc, `${collection} on ${day}`).toBeDefined();
  await emulatorControl(t, "PATCH", `/users/${p.ringUserId}/documents/${collection}/${String(doc!.id)}`, fields);
}

describe("each rule reaches each channel exactly once per episode", () => {
  it("readiness below its usual range for 2 days in a row", async () => {
    const p = await setUp("metric");
    await app.service.addAlertRule(p.userId, { kind: "metric_out_of_range", params: { metric: "readiness.score", side: "below", days: "2" } });
    // The last three days are usual ones (the generated person's median): nothing to say yet, and
    // the run made below is exactly two days long.
    const scores = (await emulatorDocuments(t, p.ringUserId, "daily_readiness" as never))
      .filter((d) => String(d.day) < addDays(TODAY, -2))
      .map((d) => Number(d.score))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    for (const d of [-2, -1, 0]) await patchDoc(p, "daily_readiness", addDays(TODAY, d), { score: scores[Math.floor(scores.length / 2)] });
    await sync(p);
    expect(received(p)).toEqual({ ntfy: [], mail: [], hook: [] });

    await patchDoc(p, "daily_readiness", addDays(TODAY, -1), { score: 21 });
    await patchDoc(p, "daily_readiness", TODAY, { score: 19 });
    await sync(p);
    const first = received(p);
    expect(first.ntfy).toHaveLength(1);
    expect(first.mail).toHaveLength(1);
    expect(first.hook).toHaveLength(1);
    expect(first.ntfy[0]).toMatchObject({
      title: "Readiness score below your usual range",
      priority: 4,
      click: "https://ringside.test/trends?m=readiness.score&range=30d",
      authorization: "Bearer tk_integration",
    });
    expect(first.ntfy[0]!.message).toContain("for 2 days in a row (Sun 22 Nov – Mon 23 Nov)");
    expect(first.ntfy[0]!.message).not.toMatch(/\b(19|21)\b/); // values were not included
    expect(first.mail[0]).toMatchObject({ subject: "Readiness score below your usual range", from: "alerts@ringside.test" });
    expect(first.hook[0]!.body).toMatchObject({
      type: "alert",
      rule: "metric_out_of_range",
      key: "low",
      data: { metric: "readiness.score", side: "below", days: 2 },
    });

    // polls and syncs for a day while it holds: nothing more
    for (let i = 0; i < 12; i++) {
      clock.advance(HOUR / 2);
      await sync(p);
    }
    expect(received(p).ntfy).toHaveLength(1);
    expect(received(p).mail).toHaveLength(1);
    expect(received(p).hook).toHaveLength(1);

    // back in range: the episode ends (nothing sent); low again: a new episode, sent once more
    await patchDoc(p, "daily_readiness", TODAY, { score: 80 });
    await sync(p);
    expect(app.raw.rawDb().prepare(`SELECT COUNT(*) AS n FROM alert_episode WHERE userId = ? AND endedAt IS NOT NULL`).get(p.userId)).toEqual({ n: 1 });
    await patchDoc(p, "daily_readiness", TODAY, { score: 18 });
    await sync(p);
    await sync(p);
    const second = received(p);
    expect([second.ntfy.length, second.mail.length, second.hook.length]).toEqual([2, 2, 2]);
    expect(new Set(second.hook.map((c) => c.body.id)).size).toBe(2);
  });

  it("no new night of sleep for 2 days, until the ring syncs again", async () => {
    const p = await setUp("nights", { wornAfter: 1 }); // the ring syncs a night of TODAY + 1 below
    await app.service.addAlertRule(p.userId, { kind: "no_new_sleep", params: { days: 2 } });
    await sync(p);
    expect(received(p).ntfy).toHaveLength(0);
    // the last two nights never reach the service
    for (const collection of ["sleep", "daily_sleep"] as const) {
      for (const doc of (await emulatorDocuments(t, p.ringUserId, collection)).filter((d) => String(d.day) >= addDays(TODAY, -1))) {
        await emulatorControl(t, "POST", `/users/${p.ringUserId}/documents/${collection}/${String(doc.id)}/delete`);
      }
    }
    await sync(p);
    const r = received(p);
    expect([r.ntfy.length, r.mail.length, r.hook.length]).toEqual([1, 1, 1]);
    expect(r.ntfy[0]!.title).toBe("No new night of sleep for 2 days");
    expect(r.mail[0]!.text).toContain("Open the ring app");
    for (let i = 0; i < 6; i++) {
      clock.advance(HOUR);
      await sync(p);
    }
    // the next morning the ring syncs a new night: the episode ends, nothing new is sent
    clock.set(`${addDays(TODAY, 1)}T10:00:00Z`);
    await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day: addDays(TODAY, 1) });
    await sync(p);
    const after = received(p);
    expect([after.ntfy.length, after.mail.length, after.hook.length]).toEqual([1, 1, 1]);
    expect(app.raw.rawDb().prepare(`SELECT endedAt IS NOT NULL AS ended FROM alert_episode WHERE userId = ?`).all(p.userId)).toEqual([{ ended: 1 }]);
  });

  it("sync failing for 3 hours, then a refused grant that needs a reconnect", async () => {
    const p = await setUp("conn");
    await app.service.addAlertRule(p.userId, { kind: "connection", params: { hours: 3 } });
    await emulatorFault(t, { status: 503, count: 10_000, path_prefix: "/v2/usercollection/" });
    try {
      for (let i = 0; i < 2; i++) {
        clock.advance(HOUR);
        await sync(p);
      }
      expect(received(p).ntfy).toHaveLength(0);
      clock.advance(HOUR + 60_000);
      await sync(p);
      await sync(p);
    } finally {
      await emulatorControl(t, "DELETE", "/faults");
    }
    const failing = received(p);
    expect([failing.ntfy.length, failing.mail.length, failing.hook.length]).toEqual([1, 1, 1]);
    expect(failing.ntfy[0]!.title).toBe("Sync failing for 3 hours");
    expect(failing.hook[0]!.body).toMatchObject({ rule: "connection", key: "failing" });

    await sync(p); // works again: the episode ends
    expect(received(p).ntfy).toHaveLength(1);

    // the service withdraws the grant: the next sync is refused and the refresh gets invalid_grant
    const { readTokenRow } = await import("@/lib/db/queries/accounts");
    const { decryptToken } = await import("@/lib/ring/tokens");
    const token = decryptToken((await readTokenRow(p.accountId))!.access_token!);
    expect((await fetch(`${t.url}/oauth/revoke?access_token=${encodeURIComponent(token)}`, { method: "POST" })).status).toBe(200);
    clock.advance(HOUR);
    await sync(p);
    await sync(p);
    const reconnect = received(p);
    expect([reconnect.ntfy.length, reconnect.mail.length, reconnect.hook.length]).toEqual([2, 2, 2]);
    expect(reconnect.ntfy[1]!.title).toBe("Reconnect your ring to Ringside");
    expect(reconnect.mail[1]!.text).toContain("https://ringside.test/settings");
  });
});

describe("delivery", () => {
  it("a failing channel is retried with backoff and gets the alert once it answers", async () => {
    const p = await setUp("retry");
    await app.service.addAlertRule(p.userId, { kind: "no_new_sleep", params: { days: 2 } });
    p.hook.failWith = (n) => (n <= 2 ? 503 : null);
    clock.set(`${addDays(TODAY, 2)}T10:00:00Z`); // two days after the emulator's last night
    app.worker.markSynced(p.userId);
    await app.worker.tick();
    expect(p.hook.attempts).toBe(1);
    expect(received(p).ntfy).toHaveLength(1);
    const row = () =>
      app.raw.rawDb().prepare(`SELECT status, attempts, lastError FROM alert_delivery WHERE userId = ? AND channelKind = 'webhook'`).get(p.userId) as {
        status: string;
        attempts: number;
        lastError: string | null;
      };
    expect(row()).toEqual({ status: "pending", attempts: 1, lastError: "the server answered HTTP 503" });
    clock.advance(29_000);
    await app.worker.tick();
    expect(p.hook.attempts).toBe(1);
    clock.advance(1_000);
    await app.worker.tick(); // second attempt, 503 again; next in 60 s
    clock.advance(60_000);
    await app.worker.tick();
    expect(row()).toEqual({ status: "sent", attempts: 3, lastError: null });
    expect(p.hook.verified()).toHaveLength(1);
    expect(p.hook.calls.filter((c) => c.event === p.hook.verified()[0]!.event)).toHaveLength(1);
  });
});

describe("weekly digest", () => {
  it("arrives at the person's weekday and hour (their time zone), once, with the week's facts", async () => {
    // next Monday: the week of Mon 23 – Sun 29 Nov, which the ring syncs day by day
    const monday = addDays(TODAY, 7);
    const p = await setUp("digest", { includeValues: true, timeZone: "Europe/Berlin" });
    for (let d = 1; d <= 6; d++) await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day: addDays(TODAY, d) });
    clock.set(`${monday}T05:00:00Z`);
    await app.engine.syncUser(p.userId);
    // Monday 08:00 in Berlin is 07:00 UTC in November
    await app.service.addAlertRule(p.userId, { kind: "weekly_digest", params: { weekday: 1, hour: 8 } });
    const { setDayNote } = await import("@/lib/db/queries/notes");
    await setDayNote({ userId: p.userId, day: "2026-11-25", text: "", tags: ["late dinner"] });
    await setDayNote({ userId: p.userId, day: "2026-11-27", text: "", tags: ["late dinner", "travel"] });
    await setDayNote({ userId: p.userId, day: "2026-11-30", text: "", tags: ["next week"] });

    clock.set(`${monday}T06:59:00Z`);
    await app.worker.tick();
    expect(received(p).ntfy).toHaveLength(0);
    clock.set(`${monday}T07:00:30Z`);
    await app.worker.tick();
    const r = received(p);
    expect([r.ntfy.length, r.mail.length, r.hook.length]).toEqual([1, 1, 1]);
    expect(r.mail[0]!.subject).toBe("Your week: Mon 23 Nov – Sun 29 Nov");
    expect(r.mail[0]!.text).toMatch(/Readiness score: \d+ on average \(week before \d+\); usual range \d+ – \d+;/);
    expect(r.mail[0]!.text).toContain("Best day:");
    expect(r.mail[0]!.text).toContain("Tags this week: late dinner (2 days), travel (1 day).");
    expect(r.mail[0]!.text).toContain(
      "Trends: https://ringside.test/trends?m=readiness.score,sleep.score,activity.score&range=custom&from=2026-11-23&to=2026-11-29",
    );
    expect(r.ntfy[0]!.tags).toEqual(["calendar"]);
    expect(r.hook[0]!.body).toMatchObject({ type: "digest", rule: "weekly_digest", data: { from: "2026-11-23", to: "2026-11-29", tagged_days: 2 } });

    // the rest of the week: nothing more; next Monday 08:00: the next one
    for (let h = 0; h < 7 * 24 - 1; h++) {
      clock.advance(HOUR);
      await app.worker.tick();
    }
    expect(received(p).ntfy).toHaveLength(1);
    clock.set(`${addDays(monday, 7)}T07:00:00Z`);
    await app.worker.tick();
    const next = received(p);
    expect([next.ntfy.length, next.mail.length, next.hook.length]).toEqual([2, 2, 2]);
    expect(next.ntfy[1]!.title).toBe("Your week: Mon 30 Nov – Sun 6 Dec");
  });
});

describe("privacy", () => {
  it("secrets are encrypted at rest; logs carry ids and counts, never message text, values or secrets", async () => {
    const rows = app.raw.rawDb().prepare(`SELECT kind, secret FROM alert_channel`).all() as Array<{ kind: string; secret: string | null }>;
    const { decryptToken } = await import("@/lib/ring/tokens");
    for (const r of rows.filter((x) => x.kind !== "email")) {
      expect(r.secret).toMatch(/^v1:/);
      expect(r.secret).not.toContain("tk_integration");
    }
    expect(rows.filter((r) => r.kind === "ntfy").map((r) => decryptToken(r.secret!))).toContain("tk_integration");
    const text = logs.join("");
    expect(text).toContain("alert delivery");
    for (const secret of ["tk_integration", "smtp-pass", ...hooks.map((h) => h.secret!)]) expect(text).not.toContain(secret);
    for (const words of ["usual range", "Readiness score", "Your week", "late dinner", "No new night"]) expect(text).not.toContain(words);
    expect(text).not.toContain(ntfy.url);
  });
});
