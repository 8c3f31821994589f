"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import type { WorkoutsResponse } from "@/lib/api/contract";
import { addDays, formatDay, todayIn } from "@/lib/days";
import { formatDuration } from "@/lib/metrics/format";
import { labelOf, WORKOUT_INTENSITIES } from "@/lib/metrics/sources";
import { activityName, type WorkoutItem } from "@/lib/metrics/workouts";
import { LazyWeeklyWorkouts, LazyWorkoutCurve } from "@/components/charts/lazy";
import type { WeeklySeries } from "@/components/charts/weekly-workouts";
import { useWorkout, useWorkouts } from "@/components/hooks/use-workouts";
import { Card, cardClass, PageHeader } from "@/components/ui/card";
import { Button, inputClass } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/components/ui/cn";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { WorkoutsSignals } from "@/components/signals/workouts-signals";

type Range = "90d" | "1y" | "all";
const RANGES: ReadonlyArray<{ value: Range; label: string; days: number | null }> = [
  { value: "90d", label: "3 months", days: 90 },
  { value: "1y", label: "1 year", days: 365 },
  { value: "all", label: "All", days: null },
];
/** Colours the activities take in the weekly chart, in order of frequency. */
const PALETTE = [
  "var(--chart-1)",
  "var(--chart-3)",
  "var(--chart-2)",
  "var(--chart-4)",
  "var(--workout)",
  "var(--session)",
  "var(--sleep)",
  "var(--readiness)",
];
const PAGE = 30;

const distanceText = (m: number | null) => (m === null ? null : m >= 1000 ? `${(m / 1000).toFixed(1)} km` : `${Math.round(m)} m`);
const clock = (iso: string | null) => (iso ? iso.slice(11, 16) : "?");

