// Helpers for the emulator's own tests: start a small emulator, run the OAuth flow over HTTP,
// call data routes. Not used by the emulator itself.
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { expect } from "vitest";
import { ManualClock, clock as suiteClock } from "@/lib/clock";
import { suiteEmulatorConfig, suiteToday } from "@/lib/test/suite-env.mjs";
import { DEFAULT_SEED, type EmulatorConfig } from "@/lib/emulator/config";
import { addDays, dayToIndex, indexToDay } from "@/lib/days";
import { COLLECTIONS, generateDay, type Collection } from "@/lib/emulator/generator";
import { ResourceSource, generateDayResources, ringReplacementIndex, type DayResource } from "@/lib/emulator/resources";
import type { EmulatorOptions } from "@/lib/emulator/handler";
import { startEmulator, type RunningEmulator } from "@/lib/emulator/server";
import { userIdFor } from "@/lib/emulator/store";

/** The suite's "today" and seed (lib/test/suite-env.mjs: fixed by default, set by RINGSIDE_TEST_NOW / RING_EMULATOR_SEED). */
export const TEST_TODAY = suiteToday();
export const TEST_SEED = process.env.RING_EMULATOR_SEED || DEFAULT_SEED;
export const DEMO = {
  client_id: "ringside-demo",
  client_secret: "ringside-demo-secret",
  redirect_uri: "http://localhost:3000/api/auth/callback/ring",
};

export function startTestEmulator(overrides: Partial<EmulatorConfig> = {}, options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator(
    {
      port: 0,
      pageSize: 7,
      webhookDelayMs: 0,
      webhookRetryMs: 20,
      historyDays: 40,
      ...suiteEmulatorConfig(),
      seed: TEST_SEED,
      today: TEST_TODAY,
      ...overrides,
    },
    options,
  );
}

/** An emulator on a ManualClock, and `advance(ms)`: the webhook deliveries due in that span run, then it resolves. */
export async function startManualClockEmulator(
  overrides: Partial<EmulatorConfig> = {},
): Promise<RunningEmulator & { clock: ManualClock; advance(ms: number): Promise<void> }> {
  const clock = new ManualClock(suiteClock.now());
  const emu = await startTestEmulator(overrides, { clock });
  return Object.assign(emu, { clock, advance: (ms: number) => clock.advance(ms, () => emu.emulator.settled()) });
}

/** Per tag, how many e-mails this test file has asked for (Vitest loads the module once per file). */
const issued = new Map<string, number>();

/**
 * A new e-mail, the same on every run: the test file, the tag and how many this file asked for
 * before. The emulator derives a person's data from it, so a test that searches for a person
 * with some property finds the same person on every run of one seed (never luck).
 */
export function uniqueEmail(tag = "u"): string {
  const n = (issued.get(tag) ?? 0) + 1;
  issued.set(tag, n);
  const file = expect.getState().testPath ?? "";
  const where = createHash("sha256").update(path.relative(process.cwd(), file)).digest("hex").slice(0, 6);
  return `${tag}-${where}-${n}@example.test`;
}

/**
 * A fresh e-mail whose generated user wore the ring on `days` (every collection has a
 * document) and whose first revision of `changeDay` (TEST_TODAY unless given) changes
 * `changing` — so tests that sync and wait for notifications do not depend on a random
 * user's data.
 */
export function wornEmail(
  tag = "w",
  days: string[] = [TEST_TODAY, addDays(TEST_TODAY, 1)],
  changing: Collection[] = ["daily_readiness", "daily_sleep", "sleep", "daily_activity", "daily_stress"],
  seed = TEST_SEED,
  changeDay = TEST_TODAY,
): string {
  for (let i = 0; i < 1000; i++) {
    const email = uniqueEmail(tag);
    const opts = { seed, userKey: userIdFor(seed, email) };
    if (!days.every((d) => COLLECTIONS.every((c) => generateDay(opts, d)[c].length > 0))) continue;
    const r0 = generateDay(opts, changeDay, 0);
    const r1 = generateDay(opts, changeDay, 1);
    if (changing.every((c) => JSON.stringify(r0[c]) !== JSON.stringify(r1[c]))) return email;
  }
  throw new Error("no suitable generated user found");
}

