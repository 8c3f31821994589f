// The cycle step of the benchmark (run by e2e/bench/run.ts and by `npm run bench:cycle`,
// e2e/bench/cycle.ts): the cycle-aware early warning and the cycle's detection, measured through
// the app as people would use it.
//
// Synthetic people are built here (e2e/bench/cycle-people.ts: women with cycles after the
// published figures, men, illnesses planted in both phases). Each signs in through the real OAuth
// flow (a lapsed membership: the ring service gives nothing), imports their nights through
// Ringside's own import (POST /api/import, application/json, the "ringside-export-v1" format),
// and creates a token; each woman turns cycle tracking on through Settings' own action, logs each
// period start with the app's own action (as on the Day page), and turns tracking off again.
// /api/v1/signals is scored night by night with tracking off ("before"), then, for the women,
// with it on ("after"); /api/v1/cycle gives the ovulations and the predictions.
import crypto from "node:crypto";
import { clock } from "@/lib/clock";
import { addDays, diffDays, utcDay } from "@/lib/days";
import { generateRange } from "@/lib/emulator/generator";
import { findAction, getJson, makeToken, signInAndImport } from "./app-session";
import { makePeople, type SyntheticPerson } from "./cycle-people";
import { cycleBlock, scoreAlarms, scoreDetection, type AlarmScore, type CycleBlock, type DetectionScore, type Level } from "./cycle-score";
import type { ActionArg } from "../chaos/support/actions";
import { builtServerActions, type ManifestAction } from "../chaos/support/surface";

/** This run's own id, so its people never meet an earlier run's in the emulator. */
const RUN_ID = crypto.randomBytes(4).toString("hex");

export type CycleFigures = CycleBlock & { before: Pick<CycleBlock, "false_watch_per_year" | "false_likely_per_year" | "recall"> };

/** the people: RINGSIDE_CYCLE_SEED, or the bench's own */
export const CYCLE_BENCH_SEED = process.env.RINGSIDE_CYCLE_SEED || "ringside-cycle-bench";

export type MeasureCycleOptions = { appUrl: string; emulatorUrl: string; seed: string; women: number; men: number; log: (msg: string) => void };

/** Nights each person has: the scored year and the 195 before it (baselines, the first cycles). */
export const CYCLE_BENCH_DAYS = 560;

/**
 * The people of the seed, through the app whose emulator has the bench's OAuth client: the
 * `cycle` block (with tracking on for the women) and the same figures with it off ("before").
 */
export async function measureCycle(o: MeasureCycleOptions): Promise<CycleFigures> {
  const built = builtServerActions();
  const actions = {
    token: findAction(built, "createApiTokenAction"),
    settings: findAction(built, "saveCycleSettingsAction"),
    log: findAction(built, "logCycleEntryAction"),
  };
  const last = addDays(utcDay(clock.now()), -1);
  const people = makePeople({ seed: o.seed, women: o.women, men: o.men, days: CYCLE_BENCH_DAYS, first: addDays(last, -(CYCLE_BENCH_DAYS - 1)) });
  const before = new Map<string, AlarmScore>();
  const after = new Map<string, AlarmScore>();
  const found = new Map<string, DetectionScore>();
  for (const p of people) {
    const r = await measurePerson(o.appUrl, o.seed, p, o.emulatorUrl, actions);
    before.set(p.key, r.before);
    after.set(p.key, r.after);
    if (r.detection) found.set(p.key, r.detection);
    o.log(`cycle: ${p.key}: false watch ${r.before.falseWatch} → ${r.after.falseWatch}, illnesses caught ${r.after.caught}/${r.after.illnesses}`);
  }
  const b = cycleBlock(people, before, found);
  return {
    ...cycleBlock(people, after, found),
    before: { false_watch_per_year: b.false_watch_per_year, false_likely_per_year: b.false_likely_per_year, recall: b.recall },
  };
}

