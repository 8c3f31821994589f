import { getMetric } from "@/lib/metrics/catalog";
import { addDays, formatDay } from "@/lib/days";
import { formatValue, type Units } from "@/lib/metrics/format";
import type { EarlyWarningSignal } from "@/lib/signals/signal-days";
import { EARLY_WARNING, flagRuleText, MARKER_LABELS, type Marker } from "@/lib/signals/early-warning";
import { Badge, SignalCard } from "@/components/signals/signal-card";
import { cn } from "@/components/ui/cn";

/** The metric each marker is shown as (its unit and format). */
const MARKER_METRIC = {
  temperature_deviation: "readiness.temperature_deviation",
  resting_heart_rate: "night.lowest_heart_rate",
  hrv: "night.average_hrv",
  breathing_rate: "night.average_breath",
} as const satisfies Record<Marker, string>;

const LEVEL_TEXT = { none: "None", watch: "Watch", likely: "Likely" } as const;
const LEVEL_TONE = { none: "good", watch: "warn", likely: "bad" } as const;
const LEVEL_COLOR = { none: "var(--good)", watch: "var(--warn)", likely: "var(--bad)" } as const;

/** A change against the baseline in the marker's unit, signed ("+0.35 °C", "−12 %"). */
export function changeText(marker: Marker, delta: number | null, units: Units): string {
  if (delta === null) return "—";
  if (marker === "hrv") return `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(Math.round(delta * 100))} %`;
  const m = getMetric(MARKER_METRIC[marker]);
  const v = formatValue(m, Math.abs(delta), units);
  return `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${v.replace(/^[+−]/, "")}`;
}

/**
 * Today's early warning: the newest night's level, each marker against its baseline (which
 * moved, by how much, against what), the last two weeks of levels, and that it is not a diagnosis.
 */
export function EarlyWarningCard({
  day,
  signal,
  recent,
  units,
}: {
  day: string;
  signal: EarlyWarningSignal;
  recent: Array<{ day: string; level: EarlyWarningSignal["level"] }>;
  units: Units;
}) {
  const badge =
    signal.level === null ? (
      <Badge tone="neutral" testId="early-warning-level">
        {signal.status === "no_data" ? "No night" : "Learning your baseline"}
      </Badge>
    ) : (
      <Badge tone={LEVEL_TONE[signal.level]} testId="early-warning-level">
        {LEVEL_TEXT[signal.level]}
      </Badge>
    );
  const b = signal.baseline.resting_heart_rate ?? signal.baseline.temperature_deviation;
  const flagged = signal.markers.filter((m) => m.flagged).length;
  return (
    <SignalCard kind="early_warning" badge={badge}>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {signal.level === null
          ? `Needs ${EARLY_WARNING.minNights} nights of history for at least two markers before it can compare a night with your own baseline.`
          : signal.level === "none"
            ? `Night of ${formatDay(day)}: your markers are where they usually are.`
            : `Night of ${formatDay(day)}: ${flagged} of 4 markers left your baseline` +
              `${signal.heartRateTwoNights ? ", resting heart rate two nights in a row" : ""}.`}
        {signal.muted ? " Rest mode is on, so no alert is sent." : ""}
      </p>
      <table className="w-full text-xs tabular-nums sm:text-[13px]">
        <thead>
          <tr className="text-left text-xs text-slate-500 dark:text-slate-400">
            <th className="py-1 font-medium">Marker</th>
            <th className="py-1 text-right font-medium">Night</th>
            <th className="py-1 text-right font-medium">Baseline</th>
            <th className="py-1 text-right font-medium">Change</th>
          </tr>
        </thead>
        <tbody>
          {signal.markers.map((m) => {
            const metric = getMetric(MARKER_METRIC[m.marker]);
            return (
              <tr
                key={m.marker}
                data-testid={`marker-${m.marker}`}
                data-flagged={m.flagged}
                className={cn("border-t border-slate-100 dark:border-slate-800", m.flagged && "font-semibold text-[var(--bad)]")}
              >
                <td className="py-1">
                  {MARKER_LABELS[m.marker]}
                  {m.flagged ? <span className="sr-only"> (moved)</span> : null}
                </td>
                <td className="py-1 pl-1.5 text-right sm:whitespace-nowrap sm:pl-2">{formatValue(metric, signal.inputs[m.marker], units)}</td>
                <td className="py-1 pl-1.5 text-right sm:whitespace-nowrap sm:pl-2 text-slate-500 dark:text-slate-400">
                  {formatValue(metric, signal.baseline[m.marker]?.median ?? null, units)}
                </td>
                <td className="py-1 pl-1.5 text-right sm:whitespace-nowrap sm:pl-2">{changeText(m.marker, m.delta, units)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <FlagRules markers={signal.markers} units={units} />
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Baseline: the median of your nights {formatDay(addDays(day, -EARLY_WARNING.windowDays))} – {formatDay(addDays(day, -(EARLY_WARNING.excludeNights + 1)))}
        {b ? ` (${b.nights} nights)` : ""}. <strong className="font-semibold text-slate-700 dark:text-slate-200">This is not a diagnosis:</strong> alcohol, a
        late meal, travel or hard training move these markers too.
      </p>
      {signal.cycle_adjusted && signal.cycle_correction ? (
        <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="early-warning-cycle">
          Cycle-aware: {signal.cycle_correction}
        </p>
      ) : null}
      <ol aria-label="Early warning, last 14 nights" className="flex gap-1" data-testid="early-warning-recent">
        {recent.map((r) => (
          <li
            key={r.day}
            title={`${formatDay(r.day)}: ${r.level === null ? "no level" : LEVEL_TEXT[r.level]}`}
            className="h-2.5 flex-1 rounded-sm"
            style={{ background: r.level === null ? "var(--heat-missing)" : LEVEL_COLOR[r.level] }}
          >
            <span className="sr-only">
              {formatDay(r.day)}: {r.level === null ? "no level" : LEVEL_TEXT[r.level]}
            </span>
          </li>
        ))}
      </ol>
    </SignalCard>
  );
}

/**
 * Why each flagged marker flagged: the rule that fired, its value and its threshold, in
 * docs/signals.md's words ("Temperature: the mean of the last 3 nights +0.35 °C, at least +0.3 °C
 * above baseline"). Nothing when no marker flagged.
 */
export function FlagRules({ markers, units, className }: { markers: EarlyWarningSignal["markers"]; units: Units; className?: string }) {
  const fired = markers.filter((m) => m.flagged && m.rule);
  if (fired.length === 0) return null;
  return (
    <ul
      className={cn("space-y-0.5 text-xs text-slate-700 dark:text-slate-200", className)}
      aria-label="Why each marker flagged"
      data-testid="early-warning-rules"
    >
      {fired.map((m) => (
        <li key={m.marker} data-testid={`rule-${m.marker}`} data-rule={m.rule!.name}>
          <span className="font-semibold">{MARKER_LABELS[m.marker]}</span>: {flagRuleText(m.rule!, (v) => changeText(m.marker, v, units))}
        </li>
      ))}
    </ul>
  );
}