export function WorkoutsClient({ initial }: { initial: { range: string | null; activity: string | null; intensity: string | null; workout: string | null } }) {
  const [range, setRange] = useState<Range>(RANGES.some((r) => r.value === initial.range) ? (initial.range as Range) : "1y");
  const [activity, setActivity] = useState<string | null>(initial.activity);
  const [intensity, setIntensity] = useState<string | null>(initial.intensity);
  const [selected, setSelected] = useState<string | null>(initial.workout);
  const [measure, setMeasure] = useState<"minutes" | "calories">("minutes");
  const [by, setBy] = useState<"byActivity" | "byIntensity">("byActivity");
  const [shown, setShown] = useState(PAGE);

  const days = RANGES.find((r) => r.value === range)?.days ?? null;
  const to = days === null ? null : todayIn();
  const from = days === null || to === null ? null : addDays(to, -(days - 1));
  const q = useWorkouts(from, to, activity, intensity);

  // keep the URL in step with the view (bookmarkable), without a navigation
  useEffect(() => {
    const sp = new URLSearchParams();
    if (range !== "1y") sp.set("range", range);
    if (activity) sp.set("activity", activity);
    if (intensity) sp.set("intensity", intensity);
    if (selected) sp.set("w", selected);
    const next = sp.toString();
    if (window.location.search.slice(1) !== next) window.history.replaceState(null, "", next ? `?${next}` : window.location.pathname);
  }, [range, activity, intensity, selected]);

  const data = q.data;
  return (
    <div className="space-y-4" data-testid="workouts">
      <PageHeader title="Workouts" subtitle="Every workout the ring recorded: filter them, see your weeks, open one for its heart rate." />
      <div className="flex flex-wrap items-end gap-3" data-testid="workout-filters">
        <Segmented
          label="Range"
          value={range}
          onChange={(v) => {
            setRange(v);
            setShown(PAGE);
          }}
          options={RANGES}
        />
        <label className="flex items-center gap-2 text-xs font-medium text-slate-600 dark:text-slate-400">
          Activity
          <select
            className={inputClass}
            value={activity ?? ""}
            onChange={(e) => {
              setActivity(e.target.value || null);
              setShown(PAGE);
            }}
            data-testid="filter-activity"
          >
            <option value="">All activities</option>
            {(data?.activities ?? (activity ? [activity] : [])).map((a) => (
              <option key={a} value={a}>
                {activityName(a)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-xs font-medium text-slate-600 dark:text-slate-400">
          Intensity
          <select
            className={inputClass}
            value={intensity ?? ""}
            onChange={(e) => {
              setIntensity(e.target.value || null);
              setShown(PAGE);
            }}
            data-testid="filter-intensity"
          >
            <option value="">Any intensity</option>
            {WORKOUT_INTENSITIES.map((i) => (
              <option key={i.value} value={i.value}>
                {i.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      <WorkoutsSignals to={to ?? todayIn()} />

      {q.isPending ? (
        <div className="space-y-4">
          <Skeleton className="h-64" />
          <Skeleton className="h-80" />
        </div>
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => q.refetch()} />
      ) : !data || data.workouts.length === 0 ? (
        <EmptyState title="No workouts here" testId="workouts-empty">
          {activity || intensity
            ? "None match these filters in this range."
            : "The ring recorded no workout in this range (or workouts are not shared: Settings → You and your ring)."}
        </EmptyState>
      ) : (
        <>
          <Totals data={data} />
          <Card aria-labelledby="weekly-title">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h2 id="weekly-title" className="text-base font-semibold">
                Weekly {measure === "minutes" ? "minutes" : "calories"} by {by === "byActivity" ? "activity" : "intensity"}
              </h2>
              <div className="flex flex-wrap gap-2">
                <Segmented
                  size="sm"
                  label="Measure"
                  value={measure}
                  onChange={setMeasure}
                  options={[
                    { value: "minutes", label: "Minutes" },
                    { value: "calories", label: "Calories" },
                  ]}
                />
                <Segmented
                  size="sm"
                  label="Group by"
                  value={by}
                  onChange={setBy}
                  options={[
                    { value: "byActivity", label: "Activity" },
                    { value: "byIntensity", label: "Intensity" },
                  ]}
                />
              </div>
            </div>
            <LazyWeeklyWorkouts weeks={data.weekly} by={by} measure={measure} series={seriesOf(data, by)} label={weeklySummary(data, by, measure)} />
          </Card>
          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <Card aria-labelledby="list-title" className="order-2 lg:order-1">
              <h2 id="list-title" className="mb-2 text-base font-semibold">
                {data.workouts.length} {data.workouts.length === 1 ? "workout" : "workouts"}
                <span className="ml-1 text-sm font-normal text-slate-500 dark:text-slate-400">newest first</span>
              </h2>
              <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="workout-list">
                {data.workouts.slice(0, shown).map((w) => (
                  <WorkoutRow key={w.id} w={w} active={w.id === selected} onSelect={() => setSelected(w.id)} />
                ))}
              </ul>
              {data.workouts.length > shown ? (
                <Button variant="secondary" className="mt-2 w-full" onClick={() => setShown((n) => n + PAGE * 2)}>
                  Show more ({data.workouts.length - shown} more)
                </Button>
              ) : null}
            </Card>
            <div className="order-1 lg:order-2">
              <WorkoutDetailCard id={selected ?? data.workouts[0]?.id ?? null} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}

function seriesOf(data: WorkoutsResponse, by: "byActivity" | "byIntensity"): WeeklySeries[] {
  if (by === "byIntensity") {
    const present = new Set(data.weekly.flatMap((w) => Object.keys(w.byIntensity)));
    return [
      ...WORKOUT_INTENSITIES.map((i) => ({ key: i.value, name: i.label, color: i.color ?? "var(--workout)" })),
      { key: "unknown", name: "Unknown", color: "var(--chart-cursor)" },
    ].filter((s) => present.has(s.key));
  }
  const present = new Set(data.weekly.flatMap((w) => Object.keys(w.byActivity)));
  return data.activities.filter((a) => present.has(a)).map((a, i) => ({ key: a, name: activityName(a), color: PALETTE[i % PALETTE.length]! }));
}

function weeklySummary(data: WorkoutsResponse, by: "byActivity" | "byIntensity", measure: "minutes" | "calories"): string {
  const totals = new Map<string, number>();
  for (const w of data.weekly) for (const [k, v] of Object.entries(w[by])) totals.set(k, (totals.get(k) ?? 0) + v[measure]);
  const unit = measure === "minutes" ? "minutes" : "kcal";
  const parts = [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${by === "byActivity" ? activityName(k) : labelOf(WORKOUT_INTENSITIES, k)} ${Math.round(v)} ${unit}`);
  return `Weekly workout ${measure} over ${data.weekly.length} weeks, stacked by ${by === "byActivity" ? "activity" : "intensity"}: ${parts.join(", ")}.`;
}

function Totals({ data }: { data: WorkoutsResponse }) {
  const minutes = data.workouts.reduce((a, w) => a + (w.duration ?? 0) / 60, 0);
  const calories = data.workouts.reduce((a, w) => a + (w.calories ?? 0), 0);
  const weeks = Math.max(1, data.weekly.length);
  const figs: Array<[string, string, string]> = [
    ["Workouts", String(data.workouts.length), "total-count"],
    ["Time", formatDuration(minutes * 60), "total-time"],
    ["Calories", `${Math.round(calories).toLocaleString()} kcal`, "total-calories"],
    ["A week", `${Math.round(minutes / weeks)} min`, "total-weekly"],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="workout-totals">
      {figs.map(([k, v, id]) => (
        <div key={k} className={cn(cardClass, "!p-3")}>
          <dt className="text-xs text-slate-500 dark:text-slate-400">{k}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid={id}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function WorkoutRow({ w, active, onSelect }: { w: WorkoutItem; active: boolean; onSelect: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        aria-pressed={active}
        data-testid="workout-row"
        data-workout-id={w.id}
        className={cn(
          "flex w-full flex-wrap items-center gap-x-3 gap-y-0.5 rounded-lg px-2 py-2 text-left text-sm focus-visible:outline-2 focus-visible:outline-brand-600",
          active ? "bg-slate-100 dark:bg-slate-800" : "hover:bg-slate-50 dark:hover:bg-slate-800/60",
        )}
      >
        <span className="inline-flex min-w-0 items-center gap-2 font-medium">
          <span
            aria-hidden
            className="h-2.5 w-2.5 shrink-0 rounded-full"
            style={{ background: w.intensity ? `var(--cat-${w.intensity})` : "var(--workout)" }}
          />
          {activityName(w.activity)}
        </span>
        <span className="text-slate-600 tabular-nums dark:text-slate-300">{formatDay(w.day, { withYear: true })}</span>
        <span className="text-slate-600 tabular-nums dark:text-slate-300">{w.duration !== null ? formatDuration(w.duration) : "—"}</span>
        <span className="text-slate-600 tabular-nums dark:text-slate-300">{w.calories !== null ? `${Math.round(w.calories)} kcal` : ""}</span>
        <span className="ml-auto rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">{labelOf(WORKOUT_INTENSITIES, w.intensity)}</span>
      </button>
    </li>
  );
}

function WorkoutDetailCard({ id }: { id: string | null }) {
  const q = useWorkout(id);
  if (!id) return null;
  const d = q.data;
  return (
    <Card aria-labelledby="detail-title" aria-busy={q.isPending} data-testid="workout-detail" className="lg:sticky lg:top-4">
      {q.isPending ? (
        <Skeleton className="h-64" />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => q.refetch()} />
      ) : d ? (
        <div className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="detail-title" className="text-base font-semibold">
              {activityName(d.workout.activity)}{" "}
              <span className="font-normal text-slate-500 dark:text-slate-400">
                {formatDay(d.workout.day, { withYear: true })} · {clock(d.workout.start)}–{clock(d.workout.end)}
              </span>
            </h2>
            <Link
              href={`/day/${d.workout.day}`}
              prefetch={false}
              className="text-xs font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-100"
            >
              The whole day →
            </Link>
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
            {(
              [
                ["Time", d.workout.duration !== null ? formatDuration(d.workout.duration) : "—"],
                ["Calories", d.workout.calories !== null ? `${Math.round(d.workout.calories)} kcal` : "—"],
                ["Intensity", labelOf(WORKOUT_INTENSITIES, d.workout.intensity)],
                ["Distance", distanceText(d.workout.distance) ?? "—"],
              ] as const
            ).map(([k, v]) => (
              <div key={k}>
                <dt className="text-[0.7rem] text-slate-500 dark:text-slate-400">{k}</dt>
                <dd className="text-sm font-semibold tabular-nums">{v}</dd>
              </div>
            ))}
          </dl>
          <div>
            <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">Heart rate during the workout (minutes:seconds from its start)</p>
            <LazyWorkoutCurve points={d.heartRate} label={curveSummary(d)} />
          </div>
        </div>
      ) : null}
    </Card>
  );
}

function curveSummary(d: NonNullable<ReturnType<typeof useWorkout>["data"]>): string {
  const bpm = d.heartRate.map((p) => p.bpm);
  if (!bpm.length) return "No heart-rate samples during this workout.";
  const mean = Math.round(bpm.reduce((a, b) => a + b, 0) / bpm.length);
  const range = `from ${Math.min(...bpm)} to ${Math.max(...bpm)} bpm`;
  return `Heart rate during ${activityName(d.workout.activity)}: ${bpm.length} samples, ${range}, average ${mean} bpm.`;
}
