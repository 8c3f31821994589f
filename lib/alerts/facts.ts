// What alert rules read about a person from the rest of Ringside, as an interface (read-only):
// lib/services/alerts.ts answers it from the sync, metrics and signals tables; unit tests plant
// their own. Each rule kind (lib/alerts/kinds/) reads the part it needs.
import type { BatterySample } from "@/lib/alerts/battery";
import type { BedtimeRow } from "@/lib/metrics/bedtime";
import type { Units } from "@/lib/metrics/format";
import type { DayValue } from "@/lib/metrics/series";
import type { EarlyWarningLevel, Marker } from "@/lib/signals/early-warning";

export type ConnectionCollectionFacts = {
  collection: string;
  status: string;
  lastSuccessAt: number | null;
  lastAttemptAt: number | null;
  lastError: string | null;
};

export type ConnectionFactsInput = {
  /** the ring account's status, null without one */
  status: string | null;
  /** when the access was last granted or renewed (for collections that never synced) */
  since: number | null;
  collections: readonly ConnectionCollectionFacts[];
};

/** One night's early warning as the rule reads it (lib/signals/early-warning.ts). */
export type EarlyWarningNightFact = {
  day: string;
  level: EarlyWarningLevel | null;
  /** rest mode was on: never alerted */
  muted: boolean;
  /** the markers that left their baseline, with how far (HRV: a fraction) */
  moved: Array<{ marker: Marker; delta: number; value: number | null; baseline: number | null }>;
};

/**
 * The person's cycle as the cycle rules read it (lib/services/cycle.ts): the predicted window of
 * the next period and the newest period start (logged or served). The fact is null while cycle
 * tracking is off or the cycle does not apply (hormonal contraception, pregnancy): no cycle rule
 * then ever fires.
 */
export type CycleFact = { prediction: { from: string; to: string } | null; lastStart: string | null };

export type AlertFacts = {
  metricRows(userId: string, metricId: string, from: string, to: string): Promise<DayValue<number | null>[]>;
  /** the newest day with a night of sleep (a main sleep or a daily sleep score), if any */
  newestNight(userId: string): Promise<string | null>;
  connection(userId: string): Promise<ConnectionFactsInput>;
  tags(userId: string, from: string, to: string): Promise<Array<{ day: string; name: string }>>;
  units(userId: string): Promise<Units>;
  /** the ring's battery readings with an instant in [from, to] (ms), oldest first */
  batterySamples(userId: string, from: number, to: number): Promise<BatterySample[]>;
  /** the newest bedtime guidance (sleep_time), if any */
  newestBedtime(userId: string): Promise<BedtimeRow | null>;
  /** sync work for the person is running or due now (evaluate once it is done) */
  isSyncing(userId: string, now: number): Promise<boolean>;
  /** each night's early warning (lib/signals) in a range; without it the rule is unknown and the digest leaves it out */
  earlyWarning?(userId: string, from: string, to: string): Promise<EarlyWarningNightFact[]>;
  /** the person's cycle on `today` (null: tracking off or not applicable); without it the cycle rules never fire */
  cycle?(userId: string, today: string): Promise<CycleFact | null>;
};
