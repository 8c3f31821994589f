// Test support for the sync integration tests (never imported by the app): an in-process
// emulator, the app pointed at it, and connected people (User + Account rows with tokens
// from the emulator's real OAuth flow, encrypted with lib/ring/tokens.ts).
import { suiteEmulatorConfig } from "@/lib/test/suite-env.mjs";
import { clock } from "@/lib/clock";
import type { EmulatorConfig } from "@/lib/emulator/config";
import { realClock } from "@/lib/emulator/clock";
import type { EmulatorOptions } from "@/lib/emulator/handler";
import { startEmulator, type RunningEmulator } from "@/lib/emulator/server";
import { connect, registerClient, uniqueEmail, type Client } from "@/lib/test/emulator-kit";
import type { RingCollection, SeriesCollection } from "@/lib/resources";

/** Retries that keep a test quick: 20 ms doubling to 200 ms, six of them. */
export const FAST_BACKOFF = { baseMs: 20, maxMs: 200, maxRetries: 6 };

export type SyncTestEnv = {
  emu: RunningEmulator;
  url: string;
  client: Client;
  close(): Promise<void>;
};

/**
 * The emulator's options with its clock standing still at `instant` (its timers still real):
 * "today"'s samples do not grow while a test compares what a sync stored with what the emulator
 * serves (on a busy machine a back-fill spans a new sample).
 */
export function standingEmulator(instant: number): EmulatorOptions {
  return { clock: { ...realClock(), now: () => instant } };
}

/**
 * Starts the emulator (page size 7 and 1826 days of history unless overridden) and points
 * the app's environment at it. Import app modules only after this (env is read at import).
 */
export async function startSyncTestEnv(
  overrides: Partial<EmulatorConfig> = {},
  env: Record<string, string> = {},
  options: EmulatorOptions = {},
): Promise<SyncTestEnv> {
  const emu = await startEmulator(
    {
      port: 0,
      pageSize: 7,
      historyDays: 1826,
      webhookDelayMs: 0,
      webhookRetryMs: 50,
      ...suiteEmulatorConfig(),
      ...overrides,
    },
    options,
  );
  const client = await registerClient(emu.url, { approved: true, redirect_uris: ["http://localhost:3999/api/auth/callback/ring"] });
  process.env.RING_API_BASE_URL = emu.url;
  process.env.RING_CLIENT_ID = client.client_id;
  process.env.RING_CLIENT_SECRET = client.client_secret;
  process.env.SYNC_DISABLED = "1";
  process.env.RING_REQUEST_TIMEOUT_MS = "10000";
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  return { emu, url: emu.url, client, close: () => emu.close() };
}

export type ConnectedPerson = { userId: string; accountId: string; ringUserId: string; email: string };

/**
 * Runs the emulator's OAuth flow and stores the person as the auth code would (encrypted tokens).
 * `tracksCycle`: the person has turned cycle tracking on (the sync fetches the cycle's phases only
 * then); a test that compares every collection with the emulator needs it.
 */
export async function connectPerson(t: SyncTestEnv, opts: { email?: string; grant?: string; tracksCycle?: boolean } = {}): Promise<ConnectedPerson> {
  const email = opts.email ?? uniqueEmail("sync");
  const token = await connect(t.url, t.client, { email, grant: opts.grant });
  const { db } = await import("@/lib/test/prisma");
  const { encryptToken } = await import("@/lib/ring/tokens");
  const user = await db.user.create({ data: { email, role: "owner", ringUserId: token.user_id } });
  const account = await db.account.create({
    data: {
      userId: user.id,
      type: "oauth",
      provider: "ring",
      providerAccountId: token.user_id,
      access_token: encryptToken(token.access_token),
      refresh_token: encryptToken(token.refresh_token),
      expires_at: Math.floor(clock.now() / 1000) + token.expires_in,
      token_type: "bearer",
      scope: token.scope,
      status: "active",
      tokenUpdatedAt: clock.date(),
    },
  });
  if (opts.tracksCycle) await (await import("@/lib/db/queries/cycle")).saveCycleSettingsRow(user.id, { tracking: true });
  return { userId: user.id, accountId: account.id, ringUserId: token.user_id, email };
}

type Doc = Record<string, unknown>;

/** Every document the emulator holds for a person in one collection. */
export async function emulatorDocuments(t: SyncTestEnv, ringUserId: string, collection: RingCollection): Promise<Doc[]> {
  const res = await fetch(`${t.url}/_emulator/users/${encodeURIComponent(ringUserId)}/documents/${collection}`);
  if (!res.ok) throw new Error(`emulator documents ${collection}: ${res.status}`);
  const body = (await res.json()) as { data: Doc[] };
  return body.data;
}

export type EmulatorRequest = {
  time: string;
  method: string;
  path: string;
  status: number;
  token_fingerprint: string | null;
  user_id: string | null;
  rate_limit_tier: string | null;
  fault: boolean;
};

