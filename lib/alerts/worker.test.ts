// The worker on an in-memory store, fake facts, recording senders and a manual clock: no
// database, no network, no sleeps. Each rule reaches each channel once per episode; retries
// follow the backoff; the digest goes out at its hour, once.
import { beforeEach, describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { AlertWorker } from "@/lib/alerts/worker";
import { deliveryRetryDelay, MAX_DELIVERY_ATTEMPTS } from "@/lib/alerts/delivery";
import { ManualClock, MemoryAlertStore, recordingSenders } from "@/lib/test/alert-kit";
import type { AlertFacts, ConnectionFactsInput } from "@/lib/alerts/facts";
import type { SendResult } from "@/lib/alerts/channels/types";

const USER = "user-1";
const MIN = 60_000;

type FakeFacts = AlertFacts & {
  readiness: Array<{ day: string; value: number | null }>;
  night: string | null;
  conn: ConnectionFactsInput;
  syncing: boolean;
};

function readinessHistory(today: string, tail: number[]): Array<{ day: string; value: number | null }> {
  const rows = [];
  for (let i = 0; i < 120; i++) rows.push({ day: addDays(today, -(119 + tail.length) + i), value: 70 + ((i * 7) % 11) });
  tail.forEach((v, i) => rows.push({ day: addDays(today, -(tail.length - 1) + i), value: v }));
  return rows;
}

function fakeFacts(): FakeFacts {
  const f: FakeFacts = {
    readiness: [],
    night: null,
    conn: { status: "active", since: null, collections: [] },
    syncing: false,
    async metricRows(_u, metric, from, to) {
      return metric === "readiness.score" ? f.readiness.filter((r) => r.day >= from && r.day <= to) : [];
    },
    async newestNight() {
      return f.night;
    },
    async connection() {
      return f.conn;
    },
    async tags() {
      return [];
    },
    async units() {
      return "metric";
    },
    async batterySamples() {
      return [];
    },
    async newestBedtime() {
      return null;
    },
    async isSyncing() {
      return f.syncing;
    },
  };
  return f;
}

let clock: ManualClock;
let store: MemoryAlertStore;
let facts: FakeFacts;

function worker(answer?: (n: number) => SendResult, opts: { decrypt?: (s: string) => string } = {}) {
  const rec = recordingSenders(answer ? (_t, _m, n) => answer(n) : undefined);
  const w = new AlertWorker({
    store,
    facts,
    senders: rec.senders,
    clock,
    decrypt: opts.decrypt ?? ((s) => s.replace(/^enc:/, "")),
    linkBase: "https://ring.example",
    evaluateEveryMs: 5 * MIN,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  /** Moves the clock to `iso`, then runs one round. */
  const tickAt = async (iso: string) => {
    clock.set(iso);
    await w.tick();
  };
  return { w, sent: rec.sent, tickAt };
}

beforeEach(() => {
  clock = new ManualClock(Date.parse("2026-11-23T09:00:00Z"));
  store = new MemoryAlertStore();
  facts = fakeFacts();
  store.addChannel(USER, "ntfy", { url: "https://ntfy.example/t", secret: "enc:tk_1", label: "phone" });
  store.addChannel(USER, "webhook", { url: "https://ha.example/hook", secret: "enc:whsec", label: "home" });
});

describe("alert episodes", () => {
  it("a metric alert reaches each channel once while it holds, and again only in a new episode", async () => {
    store.addRule(USER, "metric_out_of_range", { metric: "readiness.score", side: "below", days: 3 });
    facts.readiness = readinessHistory("2026-11-23", [40, 41, 39]);
    const { w, sent } = worker();

    await w.tick();
    expect(sent.map((s) => s.target.kind).sort()).toEqual(["ntfy", "webhook"]);
    expect(sent[0]!.message).toMatchObject({ purpose: "alert", rule: "metric_out_of_range", key: "low", title: "Readiness score below your usual range" });
    expect(sent.find((s) => s.target.kind === "ntfy")!.target).toEqual({ kind: "ntfy", url: "https://ntfy.example/t", token: "tk_1" });
    const id = sent[0]!.message.id;
    expect(sent.every((s) => s.message.id === id)).toBe(true);

    // every poll for a day: the same episode, nothing more sent
    for (let i = 0; i < 288; i++) {
      clock.advance(5 * MIN);
      w.markSynced(USER);
      await w.tick();
    }
    expect(sent).toHaveLength(2);
    expect(store.episodes).toHaveLength(1);
    expect(store.episodes[0]!.lastSeenAt.getTime()).toBe(clock.now());

    // the next day back in range: the episode ends, nothing is sent
    facts.readiness = readinessHistory("2026-11-24", [40, 41, 39, 75]);
    clock.advance(5 * MIN);
    await w.tick();
    expect(store.episodes[0]!.endedAt?.getTime()).toBe(clock.now());
    expect(sent).toHaveLength(2);

    // three low days again: a new episode, sent once more to each channel
    facts.readiness = readinessHistory("2026-11-27", [40, 41, 39, 75, 40, 40, 40]);
    clock.set("2026-11-27T09:00:00Z");
    await w.tick();
    expect(store.episodes).toHaveLength(2);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => s.message.id)).size).toBe(2);
  });

  it("no new night, and the connection (reconnect, then failing for hours) are episodes too", async () => {
    store.addRule(USER, "no_new_sleep", { days: 2 });
    store.addRule(USER, "connection", { hours: 6 });
    facts.night = "2026-11-22";
    const { w, sent } = worker();
    await w.tick();
    expect(sent).toHaveLength(0);

    clock.set("2026-11-24T09:00:00Z"); // two days without a night
    facts.conn = { status: "needs_reconnect", since: null, collections: [] };
    await w.tick();
    expect(sent.map((s) => s.message.title).sort()).toEqual([
      "No new night of sleep for 2 days",
      "No new night of sleep for 2 days",
      "Reconnect your ring to Ringside",
      "Reconnect your ring to Ringside",
    ]);

    // reconnected; then a collection fails for 7 hours: a new reason, a new episode
    const failingSince = clock.now();
    facts.conn = {
      status: "active",
      since: failingSince,
      collections: [{ collection: "sleep", status: "idle", lastSuccessAt: failingSince, lastAttemptAt: failingSince + MIN, lastError: "HTTP 503" }],
    };
    clock.advance(5 * MIN);
    await w.tick();
    expect(store.episodes.filter((e) => e.kind === "connection" && e.endedAt)).toHaveLength(1);
    clock.advance(7 * 60 * MIN);
    await w.tick();
    expect(sent.filter((s) => s.message.key === "failing")).toHaveLength(2);
    expect(sent.filter((s) => s.message.key === "failing")[0]!.message.title).toBe("Sync failing for 7 hours");
  });

  it("evaluates after a sync only once the person's sync is through", async () => {
    store.addRule(USER, "no_new_sleep", { days: 2 });
    facts.night = "2026-11-20";
    const { w, sent } = worker();
    facts.syncing = true;
    await w.tick(); // periodic look, but a sync is running
    expect(sent).toHaveLength(0);
    clock.advance(MIN);
    facts.syncing = false;
    await w.tick(); // not periodic yet, but the person is still marked for a look
    expect(sent).toHaveLength(2);
  });

  it("a rule switched off ends its episode and stops; data-less rules change nothing", async () => {
    const rule = store.addRule(USER, "no_new_sleep", { days: 2 });
    facts.night = "2026-11-20";
    const { w, sent } = worker();
    await w.tick();
    expect(store.episodes.filter((e) => !e.endedAt)).toHaveLength(1);
    rule.enabled = false;
    store.addRule(USER, "metric_out_of_range", { metric: "readiness.score", side: "below", days: 3 }); // no data: unknown
    clock.advance(5 * MIN);
    await w.tick();
    expect(store.episodes.filter((e) => !e.endedAt)).toHaveLength(0);
    expect(sent).toHaveLength(2);
  });
});

