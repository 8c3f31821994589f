// The ring service's consent scopes and what each one shares with Ringside. Pure (no server
// imports), so the dashboard, settings, the sync engine and client components can all use it.
//
// The person may untick scopes on the consent page, so the granted list can be smaller than
// the requested one (interface §5.1.5). The token response / callback carries it as a
// space-separated `scope`; the newer identity provider prefixes names ("extapi:daily") and
// calls spo2Daily "spo2" (facts §5.6), so normalizeScopes accepts those spellings too.

export const RING_SCOPES = ["email", "personal", "daily", "heartrate", "workout", "tag", "session", "spo2Daily"] as const;
export type RingScope = (typeof RING_SCOPES)[number];

/** The things Ringside keeps, each needing one scope. Ids of data collections are the service's collection names. */
export const SHARED_ITEMS = [
  "daily_activity",
  "daily_readiness",
  "daily_sleep",
  "daily_stress",
  "daily_resilience",
  "daily_cardiovascular_age",
  "sleep",
  "daily_spo2",
  "personal_details",
  "email",
] as const;
export type SharedItem = (typeof SHARED_ITEMS)[number];

/** The collections Ringside syncs from the data API (a subset of SHARED_ITEMS). */
export const DATA_COLLECTIONS = [
  "daily_activity",
  "daily_readiness",
  "daily_sleep",
  "daily_stress",
  "daily_resilience",
  "daily_cardiovascular_age",
  "sleep",
  "daily_spo2",
] as const satisfies readonly SharedItem[];
export type DataCollection = (typeof DATA_COLLECTIONS)[number];

export const SCOPE_ITEMS: Record<RingScope, readonly SharedItem[]> = {
  daily: [
    "daily_activity",
    "daily_readiness",
    "daily_sleep",
    "daily_stress",
    "daily_resilience",
    "daily_cardiovascular_age",
    "sleep",
  ],
  spo2Daily: ["daily_spo2"],
  personal: ["personal_details"],
  email: ["email"],
  // Shared with the app but not used by Ringside (yet).
  heartrate: [],
  workout: [],
  tag: [],
  session: [],
};

export const SHARED_ITEM_LABELS: Record<SharedItem, string> = {
  daily_activity: "Daily activity",
  daily_readiness: "Readiness",
  daily_sleep: "Sleep score",
  daily_stress: "Stress",
  daily_resilience: "Resilience",
  daily_cardiovascular_age: "Cardiovascular age",
  sleep: "Sleep periods (stages, heart rate, HRV)",
  daily_spo2: "Blood oxygen (SpO2)",
  personal_details: "Age, sex, height and weight",
  email: "E-mail address",
};

export const SCOPE_LABELS: Record<RingScope, string> = {
  email: "E-mail address",
  personal: "Personal details (age, sex, height, weight)",
  daily: "Daily summaries (sleep, activity, readiness, stress, resilience, cardiovascular age)",
  heartrate: "Heart rate time series",
  workout: "Workouts",
  tag: "Tags",
  session: "Sessions",
  spo2Daily: "Blood oxygen (SpO2) during sleep",
};

const SCOPE_BY_LOWER = new Map<string, RingScope>(RING_SCOPES.map((s) => [s.toLowerCase(), s]));
SCOPE_BY_LOWER.set("spo2", "spo2Daily");

export function isRingScope(value: string): value is RingScope {
  return (RING_SCOPES as readonly string[]).includes(value);
}

/**
 * Turns a granted-scope value (space- or comma-separated string, or a list) into known scope
 * names in canonical order: drops unknown names, strips an "extapi:" prefix, maps "spo2".
 */
export function normalizeScopes(input: string | readonly string[] | null | undefined): RingScope[] {
  if (!input) return [];
  const parts = typeof input === "string" ? input.split(/[\s,]+/) : input.flatMap((s) => s.split(/[\s,]+/));
  const found = new Set<RingScope>();
  for (const part of parts) {
    const name = part.trim().replace(/^extapi:/i, "").toLowerCase();
    const scope = SCOPE_BY_LOWER.get(name);
    if (scope) found.add(scope);
  }
  return RING_SCOPES.filter((s) => found.has(s));
}

/** Everything the granted scopes share with Ringside, in SHARED_ITEMS order. */
export function collectionsForScopes(scopes: string | readonly string[] | null | undefined): SharedItem[] {
  const granted = normalizeScopes(scopes);
  const items = new Set<SharedItem>(granted.flatMap((s) => SCOPE_ITEMS[s]));
  return SHARED_ITEMS.filter((i) => items.has(i));
}

/** What Ringside could show but the person did not share, in SHARED_ITEMS order. */
export function missingCollections(scopes: string | readonly string[] | null | undefined): SharedItem[] {
  const shared = new Set(collectionsForScopes(scopes));
  return SHARED_ITEMS.filter((i) => !shared.has(i));
}

/** The data collections the sync engine may fetch with these scopes. */
export function dataCollectionsForScopes(scopes: string | readonly string[] | null | undefined): DataCollection[] {
  const shared = new Set<SharedItem>(collectionsForScopes(scopes));
  return DATA_COLLECTIONS.filter((c) => shared.has(c));
}

/** The scope that shares an item. */
export function scopeForItem(item: SharedItem): RingScope {
  const scope = RING_SCOPES.find((s) => SCOPE_ITEMS[s].includes(item));
  if (!scope) throw new Error(`No scope shares ${item}`);
  return scope;
}

/** Requested scopes that were not granted. */
export function missingScopes(granted: string | readonly string[] | null | undefined, requested: readonly string[]): RingScope[] {
  const have = new Set(normalizeScopes(granted));
  return normalizeScopes(requested).filter((s) => !have.has(s));
}