/** The person's nights as a Ringside export: the emulator's documents of each day, with the person's own values written in. */
export function exportOf(p: SyntheticPerson, seed: string): string {
  const last = addDays(p.first, p.days - 1);
  const docs = generateRange({ seed: `bench-cycle-${seed}`, userKey: p.key }, p.first, last);
  const at = (day: unknown) => (typeof day === "string" ? diffDays(p.first, day) : -1);
  const readiness = docs.daily_readiness.flatMap((d) => {
    const i = at((d as { day?: unknown }).day);
    return i < 0 || i >= p.days ? [] : [{ ...d, temperature_deviation: p.temperature[i] }];
  });
  const sleep = docs.sleep.flatMap((d) => {
    const doc = d as { day?: unknown; type?: unknown };
    const i = at(doc.day);
    if (i < 0 || i >= p.days || doc.type !== "long_sleep") return [];
    return [{ ...d, lowest_heart_rate: p.restingHeartRate[i], average_hrv: p.hrv[i], average_breath: p.breathingRate[i] }];
  });
  return JSON.stringify({ format: "ringside-export-v1", collections: { daily_readiness: readiness, sleep } });
}

/** The early warning's level of each night of the person (null outside the scored year). */
async function levels(appUrl: string, p: SyntheticPerson, token: string): Promise<Level[]> {
  const from = addDays(p.first, p.scoredFrom);
  const to = addDays(p.first, p.days - 1);
  type Row = { day: string; signals: Array<{ kind: string; level?: Level }> };
  const body = await getJson<{ days: Row[] }>(appUrl, token, `/api/v1/signals?from=${from}&to=${to}`);
  const out: Level[] = new Array<Level>(p.days).fill(null);
  for (const d of body.days) out[diffDays(p.first, d.day)] = d.signals.find((s) => s.kind === "early_warning")?.level ?? null;
  return out;
}

/** The cycle's detected ovulations and the next-period window shown each day, from /api/v1/cycle (366 days at a time). */
async function detection(
  appUrl: string,
  p: SyntheticPerson,
  token: string,
): Promise<{ detected: Set<number>; windows: Array<{ from: number; to: number } | null> }> {
  const detected = new Set<number>();
  const windows: Array<{ from: number; to: number } | null> = new Array<{ from: number; to: number } | null>(p.days).fill(null);
  const last = addDays(p.first, p.days - 1);
  type Row = { day: string; ovulation: boolean; next_period: { from: string; to: string } | null };
  for (let a = addDays(p.first, p.scoredFrom - 30); a <= last; a = addDays(a, 366)) {
    const b = addDays(a, 365) < last ? addDays(a, 365) : last;
    const body = await getJson<{ status: string; days: Row[] }>(appUrl, token, `/api/v1/cycle?from=${a}&to=${b}`);
    if (body.status !== "ok") throw new Error(`cycle status ${body.status}`);
    for (const d of body.days) {
      const i = diffDays(p.first, d.day);
      if (d.ovulation) detected.add(i);
      windows[i] = d.next_period && { from: diffDays(p.first, d.next_period.from), to: diffDays(p.first, d.next_period.to) };
    }
  }
  return { detected, windows };
}

async function measurePerson(
  appUrl: string,
  seed: string,
  p: SyntheticPerson,
  emulatorUrl: string,
  actions: { token: ManifestAction; settings: ManifestAction; log: ManifestAction },
): Promise<{ before: AlarmScore; after: AlarmScore; detection: DetectionScore | null }> {
  const email = `bench-cycle-${p.key}-${RUN_ID}@bench.example.test`;
  const session = await signInAndImport(appUrl, emulatorUrl, email, exportOf(p, seed));
  const answer = async (a: ManifestAction, args: ActionArg[]) => {
    const r = (await session.action(a, args)) as { error?: { message?: string } } | null;
    if (r && typeof r === "object" && r.error) throw new Error(`${a.name}: ${r.error.message ?? "refused"}`);
    return r;
  };
  // A woman turns tracking on (entries are logged only then), logs each period start on its
  // day's page, and turns it off again for the "before" figures.
  if (p.sex === "woman") {
    await answer(actions.settings, [{ json: { tracking: true } }]);
    for (const s of p.periodStarts)
      await answer(actions.log, [
        { json: {} },
        {
          form: [
            ["day", addDays(p.first, s)],
            ["kind", "period_start"],
          ],
        },
      ]);
    await answer(actions.settings, [{ json: { tracking: false } }]);
  }
  const token = await makeToken(session, actions.token, "bench-cycle");
  const before = scoreAlarms(p, await levels(appUrl, p, token));
  if (p.sex === "man") return { before, after: before, detection: null };
  await answer(actions.settings, [{ json: { tracking: true } }]);
  const after = scoreAlarms(p, await levels(appUrl, p, token));
  const found = await detection(appUrl, p, token);
  return { before, after, detection: scoreDetection(p, found.detected, found.windows) };
}
