// Integration: how the sync engine meets the ring service's errors (emulator faults):
// 429 on both layers honoured to the millisecond (on a manual clock), 5xx bursts and dropped connections survived,
// 401 refreshed once, 403 not shared / expired, 422 shown as a bug, invalid documents kept aside.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, ManualClock } from "@/lib/clock";
import { waitFor } from "@/lib/test/wait";
import {
  clearEmulatorRequests,
  FAST_BACKOFF,
  compareWithEmulator,
  connectPerson,
  emulatorControl,
  emulatorFault,
  emulatorRequests,
  importSyncModules,
  startSyncTestEnv,
  type EmulatorRequest,
  type SyncModules,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";

let t: SyncTestEnv;
let m: SyncModules & {
  rejected: typeof import("@/lib/db/queries/rejected-documents");
  settings: typeof import("@/lib/db/queries/app-settings");
  rate: typeof import("@/lib/ring/rate-gate");
};

beforeAll(async () => {
  t = await startSyncTestEnv({ historyDays: 120 });
  m = {
    ...(await importSyncModules()),
    rejected: await import("@/lib/db/queries/rejected-documents"),
    settings: await import("@/lib/db/queries/app-settings"),
    rate: await import("@/lib/ring/rate-gate"),
  };
});

afterAll(async () => {
  await t?.close();
});

const ms = (r: EmulatorRequest) => Date.parse(r.time);

function engine(opts: ConstructorParameters<typeof import("@/lib/sync/engine").SyncEngine>[0] = {}) {
  // A private gate per engine: pauses of one test do not leak into the next.
  return new m.engine.SyncEngine({ ...opts, clientOptions: { backoff: FAST_BACKOFF, gate: new m.rate.RateGate(), ...opts.clientOptions } });
}

/**
 * A backfill whose ring client and rate gate run on a clock that moves only when told: a pause
 * after a 429 then lasts until the test moves the clock, so "nobody asks during the pause" and
 * "it resumes exactly at its end" are counts of requests, whatever the machine's speed.
 */
function pausedEngine() {
  const gateClock = new ManualClock(clock.now());
  const gate = new m.rate.RateGate({ clock: gateClock });
  return { gateClock, gate, e: engine({ clientOptions: { gate, clock: gateClock } }) };
}

/** The pause's end the 429's headers set: the later of Retry-After from the gate's now and the reset second. */
function pauseEnd(gateNow: number, hit: EmulatorRequest, retryAfterS: number) {
  return Math.max(gateNow + retryAfterS * 1000, (Math.ceil(ms(hit) / 1000) + retryAfterS) * 1000);
}

/**
 * Two connected people, one 429 (Retry-After 2 s) on `collection` at `tier`, and a's backfill
 * of it started on a paused engine and waiting at the gate.
 */
async function backfillIntoA429(tier: "token" | "application", collection: "daily_readiness" | "daily_stress") {
  const a = await connectPerson(t, { tracksCycle: true });
  const b = await connectPerson(t, { tracksCycle: true });
  await clearEmulatorRequests(t);
  await emulatorFault(t, { status: 429, count: 1, retry_after: 2, tier, path_prefix: `/v2/usercollection/${collection}` });
  const { gateClock, gate, e } = pausedEngine();
  const paused = e.backfillUser(a.userId, [collection]);
  await waitFor("a's requests waiting at the gate", () => gateClock.scheduled > 0);
  return { a, b, gateClock, gate, e, paused };
}

describe("429", () => {
  it("pauses only that person's requests on the token layer, exactly as long as the headers say", async () => {
    const { a, b, gateClock, gate, e, paused } = await backfillIntoA429("token", "daily_readiness");
    // the other person's backfill runs to its end meanwhile
    await e.backfillUser(b.userId, ["daily_sleep"]);
    const mine = (r: EmulatorRequest) => r.path.endsWith("/daily_readiness");
    let log = await emulatorRequests(t, "/v2/usercollection/");
    const hit = log.find((r) => r.status === 429)!;
    expect(hit.rate_limit_tier ?? "token").toBe("token");
    expect(log.filter((r) => mine(r) && ms(r) > ms(hit))).toEqual([]);
    expect(log.filter((r) => !mine(r) && ms(r) > ms(hit)).length).toBeGreaterThan(0);
    expect(await gate.pausedUntil(b.accountId)).toBeNull();
    // a millisecond before the pause's end the request still waits; past its end it goes
    const end = pauseEnd(gateClock.now(), hit, 2);
    expect((await gate.pausedUntil(a.accountId))?.until).toBe(end);
    await gateClock.advance(end - gateClock.now() - 1);
    expect(gateClock.scheduled).toBe(1);
    await gateClock.advance(2);
    await paused;
    log = await emulatorRequests(t, "/v2/usercollection/");
    expect(log.filter((r) => mine(r) && ms(r) > ms(hit)).length).toBeGreaterThan(0);
    expect((await compareWithEmulator(t, a, "daily_readiness")).missing).toEqual([]);
    expect((await compareWithEmulator(t, b, "daily_sleep")).missing).toEqual([]);
  });

  it("pauses every person's requests on the application layer and keeps the pause across a restart", async () => {
    const { a, b, gateClock, gate, e, paused: run } = await backfillIntoA429("application", "daily_stress");
    // everybody waits: b's first request too
    const other = e.backfillUser(b.userId, ["daily_sleep"]);
    await waitFor("b's requests waiting at the gate", () => gateClock.scheduled > 1);
    const log = await emulatorRequests(t, "/v2/usercollection/");
    const hit = log.find((r) => r.status === 429)!;
    expect(hit.rate_limit_tier ?? "application").toBe("application");
    expect(log.filter((r) => ms(r) > ms(hit))).toEqual([]); // nobody asked during the pause
    const end = pauseEnd(gateClock.now(), hit, 2);
    expect((await gate.pausedUntil(b.accountId))?.until).toBe(end);
    await gateClock.advance(end - gateClock.now() + 1);
    await Promise.all([run, other]);
    expect((await compareWithEmulator(t, a, "daily_stress")).missing).toEqual([]);
    expect((await compareWithEmulator(t, b, "daily_sleep")).missing).toEqual([]);
    const resetMs = end;

    const stored = await m.settings.getAppSetting("rate_limit_pause:application", (await import("zod")).z.object({ until: (await import("zod")).z.number() }));
    expect(stored?.until).toBeGreaterThanOrEqual(resetMs - 1000);
    // A new process (fresh gate) with the clock just before the stored end still waits.
    let now = stored!.until - 1500;
    const slept: number[] = [];
    const restarted = new m.rate.RateGate({
      clock: {
        now: () => now,
        sleep: async (d) => {
          slept.push(d);
          now += d;
        },
      },
    });
    await restarted.wait("any-account");
    expect(slept).toEqual([1501]);
  });
});

describe("5xx and dropped connections", () => {
  it("survives bursts with bounded exponential backoff", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await emulatorFault(t, { status: 503, count: 4, path_prefix: "/v2/usercollection/sleep" });
    await emulatorFault(t, { status: 0, count: 2, path_prefix: "/v2/usercollection/daily_spo2" });
    await emulatorFault(t, { status: 500, count: 3 });
    const outcomes = await engine().backfillUser(p.userId);
    expect(outcomes.filter((o) => o.result !== "done")).toEqual([]);
    for (const c of ["sleep", "daily_spo2", "daily_activity"] as const) {
      const diff = await compareWithEmulator(t, p, c);
      expect({ missing: diff.missing.length, extra: diff.extra.length, stored: diff.stored }).toEqual({ missing: 0, extra: 0, stored: diff.expected });
    }
  });

  it("gives up after the bounded retries and records the error for the job to retry", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await emulatorFault(t, { status: 502, count: 3, path_prefix: "/v2/usercollection/daily_stress" });
    const e = engine({ clientOptions: { backoff: { baseMs: 5, maxMs: 10, maxRetries: 2 } } });
    const [outcome] = await e.backfillUser(p.userId, ["daily_stress"]);
    expect(outcome?.result).toBe("failed");
    expect(m.engine.classifyError(outcome?.error)).toEqual({ kind: "retry" });
    const st = (await m.state.getSyncState(p.userId, "daily_stress"))!;
    expect(st.status).toBe("backfilling");
    expect(st.lastError).toMatch(/HTTP 502/);
    // The next run (the job's retry) finishes the job.
    await engine().backfillUser(p.userId, ["daily_stress"]);
    expect((await m.state.getSyncState(p.userId, "daily_stress"))!.backfillDoneAt).not.toBeNull();
  });
});

