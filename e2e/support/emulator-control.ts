import { E2E_CLIENT, E2E_EMULATOR_URL } from "./ports";

export type EmulatorUser = { user_id: string; email: string };
/**
 * A test person at the emulator (POST /_emulator/users): its data derives from `data_key` and
 * the run's seed, not from its e-mail; with `wear: "always"` it wore the ring every day but
 * `not_worn_days`; `nights` plants nights without a sleep; `tz_offset_minutes` is its time zone.
 */
export type TestPerson = {
  history_days?: number;
  subscription?: "active" | "expired";
  data_key?: string;
  wear?: "generated" | "always";
  not_worn_days?: string[];
  /** nights (the day they end on) planted without a sleep: in the charger all night, worn without a sleep, or with rest mode on */
  nights?: Record<string, "charger" | "no_sleep" | "rest_mode">;
  tz_offset_minutes?: number;
};
export type WebhookDelivery = {
  subscription_id: string;
  callback_url: string;
  event_type: string;
  data_type: string;
  object_id: string;
  user_id: string;
  attempt: number;
  status: number | null;
  error: string | null;
  ok: boolean;
  time: string;
};
export type EmulatorRequest = {
  time: string;
  method: string;
  path: string;
  status: number;
  kind: string;
  rate_limit_tier: string | null;
  token_fingerprint: string | null;
  client_id: string | null;
  user_id: string | null;
  grant_type: string | null;
  fault: boolean;
  duration_ms: number;
};
export type FaultSpec = {
  status?: number | "drop";
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
  createUser: (email: string, opts: TestPerson = {}) => call<EmulatorUser>("POST", "/_emulator/users", { email, ...opts }),
  patchUser: (userId: string, body: { subscription?: "active" | "expired" }) => call<unknown>("PATCH", `/_emulator/users/${encodeURIComponent(userId)}`, body),
  sync: (userId: string, day?: string) =>
    call<{ day: string; documents: Record<string, unknown[]> }>("POST", `/_emulator/users/${encodeURIComponent(userId)}/sync`, day ? { day } : {}),
  documents: <T = Record<string, unknown>>(userId: string, collection: string) =>
    call<{ data: T[] }>("GET", `/_emulator/users/${encodeURIComponent(userId)}/documents/${collection}`).then((r) => r.data),
  deleteDocument: (userId: string, collection: string, documentId: string) =>
    call<unknown>("POST", `/_emulator/users/${encodeURIComponent(userId)}/documents/${collection}/${encodeURIComponent(documentId)}/delete`),
  faults: (spec: Partial<FaultSpec> & { count: number; status?: number | "drop" }) => call<unknown>("POST", "/_emulator/faults", spec),
  clearFaults: () => call<unknown>("DELETE", "/_emulator/faults"),
  deliveries: () => call<{ deliveries: WebhookDelivery[]; pending: number }>("GET", "/_emulator/webhook-deliveries"),
  requests: (query: { kind?: string; path_prefix?: string } = {}) =>
    call<{ requests: EmulatorRequest[] }>("GET", `/_emulator/requests?${new URLSearchParams(query)}`).then((r) => r.requests),
  clearRequests: () => call<unknown>("DELETE", "/_emulator/requests"),
};

export type EmulatorControl = typeof emulatorControl;
