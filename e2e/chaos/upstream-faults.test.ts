// 5. Upstream faults, property-based (fast-check): bursts of 5xx, dropped connections, slow
// answers (within and beyond the request timeout) at random points of a backfill, on data
// routes, personal_info and the token endpoint; and documents with unexpected nulls, missing
// keys and extra keys. The sync survives with a clear state (a readable error while it retries,
// idle and complete afterwards), nothing is lost, nothing crashes.
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateSchema } from "@/lib/emulator/openapi";
import { COLLECTIONS, diffDocuments, keyedByDay, keyOf, summarize, type Collection } from "./support/app-db";
import { startChaosEmulator, type Emulator, type FaultSpec } from "./support/emulator";
import { pick } from "./support/env";
import { recordFigures, rng, SEED } from "./support/figures";
import { connectMintedPerson, useEmulatorInProcess } from "./support/in-process";
import { startProxy, type Proxy } from "./support/proxy";
import { findLeaks, inProcessLogFile } from "./support/secrets";
import { getResource } from "@/lib/resources";

const FAULT_RUNS = pick(10, 60);
const DOCUMENT_RUNS = pick(10, 60);
const HISTORY_DAYS = 20;
const TIMEOUT_MS = 400;

let emu: Emulator;
let m: {
  db: typeof import("@/lib/test/prisma");
  tokens: typeof import("@/lib/ring/tokens");
  engine: typeof import("@/lib/sync/engine");
  rate: typeof import("@/lib/ring/rate-gate");
  state: typeof import("@/lib/db/queries/sync-state");
  docs: typeof import("@/lib/db/queries/ring-documents");
  status: typeof import("@/lib/sync/status");
};
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  emu = await startChaosEmulator({ port: 0, pageSize: 5, historyDays: HISTORY_DAYS });
  useEmulatorInProcess(emu, { requestTimeoutMs: 5_000 });
  m = {
    db: await import("@/lib/test/prisma"),
    tokens: await import("@/lib/ring/tokens"),
    engine: await import("@/lib/sync/engine"),
    rate: await import("@/lib/ring/rate-gate"),
    state: await import("@/lib/db/queries/sync-state"),
    docs: await import("@/lib/db/queries/ring-documents"),
    status: await import("@/lib/sync/status"),
  };
});

afterAll(async () => {
  await m?.db.db.$disconnect();
  await emu?.close();
});

function person(opts: { expiresAt: number }) {
  return connectMintedPerson(m, emu, { tag: "faults", emulatorTtlS: 3600, ...opts });
}

// ---------------------------------------------------------------------------------------------
// Transport faults
// ---------------------------------------------------------------------------------------------

const faultArb: fc.Arbitrary<FaultSpec> = fc.oneof(
  fc.record({ status: fc.constantFrom(500, 502, 503, 504), count: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ status: fc.constant<"drop">("drop"), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ delay_ms: fc.integer({ min: 20, max: 250 }), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ delay_ms: fc.integer({ min: TIMEOUT_MS + 200, max: TIMEOUT_MS + 700 }), count: fc.integer({ min: 1, max: 2 }) }),
);
const placedFaultArb = fc.record({
  fault: faultArb,
  path: fc.constantFrom(
    undefined,
    "/v2/usercollection/daily_sleep",
    "/v2/usercollection/sleep",
    "/v2/usercollection/daily_readiness",
    "/v2/usercollection/personal_info",
    "/oauth/token",
  ),
  afterPages: fc.integer({ min: 0, max: 25 }),
});

/** Faults on the token endpoint only in forms the service cannot have acted on (errors, drops, answers within the timeout). */
function applicable(f: { fault: FaultSpec; path?: string }): boolean {
  return !(f.path === "/oauth/token" && (f.fault.delay_ms ?? 0) > 2_000);
}

const CLEAR_ERROR =
  /^(The ring service failed \(HTTP 5\d\d\); retrying later\.|The ring service did not answer \((timed out|no answer)\); retrying later\.|The ring service could not renew the access \((HTTP 5\d\d|no answer)\); retrying later\.)$/;

