// 4. Rate-limit storm on both layers: several people backfill at once through the real
// scheduler and job table against an emulator with tight per-token and per-application
// windows, while bursts of injected 429s (both tiers) keep arriving. No request is sent before
// the time the 429's headers allow, and the sync finishes with every document stored.
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, diffDocuments, summarize } from "./support/app-db";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { pick } from "./support/env";
import { recordFigures, rng, sleep } from "./support/figures";
import { connectMintedPerson, useEmulatorInProcess } from "./support/in-process";
import { findLeaks, inProcessLogFile } from "./support/secrets";

const PEOPLE = pick(2, 3);
const HISTORY_DAYS = pick(40, 180);
const TOKEN_LIMIT = 25;
const APP_LIMIT = 40;
const WINDOW_S = 2;
const INJECTED_BURSTS = pick(4, 12);

let emu: Emulator;
let m: {
  db: typeof import("@/lib/test/prisma");
  tokens: typeof import("@/lib/ring/tokens");
  engine: typeof import("@/lib/sync/engine");
  scheduler: typeof import("@/lib/sync/scheduler");
  jobs: typeof import("@/lib/sync/jobs");
  rate: typeof import("@/lib/ring/rate-gate");
  state: typeof import("@/lib/db/queries/sync-state");
  docs: typeof import("@/lib/db/queries/ring-documents");
};

beforeAll(async () => {
  emu = await startChaosEmulator({ port: 0, pageSize: 5, historyDays: HISTORY_DAYS, rateLimit: TOKEN_LIMIT, appRateLimit: APP_LIMIT, rateWindowS: WINDOW_S });
  useEmulatorInProcess(emu);
  m = {
    db: await import("@/lib/test/prisma"),
    tokens: await import("@/lib/ring/tokens"),
    engine: await import("@/lib/sync/engine"),
    scheduler: await import("@/lib/sync/scheduler"),
    jobs: await import("@/lib/sync/jobs"),
    rate: await import("@/lib/ring/rate-gate"),
    state: await import("@/lib/db/queries/sync-state"),
    docs: await import("@/lib/db/queries/ring-documents"),
  };
});

afterAll(async () => {
  await m?.scheduler.replaceScheduler(null);
  await m?.db.db.$disconnect();
  await emu?.close();
});

type Sent = { token: string; sentAt: number; receivedAt: number; status: number; retryAfter: number | null; reset: number | null; tier: string | null };
type Pause = { tier: string; key: string | null; until: number; at: number };
type Pass = { key: string | null; at: number };

/** A gate that records every pause it is told about and every request it lets through. */
function recordingGate() {
  const pauses: Pause[] = [];
  const passes: Pass[] = [];
  class RecordingGate extends m.rate.RateGate {
    override async record(tier: "token" | "application", accountId: string | null, until: number): Promise<void> {
      pauses.push({ tier, key: accountId, until, at: clock.now() });
      await super.record(tier, accountId, until);
    }
    override async wait(accountId: string | null, signal?: AbortSignal): Promise<void> {
      await super.wait(accountId, signal);
      passes.push({ key: accountId, at: clock.now() });
    }
  }
  return { gate: new RecordingGate(), pauses, passes };
}

/** The network boundary: every request the app sends and what came back (times in ms). */
function recordingFetch(log: Sent[]): typeof fetch {
  return async (input, init) => {
    const auth = new Headers(init?.headers).get("authorization") ?? "";
    const sentAt = clock.now();
    const res = await fetch(input, init);
    const num = (h: string) => (res.headers.get(h) === null ? null : Number(res.headers.get(h)));
    log.push({
      token: crypto.createHash("sha256").update(auth).digest("hex").slice(0, 12),
      sentAt,
      receivedAt: clock.now(),
      status: res.status,
      retryAfter: num("retry-after"),
      reset: num("x-ratelimit-reset"),
      tier: res.headers.get("x-ratelimit-tier"),
    });
    return res;
  };
}