describe("delivery", () => {
  it("retries a failing channel with backoff until it works, then never again", async () => {
    store.channels.splice(1); // ntfy only
    store.addRule(USER, "no_new_sleep", { days: 2 });
    facts.night = "2026-11-20";
    const answers: SendResult[] = [
      { ok: false, retry: true, error: "the server answered HTTP 503" },
      { ok: false, retry: true, error: "connection refused" },
      { ok: true },
    ];
    const { w, sent } = worker((n) => answers[n - 1] ?? { ok: true });
    await w.tick();
    const d = store.deliveries[0]!;
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastError: "the server answered HTTP 503" });
    expect(d.nextAttemptAt!.getTime()).toBe(clock.now() + deliveryRetryDelay(1));
    expect(deliveryRetryDelay(1)).toBe(30_000);

    clock.advance(deliveryRetryDelay(1) - 1);
    await w.tick();
    expect(sent).toHaveLength(1);
    clock.advance(1);
    await w.tick();
    expect(sent).toHaveLength(2);
    expect(d).toMatchObject({ status: "pending", attempts: 2, lastError: "connection refused" });
    expect(d.nextAttemptAt!.getTime()).toBe(clock.now() + 60_000);

    clock.advance(60_000);
    await w.tick();
    expect(d).toMatchObject({ status: "sent", attempts: 3, sentAt: new Date(clock.now()) });
    for (let i = 0; i < 20; i++) {
      clock.advance(10 * MIN);
      await w.tick();
    }
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.message.id)).size).toBe(1);
    expect(new Set(sent.map((s) => s.message.body)).size).toBe(1);
  });

  it("gives up on a permanent refusal at once, and after the last attempt otherwise", async () => {
    store.addRule(USER, "no_new_sleep", { days: 2 });
    facts.night = "2026-11-20";
    const { w, sent } = worker((n) =>
      n <= 2 && n % 2 === 1
        ? { ok: false, retry: false, error: "the server answered HTTP 401 (unauthorized)" }
        : { ok: false, retry: true, error: "no answer within 10 s" },
    );
    await w.tick();
    const [first, second] = store.deliveries;
    expect(first).toMatchObject({ status: "failed", attempts: 1, lastError: "the server answered HTTP 401 (unauthorized)" });
    expect(second).toMatchObject({ status: "pending", attempts: 1 });
    for (let i = 0; i < 30; i++) {
      clock.advance(deliveryRetryDelay(MAX_DELIVERY_ATTEMPTS));
      await w.tick();
    }
    expect(second).toMatchObject({ status: "failed", attempts: MAX_DELIVERY_ATTEMPTS, lastError: "no answer within 10 s" });
    expect(sent).toHaveLength(1 + MAX_DELIVERY_ATTEMPTS);
  });

  it("a channel switched off or removed before its turn is cancelled; an unreadable secret fails", async () => {
    store.addRule(USER, "no_new_sleep", { days: 2 });
    facts.night = "2026-11-20";
    const { w } = worker(() => ({ ok: false, retry: true, error: "HTTP 503" }));
    await w.tick();
    store.channels[0]!.enabled = false;
    store.channels.splice(1, 1);
    clock.advance(deliveryRetryDelay(1));
    await w.tick();
    expect(store.deliveries.map((d) => [d.status, d.lastError])).toEqual([
      ["cancelled", "The channel is switched off."],
      ["cancelled", "The channel was removed."],
    ]);

    const broken = worker(undefined, {
      decrypt: () => {
        throw new Error("bad key");
      },
    });
    store.channels[0]!.enabled = true;
    store.episodes = [];
    store.deliveries = [];
    await broken.w.tick();
    expect(store.deliveries[0]).toMatchObject({ status: "failed" });
    expect(store.deliveries[0]!.lastError).toMatch(/cannot be read/);
    expect(broken.sent).toHaveLength(0);
  });
});

