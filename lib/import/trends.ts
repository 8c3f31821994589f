import "server-only";
import type { RingCollection } from "@/lib/resources";
import { TRENDS_ID_PREFIX } from "@/lib/db/ingest/documents";
import { ImportRefusal } from "@/lib/import/refusal";
import { QUOTED_EMPTY } from "@/lib/import/csv";
import { isPlausibleDay, lastPlausibleDay, FIRST_PLAUSIBLE_DAY } from "@/lib/import/rows";

// The Trends CSV (web dashboard → Trends → daily → download): one wide row per day, Title Case
// headers, scores and durations only. Each row becomes up to four documents of no id of their
// own — the day's sleep score, readiness, activity and main sleep — keyed `trends:<day>`, with
// only the fields the row has. They fill the days and collections no richer document covers
// and never replace one (lib/import/apply.ts, lib/db/ingest/documents.ts).

/** Where a Trends column goes: a collection's field (dotted for a contributor). */
type Target = { collection: TrendsCollection; field: string };
export type TrendsCollection = Extract<RingCollection, "daily_sleep" | "daily_readiness" | "daily_activity" | "sleep">;
export const TRENDS_COLLECTIONS: readonly TrendsCollection[] = ["daily_sleep", "daily_readiness", "daily_activity", "sleep"];

const to = (collection: TrendsCollection, ...pairs: Array<[header: string, field: string]>): Array<[string, Target]> =>
  pairs.map(([h, field]) => [h, { collection, field }]);

/**
 * Trends headers (as normalizeTrendsHeader writes them) → fields. Both known spellings of a
 * column are listed (`… Time` and `… Duration`; the long efficiency header). Durations are
 * seconds, as in the API.
 */
const TRENDS_COLUMNS = new Map<string, Target>([
  ...to(
    "daily_sleep",
    ["sleep score", "score"],
    ["total sleep score", "contributors.total_sleep"],
    ["rem sleep score", "contributors.rem_sleep"],
    ["deep sleep score", "contributors.deep_sleep"],
    ["sleep efficiency score", "contributors.efficiency"],
    ["restfulness score", "contributors.restfulness"],
    ["sleep latency score", "contributors.latency"],
    ["sleep timing score", "contributors.timing"],
  ),
  ...to(
    "sleep",
    ["total bedtime", "time_in_bed"],
    ["total sleep time", "total_sleep_duration"],
    ["total sleep duration", "total_sleep_duration"],
    ["awake time", "awake_time"],
    ["rem sleep time", "rem_sleep_duration"],
    ["rem sleep duration", "rem_sleep_duration"],
    ["light sleep time", "light_sleep_duration"],
    ["light sleep duration", "light_sleep_duration"],
    ["deep sleep time", "deep_sleep_duration"],
    ["deep sleep duration", "deep_sleep_duration"],
    ["sleep efficiency", "efficiency"],
    ["sleep efficiency total sleep duration total bedtime", "efficiency"],
    ["sleep latency", "latency"],
    ["bedtime start", "bedtime_start"],
    ["bedtime end", "bedtime_end"],
    ["average resting heart rate", "average_heart_rate"],
    ["lowest resting heart rate", "lowest_heart_rate"],
    ["average hrv", "average_hrv"],
    ["respiratory rate", "average_breath"],
  ),
  ...to(
    "daily_readiness",
    ["readiness score", "score"],
    ["temperature deviation c", "temperature_deviation"],
    ["temperature deviation", "temperature_deviation"],
    ["temperature trend deviation", "temperature_trend_deviation"],
    ["temperature trend deviation c", "temperature_trend_deviation"],
    ["previous night score", "contributors.previous_night"],
    ["sleep balance score", "contributors.sleep_balance"],
    ["previous day activity score", "contributors.previous_day_activity"],
    ["activity balance score", "contributors.activity_balance"],
    ["temperature score", "contributors.body_temperature"],
    ["resting heart rate score", "contributors.resting_heart_rate"],
    ["hrv balance score", "contributors.hrv_balance"],
    ["recovery index score", "contributors.recovery_index"],
  ),
  ...to(
    "daily_activity",
    ["activity score", "score"],
    ["stay active score", "contributors.stay_active"],
    ["move every hour score", "contributors.move_every_hour"],
    ["meet daily targets score", "contributors.meet_daily_targets"],
    ["training frequency score", "contributors.training_frequency"],
    ["training volume score", "contributors.training_volume"],
    ["recovery time score", "contributors.recovery_time"],
    ["activity burn", "active_calories"],
    ["total burn", "total_calories"],
    ["target calories", "target_calories"],
    ["steps", "steps"],
    ["daily movement", "equivalent_walking_distance"],
    ["inactive time", "sedentary_time"],
    ["rest time", "resting_time"],
    ["low activity time", "low_activity_time"],
    ["medium activity time", "medium_activity_time"],
    ["high activity time", "high_activity_time"],
    ["non wear time", "non_wear_time"],
    ["average met", "average_met_minutes"],
    ["long periods of inactivity", "inactivity_alerts"],
  ),
]);