/**
 * A fresh e-mail whose generated user has, over `days` (revision 0, "today" = `today`), at
 * least one document of each of `want` — so resource tests do not depend on a random user.
 */
export function resourceEmail(
  tag: string,
  days: readonly string[],
  want: readonly DayResource[],
  opts: { worn?: readonly string[]; seed?: string; today?: string } = {},
): string {
  const seed = opts.seed ?? TEST_SEED;
  const today = opts.today ?? TEST_TODAY;
  for (let i = 0; i < 300; i++) {
    const email = uniqueEmail(tag);
    const userKey = userIdFor(seed, email);
    if (!(opts.worn ?? []).every((d) => generateDay({ seed, userKey }, d).sleep.some((s) => s.type === "long_sleep"))) continue;
    const src = new ResourceSource({ seed, userKey });
    const found = new Set<DayResource>();
    for (const d of days) {
      const r = generateDayResources(src, dayToIndex(d), 0, dayToIndex(today));
      for (const c of want) if (r[c].length > 0) found.add(c);
      if (found.size === want.length) return email;
    }
  }
  throw new Error(`no generated user with ${want.join(", ")}`);
}

/** The first day in [from, to] (walking back from `to`) on which sync would create a `want` document for this e-mail's user. */
export function dayWith(email: string, want: DayResource, from: string, to: string, seed = TEST_SEED, today = TEST_TODAY): string | null {
  const src = new ResourceSource({ seed, userKey: userIdFor(seed, email) });
  for (let idx = dayToIndex(to); idx >= dayToIndex(from); idx--)
    if (generateDayResources(src, idx, 0, dayToIndex(today))[want].length > 0) return indexToDay(idx);
  return null;
}

/** A day of `days` whose first revision changes (same ids, other values) a `want` document of this e-mail's user. */
export function revisedDay(email: string, want: DayResource, days: readonly string[], seed = TEST_SEED, today = TEST_TODAY): string | null {
  const src = new ResourceSource({ seed, userKey: userIdFor(seed, email) });
  for (const d of days) {
    const r0 = generateDayResources(src, dayToIndex(d), 0, dayToIndex(today))[want];
    const r1 = generateDayResources(src, dayToIndex(d), 1, dayToIndex(today))[want];
    if (r0.length > 0 && JSON.stringify(r0) !== JSON.stringify(r1)) return d;
  }
  return null;
}

/** A fresh e-mail whose ring is replaced within (after, after + withinDays]; returns it and that day. */
export function ringReplacedAfter(tag: string, after: string, withinDays: number, seed = TEST_SEED): { email: string; day: string } {
  for (let i = 0; i < 2000; i++) {
    const email = uniqueEmail(tag);
    const idx = ringReplacementIndex({ seed, userKey: userIdFor(seed, email) });
    if (idx > dayToIndex(after) && idx <= dayToIndex(after) + withinDays) return { email, day: indexToDay(idx) };
  }
  throw new Error("no generated user with a ring replaced in that span");
}

export function verifier(): string {
  return randomBytes(32).toString("base64url");
}

export function challengeOf(v: string): string {
  return createHash("sha256").update(v).digest("base64url");
}