export async function emulatorRequests(t: SyncTestEnv, pathPrefix = "/v2/"): Promise<EmulatorRequest[]> {
  const res = await fetch(`${t.url}/_emulator/requests?path_prefix=${encodeURIComponent(pathPrefix)}`);
  return ((await res.json()) as { requests: EmulatorRequest[] }).requests;
}

export async function clearEmulatorRequests(t: SyncTestEnv): Promise<void> {
  await fetch(`${t.url}/_emulator/requests`, { method: "DELETE" });
}

export async function emulatorFault(
  t: SyncTestEnv,
  fault: { status?: number; count?: number; path_prefix?: string; retry_after?: number; tier?: "token" | "application"; delay_ms?: number },
): Promise<void> {
  const res = await fetch(`${t.url}/_emulator/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fault) });
  if (!res.ok) throw new Error(`fault: ${res.status} ${await res.text()}`);
}

export async function emulatorControl(t: SyncTestEnv, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${t.url}/_emulator${path}`, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`emulator ${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** Compares stored documents with the emulator's: same keys, same JSON. Returns the differences. */
export async function compareWithEmulator(
  t: SyncTestEnv,
  person: ConnectedPerson,
  collection: RingCollection,
): Promise<{ expected: number; stored: number; missing: string[]; extra: string[]; changed: string[] }> {
  const { listRawDocuments } = await import("@/lib/db/queries/ring-documents");
  const upstream = await emulatorDocuments(t, person.ringUserId, collection);
  const keyOf = (d: Doc) => String(collection === "daily_cardiovascular_age" ? d.day : d.id);
  const want = new Map(upstream.map((d) => [keyOf(d), JSON.stringify(d)]));
  const stored = await listRawDocuments(collection, person.userId);
  const have = new Map(stored.map((r) => [collection === "daily_cardiovascular_age" ? String(r.day) : String(r.documentId), r.raw]));
  const missing = [...want.keys()].filter((k) => !have.has(k));
  const extra = [...have.keys()].filter((k) => !want.has(k));
  const changed = [...want.keys()].filter((k) => have.has(k) && have.get(k) !== want.get(k));
  return { expected: upstream.length, stored: stored.length, missing, extra, changed };
}

/** Every sample of a time series the emulator serves for a person (optionally one window), as served. */
export async function emulatorSamples(
  t: SyncTestEnv,
  ringUserId: string,
  collection: SeriesCollection,
  window: { start?: string; end?: string } = {},
): Promise<Doc[]> {
  const q = new URLSearchParams(Object.entries(window).filter((e): e is [string, string] => typeof e[1] === "string"));
  const res = await fetch(`${t.url}/_emulator/users/${encodeURIComponent(ringUserId)}/documents/${collection}${q.size ? `?${q}` : ""}`);
  if (!res.ok) throw new Error(`emulator samples ${collection}: ${res.status}`);
  return ((await res.json()) as { data: Doc[] }).data;
}

/** Every stored sample of a person's time series, as the export writes it (the service's row shape), in time order. */
export async function storedSamples(person: ConnectedPerson, collection: SeriesCollection): Promise<Doc[]> {
  const { readSamplePage } = await import("@/lib/db/queries/time-series");
  const { sampleRow } = await import("@/lib/db/sample-codec");
  const { sampleSpecOf } = await import("@/lib/resources");
  const out: Doc[] = [];
  let after: string | null = null;
  do {
    const page = await readSamplePage({ collection, userId: person.userId, after, limit: 200 });
    for (const d of page.days) for (const s of d.samples) out.push(sampleRow(sampleSpecOf(collection), s));
    after = page.next;
  } while (after);
  return out;
}

/** Stored samples against the emulator's: counts, and the first sample that differs (none when equal). */
export async function compareSeriesWithEmulator(
  t: SyncTestEnv,
  person: ConnectedPerson,
  collection: SeriesCollection,
): Promise<{ expected: number; stored: number; firstDifference: { index: number; want: Doc | null; have: Doc | null } | null }> {
  const want = await emulatorSamples(t, person.ringUserId, collection);
  const have = await storedSamples(person, collection);
  let firstDifference = null;
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    if (JSON.stringify(want[i] ?? null) !== JSON.stringify(have[i] ?? null)) {
      firstDifference = { index: i, want: want[i] ?? null, have: have[i] ?? null };
      break;
    }
  }
  return { expected: want.length, stored: have.length, firstDifference };
}

/**
 * The app modules the sync tests drive, imported after startSyncTestEnv (they read the
 * environment it sets when first imported).
 */
export async function importSyncModules() {
  return {
    engine: await import("@/lib/sync/engine"),
    scheduler: await import("@/lib/sync/scheduler"),
    index: await import("@/lib/sync/index"),
    jobs: await import("@/lib/db/queries/jobs"),
    state: await import("@/lib/db/queries/sync-state"),
    docs: await import("@/lib/db/queries/ring-documents"),
    resources: await import("@/lib/resources"),
    db: await import("@/lib/test/prisma"),
  };
}
export type SyncModules = Awaited<ReturnType<typeof importSyncModules>>;
