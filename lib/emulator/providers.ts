// The two identity providers of the ring service, as the emulator serves them on one host, and
// the one declared table of each provider's scope names with what each grants in the
// emulator's internal scope model (the eight legacy scopes of interface §5.1.5, which decide
// what the data routes serve). Everything else — the consent page, the scope checks at
// authorize, the token responses, discovery's scopes_supported — is derived from these tables.
//
// legacy:    /oauth/authorize (and /authorize), /oauth/token, /oauth/revoke; bare names;
//            no `iss` on the callback.
// developer: the newer provider of apps registered in the developer portal (facts §5 and the
//            Addendum of 2026-11-23): discovery, /oauth/v2/ext/oauth-{authorize,token,revoke,
//            introspect}; `extapi:` names; `iss` on every callback; `id_token: null`.
import type { BareScopes } from "./config";

/**
 * The emulator's internal scopes: the eight legacy scopes of interface §5.1.5, which decide what
 * the data routes serve, and `reproductive_cycle` (daily_cycle_phases; cycle-facts: used by
 * public clients, `extapi:reproductive_cycle` at the newer provider).
 */
export const ALL_SCOPES = ["email", "personal", "daily", "heartrate", "workout", "tag", "session", "spo2Daily", "reproductive_cycle"] as const;
export type Scope = (typeof ALL_SCOPES)[number];

export const PORTALS = ["legacy", "developer"] as const;
export type Portal = (typeof PORTALS)[number];

export type ScopeName = {
  /** The name as the provider spells it in `scope`. */
  name: string;
  /** The internal scope it grants; null = a known name that opens no data route on its own. */
  grants: Scope | null;
  /** Consent-page label. */
  label: string;
  /** Part of "everything" when the request's scope is blank. */
  inDefault: boolean;
};

const LEGACY_LABELS: Record<Scope, string> = {
  email: "E-mail address",
  personal: "Personal information (gender, age, height, weight)",
  daily: "Daily summaries of sleep, activity and readiness; VO2 max, bedtime guidance, rest mode; ring battery and configuration",
  heartrate: "Heart rate time series",
  workout: "Workouts",
  tag: "Tags (enhanced tags and the older notes)",
  session: "Sessions (meditation, breathing, rest)",
  spo2Daily: "SpO2 average during sleep",
  reproductive_cycle: "Menstrual cycle phases",
};

/** Legacy provider: the eight names of interface §5.1.5 and reproductive_cycle, each granting itself. */
export const LEGACY_SCOPE_NAMES: readonly ScopeName[] = ALL_SCOPES.map((s) => ({ name: s, grants: s, label: LEGACY_LABELS[s], inDefault: true }));

/**
 * Newer provider: the names of facts §5.6 (NOTES-B's discovery document) plus `extapi:email`
 * (the prefixed name NOTES-A's token response shows; the OIDC `email` grants the same).
 *
 * Decisions where the record is thin:
 * - `extapi:daily` grants everything the legacy `daily` does, stress, resilience and
 *   cardiovascular age included (one client's reading: "extapi:daily covers the daily
 *   documents, VO2 max and cardiovascular age"), and so VO2 max, sleep_time, rest mode and —
 *   our choice, no source names a scope for them — the ring's battery and configuration.
 * - `extapi:stress` and `extapi:heart_health` (requested by several clients) are known and
 *   grantable but open nothing on their own: every collection they could be about is already
 *   covered by `extapi:daily`. A client that asks for them as well loses nothing.
 * - `extapi:biomarkers`, `extapi:metabolic`, `extapi:research`, `openid` and `profile` are
 *   listed in discovery and grantable, and open nothing (the emulator serves no such data).
 */
export const DEVELOPER_SCOPE_NAMES: readonly ScopeName[] = [
  { name: "extapi:email", grants: "email", label: "E-mail address", inDefault: true },
  { name: "extapi:personal", grants: "personal", label: "Personal information (gender, age, height, weight)", inDefault: true },
  {
    name: "extapi:daily",
    grants: "daily",
    label:
      "Daily summaries of sleep, activity, readiness, stress, resilience and cardiovascular age; " +
      "VO2 max, bedtime guidance, rest mode; ring battery and configuration",
    inDefault: true,
  },
  { name: "extapi:heartrate", grants: "heartrate", label: "Heart rate time series", inDefault: true },
  { name: "extapi:workout", grants: "workout", label: "Workouts", inDefault: true },
  { name: "extapi:tag", grants: "tag", label: "Tags (enhanced tags and the older notes)", inDefault: true },
  { name: "extapi:session", grants: "session", label: "Sessions (meditation, breathing, rest)", inDefault: true },
  { name: "extapi:spo2", grants: "spo2Daily", label: "SpO2 average during sleep", inDefault: true },
  { name: "extapi:reproductive_cycle", grants: "reproductive_cycle", label: "Menstrual cycle phases", inDefault: true },
  { name: "extapi:stress", grants: null, label: "Stress (included in the daily summaries here)", inDefault: true },
  { name: "extapi:heart_health", grants: null, label: "Heart health (included in the daily summaries here)", inDefault: true },
  { name: "extapi:biomarkers", grants: null, label: "Biomarkers (no data in the emulator)", inDefault: false },
  { name: "extapi:metabolic", grants: null, label: "Metabolic data (no data in the emulator)", inDefault: false },
  { name: "extapi:research", grants: null, label: "Research data (no data in the emulator)", inDefault: false },
  { name: "openid", grants: null, label: "Sign-in identity (OpenID)", inDefault: false },
  { name: "profile", grants: null, label: "Profile", inDefault: false },
  { name: "email", grants: "email", label: "E-mail address (OpenID)", inDefault: false },
];

