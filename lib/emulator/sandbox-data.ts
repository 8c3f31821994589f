// Fixed sample documents served by the sandbox routes (/v2/sandbox/usercollection/...) to any
// bearer token: 14 days ending 2024-11-14, the same shapes as a real user's documents.
// They come from the deterministic generator with a fixed seed and user key (chosen so that
// every one of the 14 days was worn), so they never change between runs or machines.
// The objects are deeply frozen: copy before changing anything.
import { DAILY_COLLECTIONS, addDays, generateRange, type DailyCollection, type RingDocument } from "@/lib/emulator/fixtures";

export const SANDBOX_LAST_DAY = "2024-11-14";
export const SANDBOX_DAYS = 14;
export const SANDBOX_FIRST_DAY = addDays(SANDBOX_LAST_DAY, -(SANDBOX_DAYS - 1));

const generated = generateRange(
  { seed: "ringside-sandbox", userKey: "sandbox-user-3", tzOffsetMinutes: 0 },
  SANDBOX_FIRST_DAY,
  SANDBOX_LAST_DAY,
);

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