export async function call(
  base: string,
  path: string,
  init: { method?: string; token?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | undefined;
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  if (init.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(`${base}${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as any, text };
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>, path = "/oauth/authorize"): string {
  const u = new URL(`${base}${path}`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/** POSTs the consent form; returns the redirect Location (or the page when there is none). */
export async function consent(
  url: string,
  form: { user?: string; decision: "allow" | "deny"; granted_scope?: string | string[] },
): Promise<{ status: number; location: URL | null; text: string }> {
  const body = new URLSearchParams();
  if (form.user !== undefined) body.set("user", form.user);
  if (Array.isArray(form.granted_scope)) for (const s of form.granted_scope) body.append("granted_scope", s);
  else if (form.granted_scope !== undefined) body.set("granted_scope", form.granted_scope);
  body.set("decision", form.decision);
  const res = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  const location = res.headers.get("location");
  return { status: res.status, location: location ? new URL(location) : null, text: await res.text() };
}

export type Client = { client_id: string; client_secret: string; redirect_uri: string };

export async function registerClient(base: string, opts: { approved?: boolean; redirect_uris?: string[] } = {}): Promise<Client> {
  const id = `c-${randomBytes(4).toString("hex")}`;
  const redirect_uris = opts.redirect_uris ?? [`http://localhost:3999/cb/${id}`];
  const client = { client_id: id, client_secret: `s-${randomBytes(8).toString("hex")}`, redirect_uris, approved: opts.approved ?? true };
  const r = await call(base, "/_emulator/clients", { json: client });
  if (r.status >= 300) throw new Error(`register client failed: ${r.text}`);
  return { client_id: id, client_secret: client.client_secret, redirect_uri: redirect_uris[0]! };
}

/** Code flow with PKCE, Basic client auth; returns the token response and the user id. */
export async function connect(
  base: string,
  client: Client = { ...DEMO },
  opts: { email?: string; scope?: string; grant?: string } = {},
): Promise<{ access_token: string; refresh_token: string; expires_in: number; scope: string; user_id: string; email: string }> {
  const v = verifier();
  const email = opts.email ?? uniqueEmail();
  const url = authorizeUrl(base, {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    scope: opts.scope,
    state: "st",
    code_challenge: challengeOf(v),
    code_challenge_method: "S256",
  });
  const answer = await consent(url, { user: email, decision: "allow", granted_scope: opts.grant });
  const code = answer.location?.searchParams.get("code");
  if (!code) throw new Error(`no code: ${answer.status} ${answer.location} ${answer.text.slice(0, 200)}`);
  const token = await call(base, "/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirect_uri,
      code_verifier: v,
      client_id: client.client_id,
      client_secret: client.client_secret,
    },
  });
  if (token.status !== 200) throw new Error(`token failed: ${token.text}`);
  const info = await call(base, "/v2/usercollection/personal_info", { token: token.body.access_token });
  return { ...token.body, user_id: info.body.id, email };
}

export type ReceivedPost = { at: number; path: string; headers: import("node:http").IncomingHttpHeaders; raw: string; body: any };

/** A webhook callback server on 127.0.0.1: answers the handshake, records POSTs. */
export class Receiver {
  readonly posts: ReceivedPost[] = [];
  readonly gets: URLSearchParams[] = [];
  handshake: "echo" | "wrong" | "401" = "echo";
  answer: (n: number) => number | "drop" = () => 200;
  private server!: import("node:http").Server;

  static async start(token = "verify-me"): Promise<Receiver> {
    const http = await import("node:http");
    const r = new Receiver(token);
    r.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const u = new URL(req.url ?? "/", "http://127.0.0.1");
        if (req.method === "GET") {
          r.gets.push(u.searchParams);
          const challenge = u.searchParams.get("challenge");
          if (r.handshake === "401" || u.searchParams.get("verification_token") !== r.token) {
            res.writeHead(401, { "content-type": "application/json" }).end('{"detail":"bad token"}');
          } else {
            res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: r.handshake === "wrong" ? "nope" : challenge }));
          }
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const n = r.posts.length;
        r.posts.push({ at: suiteClock.now(), path: u.pathname, headers: req.headers, raw, body: JSON.parse(raw || "null") });
        const a = r.answer(n);
        if (a === "drop") req.socket.destroy();
        else res.writeHead(a, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
    return r;
  }

  private constructor(readonly token: string) {}

  url(path = "/hook"): string {
    const addr = this.server.address() as import("node:net").AddressInfo;
    return `http://127.0.0.1:${addr.port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