export const SCOPE_NAMES: Record<Portal, readonly ScopeName[]> = { legacy: LEGACY_SCOPE_NAMES, developer: DEVELOPER_SCOPE_NAMES };

export function scopeName(portal: Portal, name: string): ScopeName | undefined {
  return SCOPE_NAMES[portal].find((s) => s.name === name);
}

/** The internal scopes a list of the provider's names grants, in canonical order. */
export function grantedScopes(portal: Portal, names: readonly string[]): Scope[] {
  const set = new Set(names.map((n) => scopeName(portal, n)?.grants).filter((s): s is Scope => Boolean(s)));
  return ALL_SCOPES.filter((s) => set.has(s));
}

/** The developer provider's name for an internal scope (its `extapi:` spelling). */
export function developerNameFor(scope: Scope): string {
  return DEVELOPER_SCOPE_NAMES.find((s) => s.grants === scope && s.name.startsWith("extapi:"))!.name;
}

export type ScopeRequest = { ok: true; names: string[] } | { ok: false; unknown: string[] };

/**
 * Reads a request's `scope` for one provider: blank = every default name; names of the
 * provider are kept; at the developer provider a bare legacy name is dropped ("ignore") or
 * replaced by its `extapi:` name ("grant"); anything else is unknown (→ invalid_scope).
 */
export function parseScopeRequest(portal: Portal, raw: string | null, bare: BareScopes): ScopeRequest {
  const trimmed = (raw ?? "").trim();
  if (trimmed === "") return { ok: true, names: SCOPE_NAMES[portal].filter((s) => s.inDefault).map((s) => s.name) };
  const names: string[] = [];
  const unknown: string[] = [];
  for (const part of new Set(trimmed.split(/\s+/))) {
    if (scopeName(portal, part)) names.push(part);
    else if (portal === "developer" && (ALL_SCOPES as readonly string[]).includes(part)) {
      if (bare === "grant") names.push(developerNameFor(part as Scope));
    } else unknown.push(part);
  }
  if (unknown.length > 0) return { ok: false, unknown };
  return { ok: true, names: [...new Set(names)] };
}

/** The developer provider's addresses under the emulator's origin. */
export const DEVELOPER_PATHS = {
  issuer: "/oauth/v2/ext/oauth-anonymous",
  discovery: "/oauth/v2/ext/oauth-anonymous/.well-known/openid-configuration",
  /** RFC 8414's form of the same document. */
  discoveryRfc8414: "/.well-known/oauth-authorization-server/oauth/v2/ext/oauth-anonymous",
  authorize: "/oauth/v2/ext/oauth-authorize",
  token: "/oauth/v2/ext/oauth-token",
  revoke: "/oauth/v2/ext/oauth-revoke",
  introspect: "/oauth/v2/ext/oauth-introspect",
} as const;

export const LEGACY_PATHS = {
  authorize: ["/oauth/authorize", "/authorize"],
  token: "/oauth/token",
  revoke: "/oauth/revoke",
} as const;

/** The discovery document of the developer provider at `origin`. */
export function discoveryDocument(origin: string): Record<string, unknown> {
  const methods = ["client_secret_basic", "client_secret_post"];
  return {
    issuer: `${origin}${DEVELOPER_PATHS.issuer}`,
    authorization_endpoint: `${origin}${DEVELOPER_PATHS.authorize}`,
    token_endpoint: `${origin}${DEVELOPER_PATHS.token}`,
    revocation_endpoint: `${origin}${DEVELOPER_PATHS.revoke}`,
    introspection_endpoint: `${origin}${DEVELOPER_PATHS.introspect}`,
    scopes_supported: DEVELOPER_SCOPE_NAMES.map((s) => s.name),
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256", "plain"],
    token_endpoint_auth_methods_supported: methods,
    revocation_endpoint_auth_methods_supported: methods,
    introspection_endpoint_auth_methods_supported: methods,
    authorization_response_iss_parameter_supported: true,
  };
}