describe("[CHAOS 4] rate-limit storm", () => {
  it(`${PEOPLE} people backfill through windows of ${TOKEN_LIMIT}/token and ${APP_LIMIT}/app per ${WINDOW_S} s plus ${INJECTED_BURSTS} bursts of 429s`, async () => {
    const random = rng();
    const people: Array<{ userId: string; accountId: string; ringUserId: string }> = [];
    for (let i = 0; i < PEOPLE; i++) {
      people.push(
        await connectMintedPerson(m, emu, {
          tag: `storm-${i}`,
          role: i === 0 ? "owner" : "member",
          expiresAt: Math.floor(clock.now() / 1000) + 3600,
          emulatorTtlS: 3600,
        }),
      );
    }

    const sent: Sent[] = [];
    const { gate, pauses, passes } = recordingGate();
    const engine = new m.engine.SyncEngine({
      concurrency: 4,
      clientOptions: { gate, fetch: recordingFetch(sent), backoff: { baseMs: 20, maxMs: 500, maxRetries: 6 } },
    });
    const scheduler = new m.scheduler.Scheduler(engine, { concurrency: 4 * PEOPLE, idleMs: 100, housekeepingMs: 3_600_000 });
    for (const p of people) await m.jobs.enqueueBackfill(p.userId);
    const started = performance.now();
    await m.scheduler.replaceScheduler(scheduler);

    // The storm: bursts of injected 429s on both tiers while the backfills run.
    const done = async () => {
      for (const p of people) for (const c of COLLECTIONS) if (!(await m.state.getSyncState(p.userId, c))?.backfillDoneAt) return false;
      return true;
    };
    let bursts = 0;
    while (!(await done()) && performance.now() - started < 150_000) {
      if (bursts < INJECTED_BURSTS) {
        await emu.fault({
          status: 429,
          count: 1 + Math.floor(random() * 3),
          retry_after: 1 + Math.floor(random() * 2),
          tier: random() < 0.5 ? "application" : "token",
        });
        bursts++;
      }
      await sleep(300 + Math.floor(random() * 400));
    }
    const seconds = (performance.now() - started) / 1000;
    await m.scheduler.replaceScheduler(null);
    expect(await done()).toBe(true);

    // The sync finished: every person's documents, exactly.
    let documents = 0;
    for (const p of people) {
      for (const c of COLLECTIONS) {
        const d = diffDocuments(c, await emu.documents(p.ringUserId, c), await m.docs.listRawDocuments(c, p.userId));
        expect(summarize(d)).toEqual({ ...summarize(d), missing: 0, extra: 0, changed: 0, duplicates: 0, stored: d.expected, sample: [] });
        documents += d.stored;
      }
    }

    // Both layers fired, from the limiter and from the injected bursts.
    const limited = sent.filter((s) => s.status === 429);
    expect(limited.some((s) => s.tier === "token")).toBe(true);
    expect(limited.some((s) => s.tier === "application")).toBe(true);

    // Every 429 became a pause at least as long as its headers say (Retry-After and X-RateLimit-Reset).
    for (const s of limited) {
      const allowed = Math.max(s.retryAfter !== null ? s.receivedAt + s.retryAfter * 1000 : 0, s.reset !== null ? s.reset * 1000 : 0);
      const pause = pauses.find((p) => p.at >= s.receivedAt && p.tier === (s.tier === "application" ? "application" : "token") && p.until >= allowed);
      expect({ status: 429, tier: s.tier, paused: Boolean(pause) }).toEqual({ status: 429, tier: s.tier, paused: true });
    }
    // No request went out before the time allowed: a request let through after a pause was
    // recorded never passed before its end (application pauses hold everyone, token pauses that person).
    const early = passes.filter((g) => pauses.some((p) => p.at < g.at && g.at < p.until && (p.tier === "application" || p.key === g.key)));
    expect(early).toEqual([]);
    // At the network boundary: after a 429 reached the app, the same token (or, for the
    // application tier, anyone) sent nothing until that 429's headers allowed, except requests
    // that had already passed the gate before the pause was recorded.
    let inFlight = 0;
    for (const s of limited) {
      const allowed = Math.max(s.retryAfter !== null ? s.receivedAt + s.retryAfter * 1000 : 0, s.reset !== null ? s.reset * 1000 : 0);
      const recorded = pauses.find((p) => p.at >= s.receivedAt)?.at ?? s.receivedAt;
      const violators = sent.filter((x) => x.sentAt > recorded + 100 && x.sentAt < allowed && (s.tier === "application" || x.token === s.token));
      inFlight += sent.filter(
        (x) => x !== s && x.sentAt >= s.receivedAt && x.sentAt <= recorded + 100 && x.sentAt < allowed && (s.tier === "application" || x.token === s.token),
      ).length;
      expect({ at: s.receivedAt, tier: s.tier, violators: violators.length }).toEqual({ at: s.receivedAt, tier: s.tier, violators: 0 });
    }

    expect(findLeaks(emu.issuedSecrets(), [process.env.DATABASE_URL!.replace(/^file:/, ""), inProcessLogFile()])).toEqual([]);
    recordFigures("rate-limit-storm", {
      people: PEOPLE,
      historyDays: HISTORY_DAYS,
      tokenLimit: TOKEN_LIMIT,
      appLimit: APP_LIMIT,
      windowS: WINDOW_S,
      injectedBursts: bursts,
      requests: sent.length,
      answered429: limited.length,
      tokenTier: limited.filter((s) => s.tier === "token").length,
      applicationTier: limited.filter((s) => s.tier === "application").length,
      pauses: pauses.length,
      earlyRequests: 0,
      inFlightAtPause: inFlight,
      documents,
      missing: 0,
      seconds: Math.round(seconds),
    });
  });
});
