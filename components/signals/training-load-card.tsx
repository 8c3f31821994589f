"use client";
import { useMemo } from "react";
import { formatDay } from "@/lib/days";
import { formatNumber } from "@/lib/metrics/format";
import type { SignalDay, TrainingLoadSignal } from "@/lib/signals/signal-days";
import { TRAINING_LOAD, type LoadZone } from "@/lib/signals/training-load";
import { bandPath, linearScale, linePath } from "@/components/charts/scale";
import { Sparkline } from "@/components/charts/sparkline";
import { Badge, SignalCard } from "@/components/signals/signal-card";

const ZONE_TEXT: Record<LoadZone, string> = {
  below: "below 0.8: less than your usual load",
  within: "0.8–1.3: close to your usual load",
  above: "1.3–1.5: more than your usual load",
  well_above: "above 1.5: well above your usual load",
};

const W = 300;
const H = 90;

/** The ratio's last weeks with the commonly shown ranges behind it (drawn as context, not as a risk). */
function RatioChart({ days }: { days: ReadonlyArray<{ day: string; ratio: number | null }> }) {
  const geo = useMemo(() => {
    const vals = days.map((d) => d.ratio);
    const nums = vals.filter((v): v is number => v !== null);
    if (!nums.length) return null;
    const [a, b, c] = TRAINING_LOAD.edges;
    const lo = Math.min(0.5, ...nums);
    const hi = Math.max(1.8, ...nums);
    const x = linearScale([0, Math.max(1, days.length - 1)], [0, W]);
    const y = linearScale([lo, hi], [H - 2, 2]);
    const xs = days.map((_, i) => x(i));
    const edge = (v: number) => xs.map(() => y(v));
    return {
      within: bandPath(xs, edge(a), edge(b)),
      above: bandPath(xs, edge(b), edge(c)),
      line: linePath(
        xs,
        vals.map((v) => (v === null ? null : y(v))),
      ),
      one: y(1),
    };
  }, [days]);
  if (!geo) return null;
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`Acute:chronic ratio, ${formatDay(days[0]!.day)} to ${formatDay(days.at(-1)!.day)}`}
      className="h-24 w-full"
      data-testid="load-ratio-chart"
    >
      <path d={geo.within} fill="var(--zone-within)" />
      <path d={geo.above} fill="var(--zone-above)" />
      <line x1={0} x2={W} y1={geo.one} y2={geo.one} stroke="var(--chart-grid)" vectorEffect="non-scaling-stroke" />
      <path d={geo.line} fill="none" stroke="var(--workout)" strokeWidth={1.75} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** The Workouts page's training load: acute and chronic load, their ratio over the last weeks, and VO2 max beside it. */
export function TrainingLoadCard({ days }: { days: readonly SignalDay[] }) {
  const series = days.map((d) => ({ day: d.day, s: d.signals.find((x): x is TrainingLoadSignal => x.kind === "training_load") ?? null }));
  const last = [...series].reverse().find((x) => x.s && x.s.status !== "no_data") ?? series.at(-1);
  const s = last?.s ?? null;
  const vo2 = series.map((x) => x.s?.inputs.vo2Max ?? null);
  const vo2Now = s?.inputs.vo2Max ?? null;
  const vo2First = vo2.find((v) => v !== null) ?? null;
  return (
    <SignalCard
      kind="training_load"
      badge={
        s?.zone ? (
          <Badge tone={s.zone === "within" ? "good" : s.zone === "below" ? "neutral" : "warn"}>{s.value?.toFixed(2)}</Badge>
        ) : (
          <Badge tone="neutral">Not enough days</Badge>
        )
      }
    >
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-2">
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="training-load-summary">
            {!s || s.value === null
              ? `The ratio needs ${TRAINING_LOAD.minDays} days of activity or workouts; ${s?.inputs.daysWithData ?? 0} so far.`
              : `Acute:chronic ratio ${s.value.toFixed(2)} (${ZONE_TEXT[s.zone!]}) on ${formatDay(last!.day)}.`}
          </p>
          <dl className="grid grid-cols-3 gap-2 text-sm">
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">Acute (7 d)</dt>
              <dd className="font-medium tabular-nums">{s?.inputs.acute === null || !s ? "—" : formatNumber(s.inputs.acute)}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">Chronic (28 d)</dt>
              <dd className="font-medium tabular-nums">{s?.baseline.chronic === null || !s ? "—" : formatNumber(s.baseline.chronic)}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">That day</dt>
              <dd className="font-medium tabular-nums">{s?.inputs.load === null || !s ? "—" : formatNumber(s.inputs.load)}</dd>
            </div>
          </dl>
          <RatioChart days={series.map((x) => ({ day: x.day, ratio: x.s?.value ?? null }))} />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Loads in MET-minutes a day (exponentially weighted). Shaded: 0.8–1.3 and 1.3–1.5, the ranges commonly shown. They describe your load against your
            own recent weeks; the ratio does not predict injuries for one person.
          </p>
        </div>
        <div className="space-y-1" data-testid="vo2max-trend">
          <p className="text-xs text-slate-500 dark:text-slate-400">VO2 max</p>
          <p className="text-2xl font-semibold tabular-nums">
            {vo2Now ?? "—"} <span className="text-sm font-normal text-slate-500 dark:text-slate-400">ml/kg/min</span>
          </p>
          {vo2Now !== null && vo2First !== null ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {vo2Now === vo2First ? "unchanged" : `${vo2Now > vo2First ? "+" : "−"}${Math.abs(vo2Now - vo2First)}`} since {formatDay(series[0]!.day)}
            </p>
          ) : null}
          <Sparkline values={vo2} color="var(--fitness)" label="VO2 max over the same weeks" height={40} />
        </div>
      </div>
    </SignalCard>
  );
}
