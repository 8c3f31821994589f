// In-memory state of the emulator: clients, users, authorization codes, tokens (with
// single-use refresh rotation), webhook subscriptions, faults and logs. A restart starts
// empty; only the generated data is deterministic (same seed + e-mail → same user and data).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { EmulatorConfig } from "./config";
import { addDays, dayToIndex, utcDay } from "@/lib/days";
import type { Portal, Scope } from "./providers";
import type { RateTier } from "./rate-limit";
import { UserDocuments } from "./user-data";
import type { NightKind } from "./generator";

export const IMPLICIT_TOKEN_TTL_S = 2_592_000;

export const DEMO_CLIENT = {
  clientId: "ringside-demo",
  clientSecret: "ringside-demo-secret",
  redirectUris: ["http://localhost:3000/api/auth/callback/ring"],
  approved: false,
  portal: "legacy",
} as const;

export const UNAPPROVED_USER_CAP = 10;

export type Client = {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  approved: boolean;
  /** The portal the application was registered in: it decides which provider knows it. */
  portal: Portal;
  /** Distinct users who ever granted this client access (the 10-user cap counts these). */
  authorizedUsers: Set<string>;
};

export type Subscription = "active" | "expired";

/** A new user's settings (control API); the data ones apply when the user is created. */
export type EnsureUserOptions = {
  historyDays?: number;
  subscription?: Subscription;
  /** the key the user's data derives from (with the seed); default: the user id */
  dataKey?: string;
  /** "always": the ring was worn every day but `notWornDays` */
  wear?: "generated" | "always";
  /** days (YYYY-MM-DD) on which the ring was not worn at all */
  notWornDays?: string[];
  /** nights (the day, YYYY-MM-DD, they end on) planted without a sleep, and why (NightKind) */
  nights?: Record<string, NightKind>;
  /** the person's UTC offset in minutes (-720..840), in the documents' timestamps */
  tzOffsetMinutes?: number;
};

export type User = {
  id: string;
  email: string;
  historyDays: number;
  subscription: Subscription;
  createdAt: number;
  /** "Today" when the user was created: the history is [creationDay - historyDays + 1, today]. */
  creationDay: string;
  docs: UserDocuments;
};

export type AuthCode = {
  code: string;
  clientId: string;
  userId: string;
  scopes: Scope[];
  /** The granted names in the issuing provider's spelling (legacy: the same as scopes). */
  scopeNames: string[];
  /** The provider that issued the code: only its token address redeems it. */
  provider: Portal;
  /** The redirect_uri as sent at authorize; null when it was omitted. */
  redirectUri: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | "plain" | null;
  expiresAt: number;
  usedAt: number | null;
};

/** What every token carries: its value, whose it is, what it grants, under which provider. */
type TokenBase = {
  value: string;
  clientId: string;
  userId: string;
  scopes: Scope[];
  scopeNames: string[];
  provider: Portal;
  /** Every token descending from one authorization (code, implicit grant) shares this id. */
  grantId: string;
};

export type AccessToken = TokenBase & {
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
  flow: "authorization_code" | "refresh_token" | "implicit" | "control";
  refreshToken: string | null;
};

export type RefreshToken = TokenBase & {
  accessToken: string;
  /** Set when the token was exchanged (single use). */
  usedAt: number | null;
  revoked: boolean;
  /** The access token that replaced it, for diagnostics. */
  rotatedTo: string | null;
};

export type WebhookSubscription = {
  id: string;
  clientId: string;
  callbackUrl: string;
  verificationToken: string;
  eventType: "create" | "update" | "delete";
  dataType: string;
  expiresAt: number;
  createdAt: number;
};

export type Fault = {
  id: string;
  /** HTTP status, or 0 = drop the connection; null = only delay. */
  status: number | null;
  remaining: number;
  /** null = every data request (/v2/usercollection/…, /v2/sandbox/…). */
  pathPrefix: string | null;
  retryAfter: number | null;
  tier: RateTier;
  delayMs: number;
};

