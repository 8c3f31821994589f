// The ring emulator for the chaos suite, in this test process: on the suite's port for the
// production app, or on a free port for in-process cases. Control API helpers and a view of
// every secret it ever issued (to look for them in the database and the logs).
import { suiteEmulatorConfig } from "@/lib/test/suite-env.mjs";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { EmulatorConfig } from "@/lib/emulator/config";
import { startEmulator, type RunningEmulator } from "@/lib/emulator/server";
import { CHAOS_CLIENT, CHAOS_DATA_DIR, EMULATOR_PORT } from "./env";

/** Where each emulator leaves the secrets it issued, for the suite-wide log scan (secrets.test.ts). */
export const ISSUED_DIR = path.join(CHAOS_DATA_DIR, "issued");

export type Doc = Record<string, unknown>;
// the control API's wire types, declared once beside its client (type-only: nothing of the UI suite loads)
import type { EmulatorRequest as RequestLogEntry, FaultSpec } from "../../support/emulator-control";
export type { RequestLogEntry, FaultSpec };
export type SyncEvent = { event_type: string; data_type: string; object_id: string; event_time: string; user_id: string };

export class Emulator {
  constructor(readonly running: RunningEmulator) {}

  get url(): string {
    return this.running.url;
  }

  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/_emulator${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator ${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  registerClient(client: { client_id: string; client_secret: string; redirect_uris: string[]; approved: boolean } = CHAOS_CLIENT) {
    return this.control("POST", "/clients", client);
  }

  createUser(email: string, opts: { history_days?: number; subscription?: "active" | "expired" } = {}) {
    return this.control<{ user_id: string; email: string; first_day: string; last_day: string }>("POST", "/users", { email, ...opts });
  }

  async documents(ringUserId: string, collection: string): Promise<Doc[]> {
    const r = await this.control<{ data: Doc[] }>("GET", `/users/${encodeURIComponent(ringUserId)}/documents/${collection}`);
    return r.data;
  }

  sync(ringUserId: string, day?: string) {
    return this.control<{ day: string; documents: Record<string, Doc[]>; events: SyncEvent[] }>(
      "POST",
      `/users/${encodeURIComponent(ringUserId)}/sync`,
      day ? { day } : {},
    );
  }

  deleteDocument(ringUserId: string, collection: string, id: string) {
    return this.control<{ events: SyncEvent[] }>("POST", `/users/${encodeURIComponent(ringUserId)}/documents/${collection}/${encodeURIComponent(id)}/delete`);
  }

  fault(spec: FaultSpec) {
    return this.control("POST", "/faults", spec);
  }

  clearFaults() {
    return this.control("DELETE", "/faults");
  }

  async requests(query: { kind?: string; path_prefix?: string } = {}): Promise<RequestLogEntry[]> {
    const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined) as [string, string][]);
    return (await this.control<{ requests: RequestLogEntry[] }>("GET", `/requests?${q}`)).requests;
  }

  clearRequests() {
    return this.control("DELETE", "/requests");
  }

  /** Tokens without the browser: `POST /_emulator/tokens` (the user counts as having authorized the client). */
  mintTokens(body: { client_id: string; email: string; scope?: string; expires_in?: number }) {
    return this.control<{ access_token: string; refresh_token: string; expires_in: number; scope: string; user_id: string }>("POST", "/tokens", body);
  }

  /** Every secret the emulator issued or holds: access and refresh tokens, codes, client secrets. */
  issuedSecrets(): string[] {
    const s = this.running.emulator.state;
    const out = new Set<string>();
    for (const k of s.accessTokens.keys()) out.add(k);
    for (const k of s.refreshTokens.keys()) out.add(k);
    for (const k of s.codes.keys()) out.add(k);
    for (const c of s.clients.values()) out.add(c.clientSecret);
    return [...out].filter((x) => x.length >= 12);
  }

  close(): Promise<void> {
    fs.mkdirSync(ISSUED_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(ISSUED_DIR, `${process.pid}-${this.running.port}-${crypto.randomUUID().slice(0, 8)}.json`),
      JSON.stringify(this.issuedSecrets()),
    );
    return this.running.close();
  }
}

/** The emulator on the suite's port (for the production app) or on a free one (`port: 0`). */
export async function startChaosEmulator(overrides: Partial<EmulatorConfig> = {}): Promise<Emulator> {
  const running = await startEmulator({
    host: "127.0.0.1",
    port: EMULATOR_PORT,
    pageSize: 7,
    webhookDelayMs: 0,
    webhookRetryMs: 50,
    // the run's clock and seed (lib/test/suite-env.mjs)
    ...suiteEmulatorConfig(),
    ...overrides,
  });
  const emu = new Emulator(running);
  await emu.registerClient();
  return emu;
}
