import { formatDuration } from "@/lib/metrics/format";
import { addDays, formatDay } from "@/lib/days";
import type { SleepDebtSignal } from "@/lib/signals/signal-days";
import { SLEEP_DEBT } from "@/lib/signals/sleep-debt";
import { needNote, needValueWords } from "@/lib/signals/sleep-need-words";
import { Badge, SignalCard } from "@/components/signals/signal-card";
import { settingsHref } from "@/lib/settings-sections";

/** RISE's advice: keep the debt under 5 hours (a convention, not a threshold). */
const ADVISED_MAX_H = 5;

/** The need the debt is measured against: its value and range, its source, and why when that needs saying. */
export function SleepNeedLine({ signal }: { signal: SleepDebtSignal }) {
  const b = signal.baseline;
  const note = needNote(b);
  return (
    <>
      <span data-testid="sleep-need">
        Need: <span className="font-medium tabular-nums">{needValueWords(b)}</span>, <span data-testid="sleep-need-source">{b.needSourceText}</span>.
      </span>
      {note ? <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">{note}</span> : null}
    </>
  );
}

/** Today's sleep debt: hours owed over 14 nights, the need it is measured against, each night's sleep. */
export function SleepDebtCard({ day, signal }: { day: string; signal: SleepDebtSignal }) {
  const need = signal.baseline.needH;
  const atLeast = signal.baseline.needAtLeast;
  const nights = [...signal.inputs.nights].reverse(); // oldest first
  const top = Math.max(need, ...nights.map((h) => h ?? 0)) * 1.1;
  const badge =
    signal.value === null ? (
      <Badge tone="neutral">Not enough nights</Badge>
    ) : atLeast && signal.value < ADVISED_MAX_H ? (
      // a lower bound under 5 h says nothing of whether the debt is under 5 h
      <Badge tone="neutral">a lower bound</Badge>
    ) : (
      <Badge tone={signal.value < 1 ? "good" : signal.value < ADVISED_MAX_H ? "warn" : "bad"}>
        {signal.value < ADVISED_MAX_H ? `under ${ADVISED_MAX_H} h` : `over ${ADVISED_MAX_H} h`}
      </Badge>
    );
  return (
    <SignalCard kind="sleep_debt" badge={badge}>
      <p className="text-3xl font-semibold tabular-nums" data-testid="sleep-debt-value">
        {atLeast && signal.value !== null ? <span className="text-base font-medium">at least </span> : null}
        {signal.value === null ? "—" : formatDuration(signal.value * 3600)}
      </p>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {signal.value === null
          ? `Needs ${SLEEP_DEBT.minNights} of the last ${SLEEP_DEBT.nights} nights; ${signal.inputs.nightsWithData} so far.`
          : `Owed over the last ${SLEEP_DEBT.nights} nights, recent nights weighing more.`}{" "}
        <SleepNeedLine signal={signal} />{" "}
        <a href={settingsHref("signals", "sleep-need")} className="underline decoration-dotted underline-offset-2">
          Set it
        </a>
      </p>
      <svg
        viewBox={`0 0 ${nights.length * 10} 40`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Sleep each night, ${formatDay(addDays(day, -(nights.length - 1)))} to ${formatDay(day)}, against your need`}
        className="h-12 w-full"
      >
        {nights.map((h, i) =>
          h === null ? null : (
            <rect
              key={i}
              x={i * 10 + 1.5}
              width={7}
              y={40 - (h / top) * 40}
              height={(h / top) * 40}
              rx={1}
              fill={h < need ? "var(--sleep)" : "var(--recovery)"}
              opacity={0.85}
            />
          ),
        )}
        <line
          x1={0}
          x2={nights.length * 10}
          y1={40 - (need / top) * 40}
          y2={40 - (need / top) * 40}
          stroke="var(--chart-cursor)"
          strokeDasharray="3 2"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <p className="text-xs text-slate-500 dark:text-slate-400">Bars: each night&apos;s sleep with naps (green: the need met). Dashed: your need.</p>
    </SignalCard>
  );
}