export type DeliveryRecord = {
  id: string;
  subscription_id: string;
  callback_url: string;
  event_type: string;
  data_type: string;
  object_id: string | null;
  user_id: string;
  attempt: number;
  status: number | null;
  error: string | null;
  ok: boolean;
  time: string;
  duration_ms: number;
  next_retry_at: string | null;
};

export type RequestLogEntry = {
  time: string;
  method: string;
  path: string;
  status: number;
  kind: "data" | "sandbox" | "token" | "revoke" | "authorize" | "webhook_subscription" | "discovery" | "introspect";
  /** OAuth requests: which identity provider's address was called. */
  provider: Portal | null;
  /** For data requests: the rate-limit layer that rejected it, if any. */
  rate_limit_tier: RateTier | null;
  /** Data requests: a short non-secret fingerprint of the bearer token; revocations: of the token revoked. */
  token_fingerprint: string | null;
  client_id: string | null;
  user_id: string | null;
  grant_type: string | null;
  fault: boolean;
  duration_ms: number;
};

const LOG_CAP = 20_000;
/** Generated histories kept in memory at once (a 5-year history is about 50 MB of objects). */
export const CACHED_HISTORIES = 8;
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Random alphanumeric string (no modulo bias). */
export function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHANUMERIC[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function fingerprint(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 12);
}

