// Drives "Connect your ring" in-process for integration tests: Auth.js's route handlers
// (app/api/auth/[...nextauth]/route.ts) with a cookie jar, against a running emulator over
// HTTP. The caller sets the environment (RING_*) before `load()`, since lib/env.mjs reads it
// once at import.
import { suiteEmulatorConfig, suiteToday } from "@/lib/test/suite-env.mjs";
import { expect } from "vitest";
import { NextRequest } from "next/server";
import type { RunningEmulator } from "@/lib/emulator/server";

export type Jar = Map<string, string>;

/** The Cookie header of a jar. */
export function cookieHeader(jar: Jar): string {
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Takes an answer's Set-Cookie headers into the jar (expired or empty ones leave it). */
export function absorbCookies(jar: Jar, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair, ...attrs] = c.split(";");
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
}

/** A call to the emulator's control API (JSON in and out); throws on anything but 2xx. */
export async function emulatorControl<T = any>(emulatorUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(new URL(path, emulatorUrl), {
    method,
    redirect: "manual",
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export type FlowClient = { client_id: string; client_secret: string; redirect_uris: string[]; approved: boolean; portal?: string };

export class AuthFlow {
  /**
   * An emulator (the test suites' fixed day and short history) with `client` registered, and the
   * app's environment pointed at both (plus `env`); then `load()`.
   */
  static async start(app: string, client: FlowClient, env: (emulatorUrl: string) => Record<string, string> = () => ({})): Promise<AuthFlow> {
    const { startEmulator } = await import("@/lib/emulator/server");
    const emu = await startEmulator({ port: 0, tokenTtlS: 3600, historyDays: 5, webhookDelayMs: 0, today: suiteToday(), ...suiteEmulatorConfig() });
    const flow = new AuthFlow(app, emu);
    await flow.control("POST", "/_emulator/clients", client);
    Object.assign(process.env, {
      AUTH_URL: app,
      RING_API_BASE_URL: emu.url,
      RING_CLIENT_ID: client.client_id,
      RING_CLIENT_SECRET: client.client_secret,
      SYNC_DISABLED: "1",
      ...env(emu.url),
    });
    return flow;
  }

  route!: typeof import("@/app/api/auth/[...nextauth]/route");
  db!: (typeof import("@/lib/test/prisma"))["db"];

  constructor(
    readonly app: string,
    readonly emu: RunningEmulator,
  ) {}

  /** Ends the test file: the database connection and the emulator. */
  async close(): Promise<void> {
    await this.db?.$disconnect();
    await this.emu.close();
  }

  async load(): Promise<void> {
    this.route = await import("@/app/api/auth/[...nextauth]/route");
    this.db = (await import("@/lib/test/prisma")).db;
  }

  async appRequest(method: "GET" | "POST", path: string, jar: Jar, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { cookie: cookieHeader(jar) };
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const req = new NextRequest(new URL(path, this.app), { method, headers, body: form ? new URLSearchParams(form).toString() : undefined });
    const res = await (method === "GET" ? this.route.GET(req) : this.route.POST(req));
    absorbCookies(jar, res);
    return res;
  }

  emulator(path: string, init?: RequestInit): Promise<Response> {
    return fetch(new URL(path, this.emu.url), { redirect: "manual", ...init });
  }

  control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    return emulatorControl<T>(this.emu.url, method, path, body);
  }

  /** csrf + POST /api/auth/signin/ring; returns the authorize URL. */
  async startConnect(jar: Jar): Promise<URL> {
    const csrfRes = await this.appRequest("GET", "/api/auth/csrf", jar);
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const res = await this.appRequest("POST", "/api/auth/signin/ring", jar, { csrfToken, callbackUrl: `${this.app}/` });
    expect(res.status).toBe(302);
    return new URL(res.headers.get("location")!);
  }

  /** The consent page's answer: the redirect back to the app's callback. */
  async consent(authorize: URL, email: string, opts: { scopes?: string; decision?: "allow" | "deny" } = {}): Promise<URL> {
    const form = new URLSearchParams({ user: email, decision: opts.decision ?? "allow" });
    if (opts.scopes !== undefined) form.set("granted_scope", opts.scopes);
    const res = await this.emulator(`${authorize.pathname}${authorize.search}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status, await res.clone().text()).toBe(302);
    return new URL(res.headers.get("location")!);
  }

  /** GET the callback in the app; returns where the app sends the browser. */
  async finish(callback: URL, jar: Jar): Promise<URL> {
    const res = await this.appRequest("GET", `${callback.pathname}${callback.search}`, jar);
    expect(res.status).toBe(302);
    return new URL(res.headers.get("location")!, this.app);
  }

  async connect(email: string, opts: { scopes?: string; decision?: "allow" | "deny"; jar?: Jar } = {}) {
    const jar = opts.jar ?? new Map();
    const authorize = await this.startConnect(jar);
    const callback = await this.consent(authorize, email, opts);
    const landed = await this.finish(callback, jar);
    return { jar, authorize, callback, landed };
  }

  async counts() {
    return { users: await this.db.user.count(), accounts: await this.db.account.count(), sessions: await this.db.session.count() };
  }

  async ringIdOf(email: string): Promise<string> {
    return (await this.control<{ user_id: string }>("POST", "/_emulator/users", { email })).user_id;
  }

  async requests(kind: string): Promise<Array<{ user_id: string | null; status: number; provider: string | null; grant_type: string | null; path: string }>> {
    return (
      await this.control<{ requests: Array<{ user_id: string | null; status: number; provider: string | null; grant_type: string | null; path: string }> }>(
        "GET",
        `/_emulator/requests?kind=${kind}`,
      )
    ).requests;
  }
}
