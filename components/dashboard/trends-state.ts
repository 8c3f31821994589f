// The Trends page's state as it lives in the URL (?m=a,b&range=90d&from&to&layers=...), so a
// view can be bookmarked and shared. Pure: parsed on the server page and in the client.
import { isMetricId, type MetricId } from "@/lib/metrics/catalog";
import { isDayInWindow } from "@/lib/days";
import { isRangePreset, type RangePreset } from "@/lib/metrics/ranges";
import { TOGGLE_LAYER_IDS, type TrendLayers } from "@/lib/metrics/trend-layers";

export const MAX_PANELS = 4;
export const DEFAULT_METRICS: MetricId[] = ["sleep.score", "readiness.score"];
/** Every layer on. */
export const DEFAULT_LAYERS = Object.fromEntries(TOGGLE_LAYER_IDS.map((k) => [k, true])) as TrendLayers;

export type TrendsState = {
  metrics: MetricId[];
  range: RangePreset;
  from: string | null;
  to: string | null;
  layers: TrendLayers;
};

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

function get(p: Params, k: string): string | undefined {
  if (p instanceof URLSearchParams) return p.get(k) ?? undefined;
  const v = p[k];
  return Array.isArray(v) ? v[0] : v;
}

export function parseTrendsState(p: Params): TrendsState {
  const metrics = [...new Set((get(p, "m") ?? "").split(",").filter(isMetricId))].slice(0, MAX_PANELS);
  const range = get(p, "range");
  const layersRaw = get(p, "layers");
  const on = layersRaw === undefined ? null : new Set(layersRaw.split(","));
  const from = get(p, "from");
  const to = get(p, "to");
  return {
    metrics: metrics.length ? metrics : DEFAULT_METRICS,
    range: isRangePreset(range) ? range : "90d",
    from: isDayInWindow(from) ? from : null,
    to: isDayInWindow(to) ? to : null,
    layers: on ? (Object.fromEntries(TOGGLE_LAYER_IDS.map((k) => [k, on.has(k)])) as TrendLayers) : DEFAULT_LAYERS,
  };
}

export function trendsStateToQuery(s: TrendsState): string {
  const sp = new URLSearchParams();
  sp.set("m", s.metrics.join(","));
  sp.set("range", s.range);
  if (s.range === "custom" && s.from && s.to) {
    sp.set("from", s.from);
    sp.set("to", s.to);
  }
  const layers = TOGGLE_LAYER_IDS.filter((k) => s.layers[k]);
  if (layers.length !== TOGGLE_LAYER_IDS.length) sp.set("layers", layers.join(","));
  return sp.toString().replaceAll("%2C", ",");
}
