// What a personal access token may read: its data kinds. One kind per resource of the registry
// (lib/resources: a resource added there is a kind here at once, metrics and all) plus the
// person's own notes and tags, and their cycle (the days the cycle service derives: lib/cycle.ts).
// The ring service's cycle phases (daily_cycle_phases) are no kind of their own: they belong to
// the cycle kind, like everything else of the cycle. Pure (no server imports): the settings form
// lists them and the read API checks them.
//
// A token is created with the kinds the person ticks and keeps exactly those: a kind added to
// Ringside later is not granted to older tokens (least privilege; create a new token for it).
import { RESOURCES, type ResourceName } from "@/lib/resources";
import type { MetricDef } from "@/lib/metrics/catalog";
import { SIGNALS } from "@/lib/signals/catalog";
import { CYCLE_DATA_KIND, CYCLE_RESOURCE } from "@/lib/cycle";

export const NOTES_KIND = "notes";
export { CYCLE_DATA_KIND };
/** The resources that are data kinds of their own: all but the cycle's phases. */
type KindResource = Exclude<ResourceName, typeof CYCLE_RESOURCE>;
export type DataKind = KindResource | typeof NOTES_KIND | typeof CYCLE_DATA_KIND;

const isKindResource = (name: ResourceName): name is KindResource => name !== CYCLE_RESOURCE;

/** Every data kind, in the registry's order (the cycle's phases left to the cycle), then notes and the cycle. */
export const DATA_KINDS: readonly DataKind[] = [...RESOURCES.map((r) => r.name).filter(isKindResource), NOTES_KIND, CYCLE_DATA_KIND];

/** The kind a resource's documents belong to: its own, the cycle's phases the cycle's. */
export function kindOfCollection(collection: ResourceName): DataKind {
  return isKindResource(collection) ? collection : CYCLE_DATA_KIND;
}

/** What each kind shares, as the settings form lists it. */
export const DATA_KIND_LABELS: Record<DataKind, string> = {
  ...(Object.fromEntries(RESOURCES.filter((r) => isKindResource(r.name)).map((r) => [r.name, r.sharedLabel])) as Record<KindResource, string>),
  [NOTES_KIND]: "Your notes and tags",
  [CYCLE_DATA_KIND]:
    "Your cycle: cycle day, phase, ovulation, the next period, the ring's cycle phases and the cycle-aware corrections (only while cycle tracking is on)",
};

export function isDataKind(value: unknown): value is DataKind {
  return typeof value === "string" && (DATA_KINDS as readonly string[]).includes(value);
}

/** The kind a metric's values belong to: its collection's. */
export function kindOfMetric(metric: Pick<MetricDef, "collection">): DataKind {
  return kindOfCollection(metric.collection);
}

/**
 * The kinds a metric's values are computed from, each needed to read it: its collection's, and
 * for a signal charted as a metric every kind that signal reads (lib/signals/catalog.ts).
 */
export function kindsOfMetric(metric: Pick<MetricDef, "collection" | "source">): readonly DataKind[] {
  const own = kindOfMetric(metric);
  return metric.source.type === "signal" ? [...new Set<DataKind>([own, ...SIGNALS[metric.source.signal].reads.map(kindOfCollection)])] : [own];
}

/** The kinds of a stored list (JSON text), unknown or duplicate names dropped, in DATA_KINDS order. */
export function parseStoredKinds(text: string): DataKind[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return [];
  }
  const found = new Set(Array.isArray(list) ? list.filter(isDataKind) : []);
  return DATA_KINDS.filter((k) => found.has(k));
}