describe("delete notifications", () => {
  it("are applied only when the service answers 404: 200 keeps the document, an error keeps it and fails (retried later)", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    const e = engine({ clientOptions: { backoff: { baseMs: 5, maxMs: 10, maxRetries: 2 } } });
    await e.backfillUser(p.userId, ["daily_stress"]);
    const docs = await import("@/lib/db/queries/ring-documents");
    const stored = async () => (await docs.listRawDocuments("daily_stress", p.userId)).map((d) => d.documentId);
    const [kept, failing, gone] = (await stored()).slice(-3) as [string, string, string];
    // The service still has it: a (forged or stale) delete changes nothing.
    expect(await e.applyDocumentEvent({ userId: p.userId, collection: "daily_stress", eventType: "delete", objectId: kept })).toBe("ignored");
    // The service cannot be asked: nothing is deleted, the error goes up (the worker retries later).
    await emulatorControl(t, "POST", `/users/${p.ringUserId}/documents/daily_stress/${failing}/delete`);
    await emulatorFault(t, { status: 503, count: 10, path_prefix: `/v2/usercollection/daily_stress/${failing}` });
    await expect(e.applyDocumentEvent({ userId: p.userId, collection: "daily_stress", eventType: "delete", objectId: failing })).rejects.toThrow();
    await emulatorControl(t, "DELETE", "/faults");
    // The service answers 404: deleted.
    await emulatorControl(t, "POST", `/users/${p.ringUserId}/documents/daily_stress/${gone}/delete`);
    expect(await e.applyDocumentEvent({ userId: p.userId, collection: "daily_stress", eventType: "delete", objectId: gone })).toBe("applied");
    expect(await stored()).toContain(kept);
    expect(await stored()).toContain(failing);
    expect(await stored()).not.toContain(gone);
  });
});