/** Text fields (the rest are numbers). */
const TEXT_FIELDS = new Set(["bedtime_start", "bedtime_end"]);

/** A Trends header as matched: lower case, words only (`Temperature Deviation (°C)` → `temperature deviation c`). */
export function normalizeTrendsHeader(name: string): string {
  return name
    .replace(/^\ufeff/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Whether a header is a Trends CSV's: a `date` column and at least two known Trends columns. */
export function isTrendsHeader(header: readonly string[]): boolean {
  const names = header.map(normalizeTrendsHeader);
  return names.includes("date") && names.filter((n) => TRENDS_COLUMNS.has(n)).length >= 2;
}

/** The id of a Trends document of a day. */
export const trendsId = (day: string) => `${TRENDS_ID_PREFIX}${day}`;

export type TrendsReader = {
  /** headers that map nowhere (left out, counted) */
  unknownColumns: string[];
  /** the row's documents by collection (a collection none of whose cells is filled has none) */
  read(cells: readonly string[], row: number): Array<{ collection: TrendsCollection; doc: Record<string, unknown> }>;
};

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A reader of a Trends CSV's rows into documents. */
export function trendsReader(header: readonly string[], file: string, now: number): TrendsReader {
  const names = header.map(normalizeTrendsHeader);
  const dateIndex = names.indexOf("date");
  if (dateIndex === -1) throw new ImportRefusal(`${file}: a Trends CSV needs a \`date\` column.`);
  const columns: Array<{ index: number; target: Target }> = [];
  const unknownColumns: string[] = [];
  const taken = new Set<string>();
  names.forEach((n, index) => {
    if (index === dateIndex) return;
    const target = TRENDS_COLUMNS.get(n);
    const key = target ? `${target.collection}.${target.field}` : "";
    // a column seen twice (`Sleep Timing` is) counts once: the first
    if (target && !taken.has(key)) {
      taken.add(key);
      columns.push({ index, target });
    } else if (!target && header[index]!.trim() !== "") unknownColumns.push(header[index]!.trim());
  });
  return {
    unknownColumns,
    read(cells, row) {
      const day = (cells[dateIndex] ?? "").trim().slice(0, 10);
      if (!isPlausibleDay(day, now))
        throw new ImportRefusal(
          `${file}, row ${row}: the date ${JSON.stringify(cells[dateIndex] ?? "")} is not a day between ${FIRST_PLAUSIBLE_DAY} and ${lastPlausibleDay(now)}.`,
        );
      const docs = new Map<TrendsCollection, Record<string, unknown>>();
      for (const { index, target } of columns) {
        const cell = (cells[index] ?? "").trim();
        if (cell === "" || cell === QUOTED_EMPTY) continue;
        let value: string | number;
        if (TEXT_FIELDS.has(target.field)) value = cell;
        else if (NUMBER.test(cell)) value = Number(cell);
        else throw new ImportRefusal(`${file}, row ${row}: the cell ${JSON.stringify(header[index])} is not a number.`);
        let doc = docs.get(target.collection);
        if (!doc) docs.set(target.collection, (doc = { id: trendsId(day), day }));
        const [head, sub] = target.field.split(".");
        if (sub) ((doc[head!] ??= {}) as Record<string, unknown>)[sub] = value;
        else doc[head!] = value;
      }
      const sleep = docs.get("sleep");
      if (sleep) sleep.type = "long_sleep";
      return TRENDS_COLLECTIONS.flatMap((collection) => {
        const doc = docs.get(collection);
        return doc ? [{ collection, doc }] : [];
      });
    },
  };
}
