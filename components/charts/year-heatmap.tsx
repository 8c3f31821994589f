"use client";
import Link from "next/link";
import { useRef, useState, type KeyboardEvent } from "react";
import type { CalendarStatus } from "@/lib/metrics/calendar";
import { MISSING_REASON_TEXT, type MissingReason } from "@/lib/metrics/missing-night";
import type { MetricDef } from "@/lib/metrics/catalog";
import { addDays, formatDay, MONTH_NAMES, weekdayMon0 } from "@/lib/days";
import { formatValue, type Units } from "@/lib/metrics/format";
import { useChartReady } from "@/components/charts/use-chart-size";
import { cn } from "@/components/ui/cn";
import type { CyclePhase } from "@/lib/cycle";
import { PHASE_SWATCH } from "@/components/cycle/phase";

/** The cycle's days a calendar marks (a stripe along the cell's foot), in words. */
export const MARKED_PHASES: Partial<Record<CyclePhase, string>> = { menstrual: "period", luteal: "luteal phase" };

export type HeatDay = { day: string; status: CalendarStatus; value: number | null; level: number | null; missingReason?: MissingReason | null };

export const STATUS_TEXT: Record<CalendarStatus, string> = {
  value: "",
  not_worn: "ring not worn",
  missing: "no document",
  not_synced: "not synced yet",
  before_history: "before your history",
};

/** What a calendar day holds, in words: its value, or why it has none; and why it has no main sleep. */
export function calendarDayText(c: HeatDay, format: (v: number | null) => string): string {
  const text = c.status === "value" ? format(c.value) : STATUS_TEXT[c.status];
  return c.missingReason ? `${text}; no main sleep: ${MISSING_REASON_TEXT[c.missingReason]}` : text;
}

/**
 * A year as twelve month grids (Monday first). Each day is a link to its day view; one Tab
 * stop for the whole year, then arrow keys move by a day (left/right) or a week (up/down).
 */
export function YearHeatmap({
  metric,
  days,
  units,
  tagged,
  label,
  phases = null,
}: {
  metric: MetricDef;
  days: HeatDay[];
  units: Units;
  tagged: ReadonlySet<string>;
  label: string;
  /** each day's cycle phase (cycle tracking on): period and luteal days get a stripe */
  phases?: ReadonlyMap<string, CyclePhase> | null;
}) {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  const lastWithValue = [...days].reverse().find((d) => d.status === "value")?.day ?? first;
  const [focus, setFocus] = useState<string | undefined>(lastWithValue);
  const rootRef = useRef<HTMLDivElement | null>(null);
  const ready = useChartReady<HTMLDivElement>(days.length > 0);
  if (!first || !last) return null;

  const months: Array<{ key: string; title: string; cells: Array<HeatDay | null> }> = [];
  let cursor = first;
  while (cursor <= last) {
    const ym = cursor.slice(0, 7);
    const cells: Array<HeatDay | null> = Array.from({ length: weekdayMon0(cursor) }, () => null);
    let d = cursor;
    while (d.slice(0, 7) === ym && d <= last) {
      cells.push(byDay.get(d) ?? { day: d, status: "missing", value: null, level: null });
      d = addDays(d, 1);
    }
    months.push({ key: ym, title: MONTH_NAMES[Number(ym.slice(5, 7)) - 1] ?? ym, cells });
    cursor = d;
  }

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
    if (!step || !focus) return;
    e.preventDefault();
    const next = addDays(focus, step);
    if (next < first || next > last) return;
    setFocus(next);
    rootRef.current?.querySelector<HTMLElement>(`[data-day="${next}"]`)?.focus();
  };
  /** What a day holds, in words: its value, or why it has none. */
  const dayText = (c: HeatDay) => calendarDayText(c, (v) => formatValue(metric, v, units));
  /** the day's marked phase, if any */
  const phaseOf = (day: string): CyclePhase | null => {
    const p = phases?.get(day);
    return p && MARKED_PHASES[p] ? p : null;
  };

  return (
    <div
      ref={(el) => {
        rootRef.current = el;
        ready(el);
      }}
      role="group"
      aria-label={`${label}. Arrow keys move between days, Enter opens a day.`}
      onKeyDown={onKey}
      className="grid grid-cols-2 gap-x-4 gap-y-5 min-[520px]:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6"
    >
      {months.map((m) => (
        <div key={m.key}>
          <p className="mb-1.5 text-xs font-semibold text-slate-700 dark:text-slate-300">{m.title}</p>
          <div className="grid grid-cols-7 gap-[3px]" aria-hidden={false}>
            {["M", "T", "W", "T", "F", "S", "S"].map((w, i) => (
              <span key={i} aria-hidden className="text-center text-[0.6rem] text-slate-500 dark:text-slate-400">
                {w}
              </span>
            ))}
            {m.cells.map((c, i) =>
              c ? (
                <Link
                  key={c.day}
                  href={`/day/${c.day}`}
                  prefetch={false}
                  data-day={c.day}
                  data-status={c.status}
                  tabIndex={c.day === focus ? 0 : -1}
                  onFocus={() => setFocus(c.day)}
                  data-phase={phaseOf(c.day) ?? undefined}
                  aria-label={`${formatDay(c.day, { withYear: true })}: ${dayText(c)}${tagged.has(c.day) ? ", tagged" : ""}${
                    phaseOf(c.day) ? `, ${MARKED_PHASES[phaseOf(c.day)!]}` : ""
                  }`}
                  title={`${formatDay(c.day, { withYear: true })} · ${dayText(c)}`}
                  className={cn(
                    "relative aspect-square rounded-[4px] outline-offset-1 focus-visible:outline-2 focus-visible:outline-brand-600",
                    c.status === "value" && "hover:ring-2 hover:ring-slate-900/30 dark:hover:ring-white/40",
                    c.status === "not_worn" && "heat-not-worn",
                    c.status === "missing" && "border border-dashed border-slate-300 dark:border-slate-600",
                    c.status === "not_synced" && "border border-dotted border-slate-200 opacity-60 dark:border-slate-700",
                    c.status === "before_history" && "bg-slate-100/70 dark:bg-slate-800/30",
                  )}
                  style={c.status === "value" ? { background: `var(--heat-${c.level ?? 0})` } : undefined}
                >
                  {tagged.has(c.day) ? (
                    <span
                      aria-hidden
                      className="absolute right-[1px] top-[1px] h-1.5 w-1.5 rounded-full bg-[var(--chart-tag)] ring-1 ring-white dark:ring-slate-900"
                    />
                  ) : null}
                  {phaseOf(c.day) ? (
                    <span aria-hidden className="absolute inset-x-0 bottom-0 h-[3px] rounded-b-[4px]" style={{ background: PHASE_SWATCH[phaseOf(c.day)!] }} />
                  ) : null}
                </Link>
              ) : (
                <span key={`pad-${i}`} aria-hidden />
              ),
            )}
          </div>
        </div>
      ))}
    </div>
  );
}

