// The sleep need's step of the benchmark (run by e2e/bench/run.ts and by `npm run bench:sleep-need`,
// e2e/bench/sleep-need.ts): the need and the debt of planted people, measured through the app as
// people would use it.
//
// The bench's people (e2e/bench/sleep-need-people.ts: a known need, realistic weeks, a readiness
// that falls with the night's and the week's shortfall). Each signs in through the real OAuth flow
// (a lapsed membership: the ring service gives nothing), imports their nights through Ringside's
// own import (POST /api/import, the "ringside-export-v1" format), and creates a token;
// /api/v1/signals is read on their last day: the need, its range and the debt, against the
// planted need and the true debt (the same 14-night rule from the planted need). The estimator
// Ringside had before issue 56 is scored on the same nights for the "before" figures
// (e2e/bench/sleep-need-score.ts).
import crypto from "node:crypto";
import { addDays } from "@/lib/days";
import { findAction, getJson, makeToken, signInAndImport } from "./app-session";
import { sleepNeedBenchPeople, sleepNeedExport, type SleepNeedPerson } from "./sleep-need-people";
import { sleepNeedBlock, truthAndBefore, type NeedReading, type SleepNeedFigures } from "./sleep-need-score";
import { builtServerActions } from "../chaos/support/surface";

/** This run's own id, so its people never meet an earlier run's in the emulator. */
const RUN_ID = crypto.randomBytes(4).toString("hex");

export type MeasureSleepNeedOptions = { appUrl: string; emulatorUrl: string; log: (msg: string) => void };

type DebtRow = {
  kind: "sleep_debt";
  value: number | null;
  baseline: { needH: number; needRange: { lowH: number; highH: number } | null; needAtLeast: boolean; needSourceText: string };
};

/** The bench's people through the app whose emulator has the bench's OAuth client: the `sleep_need` block. */
export async function measureSleepNeed(o: MeasureSleepNeedOptions): Promise<SleepNeedFigures> {
  const tokenAction = findAction(builtServerActions(), "createApiTokenAction");
  const readings: NeedReading[] = [];
  for (const p of sleepNeedBenchPeople()) {
    const reading = await measurePerson(o, p, tokenAction);
    readings.push(reading);
    o.log(
      `sleep need: ${p.seed} ${p.key}: need ${min(reading.trueNeedS)} → ${min(reading.needS)} (before ${min(reading.beforeNeedS)}), ` +
        `debt ${hours(reading.trueDebtS)} → ${hours(reading.debtS)} (before ${hours(reading.beforeDebtS)})`,
    );
  }
  return sleepNeedBlock(readings);
}

const min = (s: number) => `${Math.round(s / 60)} min`;
const hours = (s: number) => `${Math.round(s / 36) / 100} h`;

async function measurePerson(
  o: MeasureSleepNeedOptions,
  p: SleepNeedPerson & { seed: string },
  tokenAction: ReturnType<typeof findAction>,
): Promise<NeedReading> {
  const email = `bench-need-${p.seed.slice(-1)}-${p.key}-${RUN_ID}@bench.example.test`;
  const session = await signInAndImport(o.appUrl, o.emulatorUrl, email, JSON.stringify(sleepNeedExport(p)));
  const token = await makeToken(session, tokenAction, "bench-sleep-need");
  const last = addDays(p.first, p.days - 1);
  const body = await getJson<{ days: Array<{ day: string; signals: Array<{ kind: string }> }> }>(o.appUrl, token, `/api/v1/signals?from=${last}&to=${last}`);
  const row = body.days.at(-1)?.signals.find((s): s is DebtRow => s.kind === "sleep_debt");
  if (!row || row.value === null) throw new Error(`${p.key}: no sleep debt on ${last}`);
  return {
    ...truthAndBefore(p),
    needS: row.baseline.needH * 3600,
    low: row.baseline.needRange ? row.baseline.needRange.lowH * 3600 : null,
    high: row.baseline.needRange ? row.baseline.needRange.highH * 3600 : null,
    debtS: row.value * 3600,
  };
}
