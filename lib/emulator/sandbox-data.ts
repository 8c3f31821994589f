// Fixed sample documents served by the sandbox routes (/v2/sandbox/usercollection/...) to any
// bearer token: 14 days ending 2024-11-14, the same shapes as a real user's documents — the
// nine collections of the interface spec, the other resources and the two time series.
// They come from the deterministic generator with a fixed seed and user key (chosen so that
// every one of the 14 days was worn), so they never change between runs or machines.
// The objects are deeply frozen: copy before changing anything.
import { addDays, dayToIndex } from "@/lib/days";
import { DAILY_COLLECTIONS, generateRange, type DailyCollection, type RingDocument } from "@/lib/emulator/generator";
import { uuidFor } from "@/lib/emulator/prng";
import type { TimeSeries } from "@/lib/emulator/resources";
import type { Series } from "@/lib/emulator/timeseries";
import { UserDocuments, type AnyDocument, type DocumentCollection } from "@/lib/emulator/user-data";

export const SANDBOX_LAST_DAY = "2024-11-14";
export const SANDBOX_DAYS = 14;
export const SANDBOX_FIRST_DAY = addDays(SANDBOX_LAST_DAY, -(SANDBOX_DAYS - 1));

const generated = generateRange({ seed: "ringside-sandbox", userKey: "sandbox-user-3", tzOffsetMinutes: 0 }, SANDBOX_FIRST_DAY, SANDBOX_LAST_DAY);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

export const SANDBOX_DOCUMENTS: Record<DailyCollection, RingDocument[]> = deepFreeze(
  Object.fromEntries(DAILY_COLLECTIONS.map((c) => [c, generated[c]])) as Record<DailyCollection, RingDocument[]>,
);

/** Sleep periods of the same sample user and days (the sandbox also has a sleep route). */
export const SANDBOX_SLEEP_DOCUMENTS: RingDocument[] = deepFreeze(generated.sleep);

// ---- the other resources of the same sample user and days --------------------------------

const SANDBOX_OPTIONS = { seed: "ringside-sandbox", userKey: "sandbox-user-3", tzOffsetMinutes: 0 };
let sampleUser: UserDocuments | null = null;

/** The sample user's store (built on first use): workouts, sessions, tags, ..., and the time series. */
function sample(): UserDocuments {
  sampleUser ??= new UserDocuments(SANDBOX_OPTIONS, SANDBOX_FIRST_DAY, () => SANDBOX_LAST_DAY);
  return sampleUser;
}

/**
 * Rest mode of the sample fortnight. Its days hold no low-activity stretch, so the generator
 * finds none; the sandbox shows the two shapes seen in real responses instead: a period on the
 * least active day (2024-11-12, carrying an episode) and a zero-length toggle (start_time ==
 * end_time). They are fixed documents; the sample heart rate does not reflect them.
 */
const SANDBOX_REST_MODE: AnyDocument[] = deepFreeze([
  {
    id: uuidFor("ringside-sandbox", "rest_mode_period", 0),
    end_day: "2024-11-05",
    end_time: "2024-11-05T20:41:00+00:00",
    episodes: [],
    start_day: "2024-11-05",
    start_time: "2024-11-05T20:41:00+00:00",
  },
  {
    id: uuidFor("ringside-sandbox", "rest_mode_period", 1),
    end_day: "2024-11-13",
    end_time: "2024-11-13T07:52:00+00:00",
    episodes: [{ tags: ["tag_generic_sick"], timestamp: "2024-11-12T09:14:00+00:00" }],
    start_day: "2024-11-12",
    start_time: "2024-11-12T07:35:00+00:00",
  },
]);

/** The sandbox's documents of any collection. Do not mutate. */
export function sandboxDocuments(collection: DocumentCollection): readonly AnyDocument[] {
  if ((DAILY_COLLECTIONS as readonly string[]).includes(collection)) return SANDBOX_DOCUMENTS[collection as DailyCollection];
  if (collection === "sleep") return SANDBOX_SLEEP_DOCUMENTS;
  const generated = sample().list(collection);
  return collection === "rest_mode_period" && generated.length === 0 ? SANDBOX_REST_MODE : generated;
}

/** The sandbox's heart rate or battery samples, one local day at a time. */
export function sandboxSeries(kind: TimeSeries): { day(idx: number): Series; first: number; last: number; offsetMinutes: number; until: number } {
  const user = sample();
  return {
    day: (idx) => user.seriesDay(kind, idx),
    first: dayToIndex(SANDBOX_FIRST_DAY),
    last: dayToIndex(SANDBOX_LAST_DAY),
    offsetMinutes: 0,
    until: Infinity,
  };
}