/** Deterministic user id from (seed, e-mail), shaped like the real service's ids (12 + 23 hex). */
export function userIdFor(seed: string, email: string): string {
  const h = createHash("sha256").update(`${seed}\u001fuser\u001f${email}`).digest("hex");
  return `${h.slice(0, 12)}-${h.slice(12, 35)}`;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type TokenCheck = { ok: true; token: AccessToken } | { ok: false; reason: "unknown" | "expired" | "revoked" };

export class EmulatorState {
  readonly clients = new Map<string, Client>();
  readonly users = new Map<string, User>();
  readonly usersByEmail = new Map<string, string>();
  readonly codes = new Map<string, AuthCode>();
  readonly accessTokens = new Map<string, AccessToken>();
  readonly refreshTokens = new Map<string, RefreshToken>();
  readonly subscriptions = new Map<string, WebhookSubscription>();
  faults: Fault[] = [];
  deliveries: DeliveryRecord[] = [];
  requests: RequestLogEntry[] = [];
  /** Least recently used first. */
  private readonly recentHistories = new Set<UserDocuments>();

  constructor(
    private readonly config: EmulatorConfig,
    private readonly now: () => number,
  ) {
    this.reset();
  }

  /** "Today" of the data: config.today, else the current UTC date. */
  today(): string {
    return this.config.today ?? utcDay(this.now());
  }

  reset(): void {
    this.clients.clear();
    this.users.clear();
    this.usersByEmail.clear();
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.subscriptions.clear();
    this.faults = [];
    this.deliveries = [];
    this.requests = [];
    this.recentHistories.clear();
    this.upsertClient({ ...DEMO_CLIENT, redirectUris: [...DEMO_CLIENT.redirectUris] });
  }

  // ---- clients -------------------------------------------------------------------------

  upsertClient(input: { clientId: string; clientSecret: string; redirectUris: string[]; approved: boolean; portal?: Portal }): {
    client: Client;
    created: boolean;
  } {
    const existing = this.clients.get(input.clientId);
    const client: Client = {
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      redirectUris: [...input.redirectUris],
      approved: input.approved,
      portal: input.portal ?? "legacy",
      authorizedUsers: existing?.authorizedUsers ?? new Set(),
    };
    this.clients.set(client.clientId, client);
    return { client, created: !existing };
  }

  /** Client whose id and secret both match, else undefined. */
  authenticateClient(clientId: string, clientSecret: string): Client | undefined {
    const client = this.clients.get(clientId);
    if (!client) return undefined;
    const a = createHash("sha256").update(client.clientSecret).digest();
    const b = createHash("sha256").update(clientSecret).digest();
    return a.equals(b) ? client : undefined;
  }

  // ---- users ---------------------------------------------------------------------------

  /** Idempotent by e-mail: the same e-mail always maps to the same user id. */
  ensureUser(emailInput: string, opts: EnsureUserOptions = {}): { user: User; created: boolean } {
    const email = normalizeEmail(emailInput);
    const existingId = this.usersByEmail.get(email);
    if (existingId) {
      const user = this.users.get(existingId)!;
      if (opts.subscription) user.subscription = opts.subscription;
      if (opts.historyDays !== undefined && opts.historyDays !== user.historyDays) {
        user.historyDays = opts.historyDays;
        user.docs.setFirstDay(addDays(user.creationDay, 1 - opts.historyDays));
      }
      return { user, created: false };
    }
    const id = userIdFor(this.config.seed, email);
    const historyDays = opts.historyDays ?? this.config.historyDays;
    const today = this.today();
    const user: User = {
      id,
      email,
      historyDays,
      subscription: opts.subscription ?? "active",
      createdAt: this.now(),
      creationDay: today,
      docs: new UserDocuments(
        {
          seed: this.config.seed,
          // A test person's data comes from its data key (the same data whatever its e-mail).
          userKey: opts.dataKey === undefined ? id : `key:${opts.dataKey}`,
          tzOffsetMinutes: opts.tzOffsetMinutes,
          wear: opts.wear,
          notWornDays: opts.notWornDays && new Set(opts.notWornDays.map(dayToIndex)),
          nights: opts.nights && new Map(Object.entries(opts.nights).map(([d, kind]) => [dayToIndex(d), kind])),
        },
        addDays(today, 1 - historyDays),
        () => this.today(),
        (docs) => this.touchHistory(docs),
      ),
    };
    this.users.set(id, user);
    this.usersByEmail.set(email, id);
    return { user, created: true };
  }

  private touchHistory(docs: UserDocuments): void {
    this.recentHistories.delete(docs);
    this.recentHistories.add(docs);
    while (this.recentHistories.size > CACHED_HISTORIES) {
      const oldest = this.recentHistories.values().next().value as UserDocuments;
      this.recentHistories.delete(oldest);
      oldest.dropCache();
    }
  }

  // ---- codes and tokens ------------------------------------------------------------------

  issueCode(input: Omit<AuthCode, "code" | "expiresAt" | "usedAt">): AuthCode {
    const code: AuthCode = {
      ...input,
      code: randomAlphanumeric(32),
      expiresAt: this.now() + this.config.codeTtlS * 1000,
      usedAt: null,
    };
    this.codes.set(code.code, code);
    return code;
  }

  issueTokens(input: {
    clientId: string;
    userId: string;
    scopes: Scope[];
    /** Names as granted, in the provider's spelling (default: the internal names). */
    scopeNames?: string[];
    provider?: Portal;
    flow: AccessToken["flow"];
    withRefresh: boolean;
    ttlS: number;
    grantId: string;
  }): { access: AccessToken; refresh: RefreshToken | null } {
    const now = this.now();
    const scopeNames = [...(input.scopeNames ?? input.scopes)];
    const provider = input.provider ?? "legacy";
    const access: AccessToken = {
      value: randomAlphanumeric(40),
      clientId: input.clientId,
      userId: input.userId,
      scopes: [...input.scopes],
      scopeNames,
      provider,
      issuedAt: now,
      expiresAt: now + input.ttlS * 1000,
      revoked: false,
      flow: input.flow,
      refreshToken: null,
      grantId: input.grantId,
    };
    let refresh: RefreshToken | null = null;
    if (input.withRefresh) {
      refresh = {
        value: randomAlphanumeric(48),
        clientId: input.clientId,
        userId: input.userId,
        scopes: [...input.scopes],
        scopeNames: [...scopeNames],
        provider,
        accessToken: access.value,
        usedAt: null,
        revoked: false,
        rotatedTo: null,
        grantId: input.grantId,
      };
      access.refreshToken = refresh.value;
      this.refreshTokens.set(refresh.value, refresh);
    }
    this.accessTokens.set(access.value, access);
    return { access, refresh };
  }

  /** Single-use rotation: the old refresh token is spent, a new pair is issued (by the provider that issued it). */
  rotateRefreshToken(
    value: string,
    clientId: string,
    provider: Portal = "legacy",
  ): { ok: true; access: AccessToken; refresh: RefreshToken } | { ok: false; reason: string } {
    const old = this.refreshTokens.get(value);
    if (!old || old.provider !== provider) return { ok: false, reason: "Refresh token is invalid." };
    if (old.clientId !== clientId) return { ok: false, reason: "Refresh token was issued to another client." };
    if (old.revoked) return { ok: false, reason: "Refresh token has been revoked." };
    if (old.usedAt !== null) return { ok: false, reason: "Refresh token has already been used." };
    old.usedAt = this.now();
    const { access, refresh } = this.issueTokens({
      clientId: old.clientId,
      userId: old.userId,
      scopes: old.scopes,
      scopeNames: old.scopeNames,
      provider: old.provider,
      flow: "refresh_token",
      withRefresh: true,
      ttlS: this.config.tokenTtlS,
      grantId: old.grantId,
    });
    old.rotatedTo = access.value;
    return { ok: true, access, refresh: refresh! };
  }

  checkAccessToken(value: string): TokenCheck {
    const token = this.accessTokens.get(value);
    if (!token) return { ok: false, reason: "unknown" };
    if (token.revoked) return { ok: false, reason: "revoked" };
    if (token.expiresAt <= this.now()) return { ok: false, reason: "expired" };
    return { ok: true, token };
  }

  /** Revokes an access token (and its refresh token) or a refresh token (and its access token). */
  revokeToken(value: string): boolean {
    const access = this.accessTokens.get(value);
    if (access) {
      access.revoked = true;
      if (access.refreshToken) {
        const r = this.refreshTokens.get(access.refreshToken);
        if (r) r.revoked = true;
      }
      return true;
    }
    const refresh = this.refreshTokens.get(value);
    if (refresh) {
      refresh.revoked = true;
      const a = this.accessTokens.get(refresh.accessToken);
      if (a) a.revoked = true;
      return true;
    }
    return false;
  }

  /** Revokes every token descending from one authorization (used when a code is replayed). */
  revokeGrant(grantId: string): number {
    let n = 0;
    for (const t of this.accessTokens.values())
      if (t.grantId === grantId && !t.revoked) {
        t.revoked = true;
        n++;
      }
    for (const r of this.refreshTokens.values()) if (r.grantId === grantId) r.revoked = true;
    return n;
  }

  /** Whether the user currently has a live grant (usable access or refresh token) for the client. */
  hasLiveGrant(userId: string, clientId: string): boolean {
    const now = this.now();
    for (const t of this.accessTokens.values()) if (t.userId === userId && t.clientId === clientId && !t.revoked && t.expiresAt > now) return true;
    for (const r of this.refreshTokens.values()) if (r.userId === userId && r.clientId === clientId && !r.revoked && r.usedAt === null) return true;
    return false;
  }

  // ---- logs ----------------------------------------------------------------------------

  logRequest(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > LOG_CAP) this.requests.splice(0, this.requests.length - LOG_CAP);
  }

  logDelivery(entry: DeliveryRecord): void {
    this.deliveries.push(entry);
    if (this.deliveries.length > LOG_CAP) this.deliveries.splice(0, this.deliveries.length - LOG_CAP);
  }

  // ---- faults --------------------------------------------------------------------------

  addFault(input: Omit<Fault, "id">): Fault {
    const fault: Fault = { ...input, id: randomUUID() };
    this.faults.push(fault);
    return fault;
  }

  /** Takes one use of the first fault matching the request, if any. */
  takeFault(path: string, isDataRequest: boolean): Fault | undefined {
    const fault = this.faults.find((f) => f.remaining > 0 && (f.pathPrefix === null ? isDataRequest : path.startsWith(f.pathPrefix)));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}