describe("[CHAOS 5] upstream faults", () => {
  it(`transport faults at random points of a backfill (${FAULT_RUNS} runs): clear state meanwhile, complete afterwards`, async () => {
    let runs = 0;
    let failedRounds = 0;
    let faultsPlaced = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(placedFaultArb, { minLength: 1, maxLength: 6 }).map((a) => a.filter(applicable)),
        async (plan) => {
          runs++;
          await emu.clearFaults();
          // The token is due for a refresh, so the token endpoint is on the path too.
          const p = await person({ expiresAt: Math.floor(clock.now() / 1000) + 30 });
          let pages = 0;
          const pending = [...plan].sort((a, b) => a.afterPages - b.afterPages);
          const place = async () => {
            while (pending.length > 0 && pending[0]!.afterPages <= pages) {
              const f = pending.shift()!;
              await emu.fault({ ...f.fault, ...(f.path ? { path_prefix: f.path } : {}) });
              faultsPlaced++;
            }
          };
          await place();
          const engine = new m.engine.SyncEngine({
            concurrency: 4,
            clientOptions: { gate: new m.rate.RateGate(), timeoutMs: TIMEOUT_MS, backoff: { baseMs: 5, maxMs: 40, maxRetries: 2 } },
            hooks: {
              afterPage: async () => {
                pages++;
                await place();
              },
            },
          });
          // The job runner's part: failed collections are run again (the faults are finite).
          for (let round = 0; round < 12; round++) {
            const outcomes = await engine.backfillUser(p.userId);
            const failed = outcomes.filter((o) => o.result === "failed");
            if (failed.length === 0) break;
            failedRounds++;
            for (const f of failed) {
              const s = (await m.state.getSyncState(p.userId, f.collection))!;
              // A clear state while it retries: still backfilling, a readable reason without URLs or tokens.
              expect({ c: f.collection, status: s.status, backfillDoneAt: s.backfillDoneAt }).toEqual({
                c: f.collection,
                status: "backfilling",
                backfillDoneAt: null,
              });
              expect(s.lastError ?? "").toMatch(CLEAR_ERROR);
            }
            if (round === 11) throw new Error(`still failing after 12 rounds: ${failed.map((f) => `${f.collection}: ${f.reason}`).join("; ")}`);
          }
          for (let round = 0; ; round++) {
            try {
              await engine.snapshotPersonalInfo(p.userId);
              break;
            } catch (err) {
              // The job is retried later, as the scheduler would; a transport error, nothing else.
              expect((err as Error).name).toBe("RingApiError");
              if (round === 11) throw err;
            }
          }
          await emu.clearFaults();
          for (const c of COLLECTIONS) {
            const d = diffDocuments(c, await emu.documents(p.ringUserId, c), await m.docs.listRawDocuments(c, p.userId));
            expect(summarize(d)).toEqual({ ...summarize(d), missing: 0, extra: 0, changed: 0, duplicates: 0, stored: d.expected, sample: [] });
            const s = (await m.state.getSyncState(p.userId, c))!;
            expect({ c, status: s.status, error: s.lastError }).toEqual({ c, status: "idle", error: null });
          }
          const account = await m.db.db.account.findUniqueOrThrow({ where: { id: p.accountId } });
          expect(account.status).toBe("active");
        },
      ),
      { numRuns: FAULT_RUNS, seed: SEED, endOnFailure: true },
    );
    figures.transport = { runs, faultsPlaced, roundsThatFailedAndRetried: failedRounds, lost: 0 };
  });

  it(`documents with unexpected nulls, missing keys and extra keys (${DOCUMENT_RUNS} runs): stored or set aside, never lost`, async () => {
    const planArb = fc.record({
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
      pNull: fc.double({ min: 0, max: 0.5, noNaN: true }),
      pDrop: fc.double({ min: 0, max: 0.5, noNaN: true }),
      pExtra: fc.double({ min: 0, max: 1, noNaN: true }),
      pNested: fc.double({ min: 0, max: 1, noNaN: true }),
      extras: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    });
    type Plan = typeof planArb extends fc.Arbitrary<infer T> ? T : never;

    let plan: Plan | null = null;
    const sent = new Map<string, { collection: Collection; text: string; contractOk: boolean }>();
    let personalInfoSent: unknown = null;

    /** The suite's PRNG, seeded per (seed, salt) so each document's mutation is reproducible. */
    function prng(seed: number, salt: string): () => number {
      return rng(crypto.createHash("sha256").update(`${seed}:${salt}`).digest().readUInt32LE(0));
    }
    function mutate(obj: Record<string, unknown>, p: Plan, r: () => number, depth: number): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(obj)) {
        const x = r();
        if (x < p.pDrop) continue;
        if (x < p.pDrop + p.pNull) out[k] = null;
        else if (v && typeof v === "object" && !Array.isArray(v) && depth < 2 && r() < p.pNested)
          out[k] = mutate(v as Record<string, unknown>, p, r, depth + 1);
        else out[k] = v;
      }
      if (r() < p.pExtra) for (const [k, v] of Object.entries(p.extras)) if (!(k in obj)) out[k] = v;
      return out;
    }
    const rewrite = (pathname: string, body: unknown): unknown => {
      if (!plan) return body;
      const p = plan;
      const list = /^\/v2\/usercollection\/([A-Za-z_0-9]+)$/.exec(pathname);
      // the document collections' lists (a time series' rows are samples, not documents)
      if (
        list &&
        (COLLECTIONS as readonly string[]).includes(list[1]!) &&
        body &&
        typeof body === "object" &&
        Array.isArray((body as { data?: unknown }).data)
      ) {
        const collection = list[1] as Collection;
        const data = (body as { data: Array<Record<string, unknown>> }).data.map((d) => {
          const mutated = mutate(d, p, prng(p.seed, `${collection}:${String(d.id)}`), 0);
          const key = `${collection}|${keyOf(collection, d)}`;
          sent.set(key, { collection, text: JSON.stringify(mutated), contractOk: validateSchema(getResource(collection).openapiModel, mutated).ok });
          return mutated;
        });
        return { ...(body as object), ...p.extras, data, next_token: (body as { next_token?: unknown }).next_token ?? null };
      }
      if (pathname === "/v2/usercollection/personal_info" && body && typeof body === "object") {
        personalInfoSent = mutate(body as Record<string, unknown>, p, prng(p.seed, "personal_info"), 0);
        return personalInfoSent;
      }
      return body;
    };
    const proxy: Proxy = await startProxy(emu.url, rewrite);
    let runs = 0;
    let documents = 0;
    let outOfContract = 0;
    let setAside = 0;
    try {
      await fc.assert(
        fc.asyncProperty(planArb, async (p) => {
          runs++;
          plan = p;
          sent.clear();
          personalInfoSent = null;
          const person_ = await person({ expiresAt: Math.floor(clock.now() / 1000) + 3600 });
          const engine = new m.engine.SyncEngine({
            concurrency: 4,
            clientOptions: { baseUrl: proxy.url, gate: new m.rate.RateGate(), backoff: { baseMs: 5, maxMs: 40, maxRetries: 2 } },
          });
          const outcomes = await engine.backfillUser(person_.userId);
          // The documents never fail a collection: each is stored or set aside on its own.
          expect(outcomes.filter((o) => o.result !== "done" && o.reason !== "cycle_off").map((o) => `${o.collection}: ${o.reason}`)).toEqual([]);
          const rejected = (await m.db.db.rejectedDocument.findMany({ where: { userId: person_.userId } })).map((r) => ({
            key: `${r.collection}|${keyedByDay(r.collection as Collection) ? r.day : (r.documentId ?? r.day)}`,
            raw: r.raw,
            error: r.error,
          }));
          const rejectedKeys = new Set(rejected.map((r) => r.key));
          for (const [key, s] of sent) {
            const stored = (await m.docs.listRawDocuments(s.collection, person_.userId)).find((r) => `${s.collection}|${keyOf(s.collection, r)}` === key);
            documents++;
            if (s.contractOk) {
              // What the OpenAPI document allows is stored exactly as sent.
              expect({ key, stored: stored?.raw === s.text }).toEqual({ key, stored: true });
            } else {
              outOfContract++;
              // What it does not allow is stored, or set aside with a reason — never silently dropped.
              const kept = stored?.raw === s.text || rejectedKeys.has(key) || rejected.some((r) => r.raw === s.text);
              expect({ key, kept }).toEqual({ key, kept: true });
              if (!stored) setAside++;
            }
          }
          for (const r of rejected) expect(r.error.length).toBeGreaterThan(0);
          // The state is clear: every collection idle, the set-aside documents counted on the status page.
          const status = await m.status.getSyncStatus(person_.userId);
          expect(status.totals.rejected).toBe(rejected.length);
          for (const c of COLLECTIONS) expect((await m.state.getSyncState(person_.userId, c))?.status).toBe("idle");
          // personal_info: taken when valid, a clear error otherwise, never a crash.
          try {
            await engine.snapshotPersonalInfo(person_.userId);
          } catch (err) {
            expect((err as Error).name).toBe("RingApiError");
            expect(validateSchema("PersonalInfoResponse", personalInfoSent).ok).toBe(false);
          }
        }),
        { numRuns: DOCUMENT_RUNS, seed: SEED, endOnFailure: true },
      );
    } finally {
      plan = null;
      await proxy.close();
    }
    figures.documents = { runs, documents, outOfContract, setAside, lost: 0 };
  });

  it("a token answer slower than the request timeout: a clear 'reconnect' state, nothing stored lost, no crash", async () => {
    // The service rotates the refresh token, but its answer arrives after the app gave up: the
    // app's refresh token is spent (single use). Nothing can renew it; the person must reconnect.
    const p = await person({ expiresAt: Math.floor(clock.now() / 1000) + 3600 });
    const engine = new m.engine.SyncEngine({
      concurrency: 4,
      clientOptions: { gate: new m.rate.RateGate(), backoff: { baseMs: 5, maxMs: 40, maxRetries: 2 } },
    });
    expect((await engine.backfillUser(p.userId)).filter((o) => o.result !== "done" && o.reason !== "cycle_off")).toEqual([]);
    const stored = (await Promise.all(COLLECTIONS.map((c) => m.docs.listRawDocuments(c, p.userId)))).reduce((n, rows) => n + rows.length, 0);
    await m.db.db.account.update({ where: { id: p.accountId }, data: { expires_at: Math.floor(clock.now() / 1000) } });
    await emu.fault({ delay_ms: 5_600, count: 1, path_prefix: "/oauth/token" });
    const first = await engine.incrementalCollection(p.userId, "daily_sleep").catch((e: unknown) => e);
    expect((first as Error).name).toBe("TokenRefreshError");
    expect((await m.state.getSyncState(p.userId, "daily_sleep"))?.lastError).toBe("The ring service could not renew the access (no answer); retrying later.");
    await new Promise((r) => setTimeout(r, 800)); // the service finishes the rotation meanwhile
    const second = await engine.incrementalCollection(p.userId, "daily_sleep").catch((e: unknown) => e);
    expect((second as Error).name).toBe("ReconnectRequiredError");
    const account = await m.db.db.account.findUniqueOrThrow({ where: { id: p.accountId } });
    expect({ status: account.status, reason: account.statusReason }).toEqual({ status: "needs_reconnect", reason: "invalid_grant" });
    const s = (await m.state.getSyncState(p.userId, "daily_sleep"))!;
    expect({ status: s.status, error: s.lastError }).toEqual({ status: "paused", error: "The ring connection needs to be reconnected; syncing is paused." });
    expect((await Promise.all(COLLECTIONS.map((c) => m.docs.listRawDocuments(c, p.userId)))).reduce((n, rows) => n + rows.length, 0)).toBe(stored);
    figures.slowTokenEndpoint = { outcome: "needs_reconnect", documentsKept: stored };
  });

  it("no token reached the database file or a log line", () => {
    const file = process.env.DATABASE_URL!.replace(/^file:/, "");
    expect(findLeaks(emu.issuedSecrets(), [file, `${file}-wal`, inProcessLogFile()])).toEqual([]);
    recordFigures("upstream-faults", figures);
  });
});
