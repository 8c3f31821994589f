// The ring service's consent scopes and what each one shares with Ringside. Pure (no server
// imports), so the dashboard, settings, the sync engine and client components can all use it.
//
// The person may untick scopes on the consent page, so the granted list can be smaller than
// the requested one (interface §5.1.5). The token response / callback carries it as a
// space-separated `scope`. Ringside's own scope model is the legacy provider's eight names
// (RING_SCOPES); the newer identity provider names the same things differently ("extapi:daily",
// "extapi:spo2" for spo2Daily; facts §5.6 and the Addendum of 2026-11-23). PROVIDER_SCOPE_NAMES
// is the one table between the two: what to ask the newer provider for, and how to read what
// either provider granted. Everything downstream (Settings' "not shared", 403 handling, which
// collections to sync) works on the internal names only.

import { getResource, SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { RING_SCOPES, type RingScope } from "@/lib/resources/scopes";

export { RING_SCOPES, type RingScope };

/**
 * The things Ringside keeps, each needing one scope: every data collection of the resource
 * registry (lib/resources: documents and time series), the personal details of the
 * personal_info snapshot, and the e-mail address (a field of that snapshot under its own
 * scope). Ordered by scope (SCOPE_ORDER), then in registry order.
 */
const SHARED_SOURCES = [
  ...SYNC_COLLECTIONS.map((c) => ({ item: c, scope: getResource(c).scope, label: getResource(c).sharedLabel })),
  { item: "personal_details", scope: getResource("personal_info").scope, label: getResource("personal_info").sharedLabel },
  { item: "email", scope: "email", label: "E-mail address" },
] as const satisfies ReadonlyArray<{ item: string; scope: RingScope; label: string }>;
export type SharedItem = (typeof SHARED_SOURCES)[number]["item"];

const SCOPE_ORDER: readonly RingScope[] = ["daily", "spo2Daily", "personal", "email", "heartrate", "workout", "tag", "session", "reproductive_cycle"];
const ordered = [...SHARED_SOURCES].sort((a, b) => SCOPE_ORDER.indexOf(a.scope) - SCOPE_ORDER.indexOf(b.scope));

export const SHARED_ITEMS: readonly SharedItem[] = ordered.map((s) => s.item);

/** The collections Ringside syncs from the data API (a subset of SHARED_ITEMS). */
export type DataCollection = SyncCollection;

export const SHARED_ITEM_LABELS = Object.fromEntries(SHARED_SOURCES.map((s) => [s.item, s.label])) as Record<SharedItem, string>;

/** What each scope is called on the consent page (Settings lists what each one brings: scopeBrings). */
export const SCOPE_LABELS: Record<RingScope, string> = {
  email: "E-mail address",
  personal: "Personal details",
  daily: "Daily summaries",
  heartrate: "Heart rate",
  workout: "Workouts",
  tag: "Tags",
  session: "Sessions",
  spo2Daily: "Blood oxygen (SpO2)",
  reproductive_cycle: "Menstrual cycle",
};

/** What a scope brings to Ringside: the labels of the things it shares, in SHARED_ITEMS order. */
export function scopeBrings(scope: RingScope): string[] {
  return ordered.filter((s) => s.scope === scope).map((s) => s.label);
}

/**
 * The newer identity provider's scope names and the internal scope each one stands for.
 * `scope: null` = a name Ringside knows and asks for, but that shares nothing of its own here
 * (`extapi:stress`, `extapi:heart_health`: requested by several public clients; the daily
 * documents they could be about come with `extapi:daily`) — it is requested together with
 * `with`, and only when the provider lists it. Order matters: for an internal scope, the first
 * name the provider supports is the one requested (`extapi:email` before the OpenID `email`).
 */
export const PROVIDER_SCOPE_NAMES: ReadonlyArray<{ name: string; scope: RingScope | null; with?: RingScope }> = [
  { name: "extapi:email", scope: "email" },
  { name: "email", scope: "email" },
  { name: "extapi:personal", scope: "personal" },
  { name: "extapi:daily", scope: "daily" },
  { name: "extapi:heartrate", scope: "heartrate" },
  { name: "extapi:workout", scope: "workout" },
  { name: "extapi:tag", scope: "tag" },
  { name: "extapi:session", scope: "session" },
  { name: "extapi:spo2", scope: "spo2Daily" },
  { name: "extapi:reproductive_cycle", scope: "reproductive_cycle" },
  { name: "extapi:stress", scope: null, with: "daily" },
  { name: "extapi:heart_health", scope: null, with: "daily" },
  // the spelling of the older documentation copy (facts §5.6: "[AUTH] writes spo2")
  { name: "spo2", scope: "spo2Daily" },
];

/** Every spelling Ringside reads, lower-cased → internal scope (the eight names themselves included). */
const SCOPE_BY_LOWER = new Map<string, RingScope>([
  ...RING_SCOPES.map((s) => [s.toLowerCase(), s] as const),
  ...PROVIDER_SCOPE_NAMES.filter((e) => e.scope !== null).map((e) => [e.name.toLowerCase(), e.scope!] as const),
]);

/**
 * Turns a granted-scope value of either provider (space- or comma-separated string, or a list)
 * into internal scope names in canonical order; names it does not know are dropped.
 */
export function normalizeScopes(input: string | readonly string[] | null | undefined): RingScope[] {
  if (!input) return [];
  const parts = typeof input === "string" ? input.split(/[\s,]+/) : input.flatMap((s) => s.split(/[\s,]+/));
  const found = new Set<RingScope>();
  for (const part of parts) {
    const scope = SCOPE_BY_LOWER.get(part.trim().toLowerCase());
    if (scope) found.add(scope);
  }
  return RING_SCOPES.filter((s) => found.has(s));
}

/**
 * The scope names to request from the newer identity provider for the internal scopes
 * `wanted` (RING_SCOPES), given the provider's `scopes_supported` (null when discovery does not
 * list them: then the table's first spelling). An internal scope the provider lists no name for
 * is left out (asking for it would only earn invalid_scope); it shows as "not shared".
 */
export function newerProviderScopeRequest(wanted: readonly string[], supported: readonly string[] | null): string[] {
  const want = new Set(normalizeScopes(wanted));
  const listed = (name: string) => supported === null || supported.includes(name);
  const out: string[] = [];
  for (const scope of RING_SCOPES) {
    if (!want.has(scope)) continue;
    const name = PROVIDER_SCOPE_NAMES.find((e) => e.scope === scope && listed(e.name))?.name;
    if (name) out.push(name);
  }
  for (const e of PROVIDER_SCOPE_NAMES) {
    if (e.scope === null && e.with && want.has(e.with) && supported !== null && supported.includes(e.name)) out.push(e.name);
  }
  return out;
}

/** Everything the granted scopes share with Ringside, in SHARED_ITEMS order. */
export function collectionsForScopes(scopes: string | readonly string[] | null | undefined): SharedItem[] {
  const granted = new Set<RingScope>(normalizeScopes(scopes));
  return ordered.filter((s) => granted.has(s.scope)).map((s) => s.item);
}

/** What Ringside could show but the person did not share, in SHARED_ITEMS order. */
export function missingCollections(scopes: string | readonly string[] | null | undefined): SharedItem[] {
  const shared = new Set(collectionsForScopes(scopes));
  return SHARED_ITEMS.filter((i) => !shared.has(i));
}

/** The data collections the sync engine may fetch with these scopes. */
export function dataCollectionsForScopes(scopes: string | readonly string[] | null | undefined): DataCollection[] {
  const shared = new Set<SharedItem>(collectionsForScopes(scopes));
  return SYNC_COLLECTIONS.filter((c) => shared.has(c));
}

/** Requested scopes that were not granted. */
export function missingScopes(granted: string | readonly string[] | null | undefined, requested: readonly string[]): RingScope[] {
  const have = new Set(normalizeScopes(granted));
  return normalizeScopes(requested).filter((s) => !have.has(s));
}