describe("weekly digest", () => {
  it("goes out at its weekday and hour in the person's zone, once per week", async () => {
    store.settings.set(USER, { userId: USER, includeValues: false, timeZone: "Europe/Berlin", linkBase: null, quietHours: null });
    store.addRule(USER, "weekly_digest", { weekday: 1, hour: 8 }); // Monday 08:00 Berlin = 07:00 UTC in winter
    const { w, sent, tickAt } = worker();
    await tickAt("2026-11-23T06:59:59Z");
    expect(sent).toHaveLength(0);
    await tickAt("2026-11-23T07:00:00Z");
    expect(sent.map((s) => s.message.purpose)).toEqual(["digest", "digest"]);
    expect(sent[0]!.message.title).toBe("Your week: Mon 16 Nov – Sun 22 Nov");
    expect(sent[0]!.message.link).toBe("https://ring.example/trends?m=readiness.score,sleep.score,activity.score&range=custom&from=2026-11-16&to=2026-11-22");
    for (let i = 0; i < 7 * 24 * 12 - 1; i++) {
      clock.advance(5 * MIN);
      await w.tick();
    }
    expect(sent).toHaveLength(2);
    await tickAt("2026-11-30T07:00:00Z");
    expect(sent).toHaveLength(4);
    expect(sent[2]!.message.title).toBe("Your week: Mon 23 Nov – Sun 29 Nov");
  });

  it("is not sent hours late: after six hours the slot is skipped", async () => {
    store.addRule(USER, "weekly_digest", { weekday: 1, hour: 8 });
    const { sent, tickAt } = worker();
    await tickAt("2026-11-23T14:00:00Z");
    expect(sent).toHaveLength(0);
    await tickAt("2026-11-23T13:59:59Z");
    expect(sent).toHaveLength(2);
  });
});
