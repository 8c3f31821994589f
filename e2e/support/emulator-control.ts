import { E2E_CLIENT, E2E_EMULATOR_URL } from "./ports";

export type EmulatorUser = { user_id: string; email: string };
export type FaultSpec = {
  status: number;
  count: number;
  path_prefix?: string;
  retry_after?: number;
  tier?: "token" | "application";
  delay_ms?: number;
};

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${E2E_EMULATOR_URL}${path}`, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`emulator ${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The emulator's control API (ARCHITECTURE.md "Emulator contract"), for specs. */
export const emulatorControl = {
  url: E2E_EMULATOR_URL,
  /** Empty state; the demo client comes back by itself, the e2e client is registered again. */
  async reset() {
    await call("POST", "/_emulator/reset");
    await this.ensureClient();
  },
  async ensureClient() {
    const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(E2E_CLIENT),
    });
    if (!res.ok && res.status !== 409) throw new Error(`could not register the e2e client: ${res.status}`);
  },
  createUser: (email: string, opts: { history_days?: number; subscription?: "active" | "expired" } = {}) =>
    call<EmulatorUser>("POST", "/_emulator/users", { email, ...opts }),
  patchUser: (userId: string, body: { subscription?: "active" | "expired" }) =>
    call<unknown>("PATCH", `/_emulator/users/${encodeURIComponent(userId)}`, body),
  sync: (userId: string, day?: string) =>
    call<Record<string, unknown[]>>("POST", `/_emulator/users/${encodeURIComponent(userId)}/sync`, day ? { day } : {}),
  documents: <T = Record<string, unknown>>(userId: string, collection: string) =>
    call<T[] | { data: T[] }>("GET", `/_emulator/users/${encodeURIComponent(userId)}/documents/${collection}`).then(
      (r) => (Array.isArray(r) ? r : r.data),
    ),
  faults: (spec: FaultSpec) => call<unknown>("POST", "/_emulator/faults", spec),
  deliveries: () => call<unknown[] | { data: unknown[] }>("GET", "/_emulator/webhook-deliveries"),
  requests: () => call<unknown[] | { data: unknown[] }>("GET", "/_emulator/requests"),
};

export type EmulatorControl = typeof emulatorControl;
