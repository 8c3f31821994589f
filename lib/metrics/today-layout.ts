// Today's layout, declared once: its sections and cards in the page's order, each with its
// metrics, title and colour. The Today page draws it (app/(app)/today-view.tsx), its summary
// reads the metrics it lists (lib/metrics/today.ts, through GET /api/days/latest and the service
// behind it), the MCP tool summarize_day lists them in its order, and the Day view draws the
// same cards for one day (app/(app)/day/[day]/day-client.tsx). A card led by a daily document
// takes its title and colour from that collection (lib/resources, through the catalog), and a
// score's contributors are the catalog's. Pure, safe in the browser.
import { COLLECTIONS, contributorsOf, getMetric, type MetricId } from "@/lib/metrics/catalog";
import type { DailyCollection, SyncCollection } from "@/lib/resources";

/** A card of one daily document: its collection, whose label and colour are the card's title and colour. */
export type DocumentCard = { collection: DailyCollection; title: string; color: string };

/** A daily score with the contributors listed under it. */
export type ScoreCard = DocumentCard & { score: MetricId; contributors: readonly MetricId[] };

/** The card of a daily collection, titled and coloured as the collection. */
export function documentCard(collection: DailyCollection): DocumentCard {
  const c = COLLECTIONS[collection];
  return { collection, title: c.label, color: c.color };
}

function scoreCard(collection: DailyCollection, score: MetricId): ScoreCard {
  return { ...documentCard(collection), score, contributors: contributorsOf(collection).map((m) => m.id) };
}

export const TODAY_LAYOUT = {
  /** the three scores, each with its contributors */
  scores: [scoreCard("daily_sleep", "sleep.score"), scoreCard("daily_readiness", "readiness.score"), scoreCard("daily_activity", "activity.score")],
  /** tiles of single metrics */
  body: {
    label: "Body and movement",
    metrics: [
      "night.total_sleep_duration",
      "night.average_hrv",
      "readiness.temperature_deviation",
      "activity.steps",
      "activity.active_calories",
      "spo2.spo2_average",
      "spo2.breathing_disturbance_index",
    ],
  },
  /** resting heart rate (the night's lowest), daytime heart rate (awake samples), and fitness */
  heart: {
    title: "Heart rate and fitness",
    note: "resting: the night's lowest · daytime: your awake samples · VO2 max: the ring's latest estimate",
    metrics: ["night.lowest_heart_rate", "heartrate.daytime_mean", "heartrate.daytime_min", "vo2max.vo2_max"],
  },
  /** the day's stress summary (a category) and its two durations */
  stress: { ...documentCard("daily_stress"), category: "stress.day_summary", metrics: ["stress.stress_high", "stress.recovery_high"] },
  /** the resilience level (a category) and its contributors */
  resilience: { ...documentCard("daily_resilience"), category: "resilience.level", metrics: contributorsOf("daily_resilience").map((m) => m.id) },
  /** cardiovascular age (against the person's own) and pulse wave velocity */
  cardio: { ...documentCard("daily_cardiovascular_age"), metrics: ["cardio.vascular_age", "cardio.pulse_wave_velocity"] },
} as const satisfies {
  scores: readonly ScoreCard[];
  body: { label: string; metrics: readonly MetricId[] };
  heart: { title: string; note: string; metrics: readonly MetricId[] };
  stress: DocumentCard & { category: MetricId; metrics: readonly MetricId[] };
  resilience: DocumentCard & { category: MetricId; metrics: readonly MetricId[] };
  cardio: DocumentCard & { metrics: readonly [MetricId, MetricId] };
};

const L = TODAY_LAYOUT;

/** The numeric metrics Today shows, in the page's order (each score followed by its contributors). */
export const TODAY_METRICS: readonly MetricId[] = [
  ...L.scores.flatMap((c) => [c.score, ...c.contributors]),
  ...L.body.metrics,
  ...L.heart.metrics,
  ...L.stress.metrics,
  ...L.resilience.metrics,
  ...L.cardio.metrics,
];

/** The categories Today shows (a day's level, with the days before it). */
export const TODAY_CATEGORIES: readonly MetricId[] = [L.stress.category, L.resilience.category];

/** The collections Today's cards read (through the catalog), in the page's order. */
export const TODAY_COLLECTIONS: readonly SyncCollection[] = [...new Set([...TODAY_METRICS, ...TODAY_CATEGORIES].map((id) => getMetric(id).collection))];