describe("401, 403, 422", () => {
  it("refreshes the token once after a 401 and retries once", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    const before = (await m.db.db.account.findUniqueOrThrow({ where: { id: p.accountId } })).access_token;
    await clearEmulatorRequests(t);
    await emulatorFault(t, { status: 401, count: 1, path_prefix: "/v2/usercollection/daily_activity" });
    const [outcome] = await engine().backfillUser(p.userId, ["daily_activity"]);
    expect(outcome?.result).toBe("done");
    const after = (await m.db.db.account.findUniqueOrThrow({ where: { id: p.accountId } })).access_token;
    expect(after).not.toBe(before);
    const tokenCalls = await emulatorRequests(t, "/oauth/token");
    expect(tokenCalls.length).toBe(1);
  });

  it("marks a collection not shared on 403 and stops asking for it", async () => {
    const p = await connectPerson(t, { tracksCycle: true, grant: "daily email personal" });
    // Consent without spo2Daily: known from the granted scopes, no request needed.
    await clearEmulatorRequests(t);
    const e = engine();
    await e.backfillUser(p.userId, ["daily_spo2"]);
    expect((await m.state.getSyncState(p.userId, "daily_spo2"))!.status).toBe("not_shared");
    expect(await emulatorRequests(t, "/v2/usercollection/daily_spo2")).toEqual([]);
    // The stored scopes claim it, the token does not: the service answers 403.
    await m.db.db.account.update({ where: { id: p.accountId }, data: { scope: "daily email personal spo2Daily" } });
    await m.state.updateSyncState(p.userId, "daily_spo2", { status: "idle" });
    const [outcome] = await e.backfillUser(p.userId, ["daily_spo2"]);
    expect(outcome?.result).toBe("failed");
    expect(m.engine.classifyError(outcome?.error)).toEqual({ kind: "stop", status: "not_shared" });
    expect((await m.state.getSyncState(p.userId, "daily_spo2"))!.status).toBe("not_shared");
    await clearEmulatorRequests(t);
    await e.backfillUser(p.userId, ["daily_spo2"]);
    expect(await emulatorRequests(t, "/v2/usercollection/daily_spo2")).toEqual([]);
  });

  it("marks an expired membership and asks again only after a day or a reconnect", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    const e = engine();
    await e.backfillUser(p.userId, ["daily_sleep"]);
    await emulatorControl(t, "PATCH", `/users/${p.ringUserId}`, { subscription: "expired" });
    const [outcome] = await e.syncUser(p.userId, ["daily_sleep"]);
    expect(outcome?.result).toBe("failed");
    expect((await m.state.getSyncState(p.userId, "daily_sleep"))!.status).toBe("expired");
    await clearEmulatorRequests(t);
    const [again] = await e.syncUser(p.userId, ["daily_sleep"]);
    expect(again?.result).toBe("skipped");
    expect(await emulatorRequests(t, "/v2/usercollection/daily_sleep")).toEqual([]);
    await emulatorControl(t, "PATCH", `/users/${p.ringUserId}`, { subscription: "active" });
    const { enqueueAfterConnect } = await import("@/lib/sync/jobs");
    await enqueueAfterConnect(p.userId);
    expect((await m.state.getSyncState(p.userId, "daily_sleep"))!.status).toBe("idle");
    const [ok] = await e.syncUser(p.userId, ["daily_sleep"]);
    expect(ok?.result).toBe("done");
  });

  it("shows a 422 as a request bug on that collection without retrying", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await emulatorFault(t, { status: 422, count: 1, path_prefix: "/v2/usercollection/daily_resilience" });
    const [outcome] = await engine().backfillUser(p.userId, ["daily_resilience"]);
    expect(m.engine.classifyError(outcome?.error)).toEqual({ kind: "bug" });
    const st = (await m.state.getSyncState(p.userId, "daily_resilience"))!;
    expect(st.status).toBe("error");
    expect(st.lastError).toContain("/v2/usercollection/daily_resilience");
    expect(st.lastError).not.toMatch(/Bearer|token=/);
  });
});