/** Legend of the heatmap's colours and states. */
export function HeatLegend({ thresholds, metric, units, phases = false }: { thresholds: number[]; metric: MetricDef; units: Units; phases?: boolean }) {
  const fmt = (v: number) => formatValue(metric, v, units);
  const levels =
    thresholds.length === 3
      ? metric.direction === "lower"
        ? [
            `> ${fmt(thresholds[2]!)}`,
            `${fmt(thresholds[1]!)}–${fmt(thresholds[2]!)}`,
            `${fmt(thresholds[0]!)}–${fmt(thresholds[1]!)}`,
            `< ${fmt(thresholds[0]!)}`,
          ]
        : [
            `< ${fmt(thresholds[0]!)}`,
            `${fmt(thresholds[0]!)}–${fmt(thresholds[1]!)}`,
            `${fmt(thresholds[1]!)}–${fmt(thresholds[2]!)}`,
            `≥ ${fmt(thresholds[2]!)}`,
          ]
      : [];
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-slate-600 dark:text-slate-400">
      {levels.map((l, i) => (
        <li key={i} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="h-3 w-3 rounded-[3px]" style={{ background: `var(--heat-${i})` }} />
          {l}
        </li>
      ))}
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="heat-not-worn h-3 w-3 rounded-[3px]" /> not worn
      </li>
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="h-3 w-3 rounded-[3px] border border-dashed border-slate-400" /> missing
      </li>
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="h-3 w-3 rounded-[3px] border border-dotted border-slate-300 opacity-60 dark:border-slate-600" /> not synced yet
      </li>
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="h-3 w-3 rounded-[3px] bg-slate-100/70 dark:bg-slate-800/30" /> before your history
      </li>
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-[var(--chart-tag)]" /> tagged
      </li>
      {phases
        ? (Object.keys(MARKED_PHASES) as CyclePhase[]).map((p) => (
            <li key={p} className="inline-flex items-center gap-1.5">
              <span aria-hidden className="h-[3px] w-3 rounded-sm" style={{ background: PHASE_SWATCH[p] }} /> {MARKED_PHASES[p]}
            </li>
          ))
        : null}
    </ul>
  );
}
