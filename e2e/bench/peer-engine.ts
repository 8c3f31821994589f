// Ringside's side of `npm run bench:peer` (e2e/bench/peer.ts), one measure a process: the fetch
// floor of the peer's collections (floor.ts's fetchFloor: every page as the engine asks for it,
// with the engine's concurrency, nothing stored), or Ringside's own backfill of those collections
// (the sync engine in this process, SyncEngine.backfillUser restricted to them, on a fresh SQLite
// database, as mqtt.ts runs it). The engine's modules are server-only: peer.ts starts this with
// node --import tsx --conditions=react-server e2e/bench/peer-engine.ts '<PeerEngineJob as JSON>',
// and it prints one line: PEER_ENGINE {…PeerEngineFigures}.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { isSyncCollection, type SyncCollection } from "@/lib/resources";
import { fetchFloor } from "./floor";

const peerEngineJobSchema = z.object({
  what: z.enum(["floor", "ringside"]),
  emulatorUrl: z.url(),
  client: z.object({ client_id: z.string().min(1), client_secret: z.string().min(1) }),
  ringUserId: z.string().min(1),
  collections: z.array(z.string().refine(isSyncCollection, "a collection the engine syncs")).min(1),
});
export type PeerEngineJob = z.infer<typeof peerEngineJobSchema>;

export const peerEngineFiguresSchema = z.object({
  seconds: z.number(),
  /** requests to the collections' routes */
  requests: z.int(),
  /** requests in flight at most */
  in_flight: z.int(),
  /** documents stored (Ringside's backfill; null for the floor) */
  documents: z.int().nullable(),
  /** the days asked for */
  range: z.object({ from: z.string(), to: z.string() }),
});
export type PeerEngineFigures = z.infer<typeof peerEngineFiguresSchema>;

const tokenAnswerSchema = z.object({ access_token: z.string().min(1), refresh_token: z.string().min(1), scope: z.string(), user_id: z.string() });

/** A token for the bench person from the emulator's control API (every scope, as the bench's consent grants). */
async function mintToken(job: PeerEngineJob) {
  const res = await fetch(`${job.emulatorUrl}/_emulator/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: job.client.client_id, user_id: job.ringUserId }),
  });
  if (!res.ok) throw new Error(`the emulator's token: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return tokenAnswerSchema.parse(await res.json());
}

async function measure(job: PeerEngineJob): Promise<PeerEngineFigures> {
  const { createTestDatabase } = await import("@/lib/test/database");
  const { url, dir } = createTestDatabase();
  try {
    return await measureOn(job, url, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function measureOn(job: PeerEngineJob, url: string, dir: string): Promise<PeerEngineFigures> {
  const collections = job.collections as SyncCollection[];
  // read when lib/env.mjs is first imported (below): the emulator as the ring service, no scheduler
  Object.assign(process.env, {
    DATABASE_URL: url,
    DATA_DIR: dir,
    TOKEN_ENCRYPTION_KEY: "6b".repeat(32),
    AUTH_SECRET: "bench-auth-secret-not-for-production-0123456789",
    RING_API_BASE_URL: job.emulatorUrl,
    RING_CLIENT_ID: job.client.client_id,
    RING_CLIENT_SECRET: job.client.client_secret,
    SYNC_DISABLED: "1",
    LOG_LEVEL: "warn",
  });
  const [{ env }, plan] = await Promise.all([import("@/lib/env.mjs"), import("@/lib/sync/plan")]);
  // the days a new person's backfill asks for (engine/documents.ts: RING_BACKFILL_START to the latest possible day)
  const range = { from: env.RING_BACKFILL_START, to: plan.latestPossibleDay(Date.now()) };
  const token = await mintToken(job);
  const inFlight = plan.mostRequestsInFlight(collections);

  if (job.what === "floor") {
    const run = await fetchFloor({ emulatorUrl: job.emulatorUrl, accessToken: token.access_token, collections, range, concurrency: plan.SYNC_CONCURRENCY });
    const requests = [...run.requests.values()].reduce((a, b) => a + b, 0);
    return { seconds: run.wallMs / 1000, requests, in_flight: inFlight, documents: null, range };
  }

  // Ringside: a person connected with the minted tokens (as e2e/chaos/support/in-process.ts connects one), then the backfill
  const [{ db }, tokens, { SyncEngine }] = await Promise.all([import("@/lib/test/prisma"), import("@/lib/ring/tokens"), import("@/lib/sync/engine")]);
  const user = await db.user.create({ data: { email: `peer-side-${Date.now().toString(36)}@bench.example.test`, role: "owner", ringUserId: token.user_id } });
  await db.account.create({
    data: {
      userId: user.id,
      type: "oauth",
      provider: "ring",
      providerAccountId: token.user_id,
      access_token: tokens.encryptToken(token.access_token),
      refresh_token: tokens.encryptToken(token.refresh_token),
      expires_at: Math.floor(Date.now() / 1000) + 86_400,
      token_type: "bearer",
      scope: token.scope,
      status: "active",
    },
  });
  const engine = new SyncEngine();
  const started = performance.now();
  const outcomes = await engine.backfillUser(user.id, collections);
  const seconds = (performance.now() - started) / 1000;
  const notDone = outcomes.filter((o) => o.result !== "done");
  if (notDone.length > 0)
    throw new Error(`Ringside's backfill did not finish: ${notDone.map((o) => `${o.collection} ${o.result} ${o.reason ?? ""}`).join("; ")}`);
  const documents = outcomes.reduce((n, o) => n + (o.documents ?? 0), 0);
  return { seconds, requests: engine.stats.requests, in_flight: inFlight, documents, range };
}

// Run as a script (peer.ts): one job from the command line, one line of figures.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  measure(peerEngineJobSchema.parse(JSON.parse(process.argv[2] ?? "null"))).then(
    (figures) => {
      process.stdout.write(`PEER_ENGINE ${JSON.stringify(figures)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`peer-engine failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