describe("invalid documents", () => {
  it("keeps a document that fails validation aside and stores the rest", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    let tampered = "";
    const fetchWithBadDocument: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = new URL(String(input));
      if (!url.pathname.endsWith("/daily_readiness") || tampered) return res;
      const body = (await res.json()) as { data: Array<Record<string, unknown>>; next_token: string | null };
      const victim = body.data[2]!;
      tampered = String(victim.id);
      victim.score = "very good";
      delete victim.contributors;
      victim.extra_new_field = { nested: true }; // unknown keys are fine
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    };
    const [outcome] = await engine({ clientOptions: { fetch: fetchWithBadDocument } }).backfillUser(p.userId, ["daily_readiness"]);
    expect(outcome?.result).toBe("done");
    const diff = await compareWithEmulator(t, p, "daily_readiness");
    expect(diff.missing).toEqual([tampered]);
    expect(diff.extra).toEqual([]);
    const rejected = await m.rejected.listRejectedDocuments(p.userId);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ collection: "daily_readiness", documentId: tampered });
    expect(rejected[0]!.error).toMatch(/score/);
    expect(rejected[0]!.error).toMatch(/contributors/);
    expect(await m.rejected.countRejectedByCollection(p.userId)).toEqual({ daily_readiness: 1 });
    // The next clean fetch of that document replaces the rejection.
    const { getSyncEngine } = m.engine;
    void getSyncEngine;
    await engine().applyDocumentEvent({ userId: p.userId, collection: "daily_readiness", eventType: "update", objectId: tampered });
    expect(await m.rejected.listRejectedDocuments(p.userId)).toEqual([]);
    expect((await compareWithEmulator(t, p, "daily_readiness")).missing).toEqual([]);
  });
});

describe("a disconnect during a backfill", () => {
  it("a page in flight when the person disconnected does not mark the paused collection idle again", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    const { rawDb } = await import("@/lib/db/client");
    // The disconnect commits while a page is between its fetch and its commit (the page's own
    // transaction then sees the collection paused): simulated on every page of the backfill.
    const e = engine({
      hooks: {
        beforeCommit: ({ userId }) => {
          rawDb().prepare(`UPDATE sync_state SET status = 'paused' WHERE userId = ?`).run(userId);
        },
      },
    });
    const [outcome] = await e.backfillUser(p.userId, ["daily_sleep"]);
    expect(outcome?.result).toBe("done");
    expect((await m.state.getSyncState(p.userId, "daily_sleep"))?.status).toBe("paused");
  });

  it("the account active again resumes it", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await m.state.ensureSyncStates(p.userId, ["daily_sleep"]);
    await m.state.updateSyncState(p.userId, "daily_sleep", { status: "paused" });
    await m.state.updateSyncState(p.userId, "daily_sleep", { status: "idle" });
    expect((await m.state.getSyncState(p.userId, "daily_sleep"))?.status).toBe("paused");
    await m.state.updateSyncState(p.userId, "daily_sleep", { status: "idle" }, { resume: true });
    expect((await m.state.getSyncState(p.userId, "daily_sleep"))?.status).toBe("idle");
  });
});
