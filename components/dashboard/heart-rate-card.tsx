// The day's heart rate on the Day page: the samples by source and the chart (drawn in the
// browser, its code loaded on demand).
import type { DayRecords } from "@/lib/api/contract";
import { formatDay } from "@/lib/days";
import { labelOf, SESSION_TYPES } from "@/lib/metrics/sources";
import { activityName } from "@/lib/metrics/workouts";
import { LazyDayHeartRate } from "@/components/charts/lazy";
import { MarkerGlyph } from "@/components/charts/chart-a11y";
import { heartRateSeries } from "@/components/charts/heart-rate-sources";
import { dot } from "@/components/dashboard/records";
import { Card } from "@/components/ui/card";

/** The day's heart rate, coloured by source, with the time spent per source. */
export function HeartRateCard({ day, records }: { day: string; records: DayRecords }) {
  const points = records.heartRate;
  const bpm = points.map((p) => p.bpm);
  const bands = [
    ...records.workouts.flatMap((w) =>
      w.startMin !== null && w.endMin !== null
        ? [{ start: Math.max(0, w.startMin), end: Math.min(1440, w.endMin), kind: "workout" as const, label: activityName(w.activity) }]
        : [],
    ),
    ...records.sessions.flatMap((s) =>
      s.startMin !== null && s.endMin !== null
        ? [{ start: Math.max(0, s.startMin), end: Math.min(1440, s.endMin), kind: "session" as const, label: labelOf(SESSION_TYPES, s.type) }]
        : [],
    ),
  ];
  const counts = heartRateSeries(points).map((s) => ({ ...s, n: s.data.length }));
  const summary = bpm.length
    ? `${bpm.length} samples from ${Math.min(...bpm)} to ${Math.max(...bpm)} bpm: ${counts.map((c) => `${c.name.toLowerCase()} ${c.n}`).join(", ")}.`
    : "No heart-rate samples for this day.";
  return (
    <Card aria-labelledby="hr-title" data-testid="day-heart-rate">
      <h2 id="hr-title" className="mb-1 flex items-center gap-2 text-base font-semibold">
        {dot("var(--heart)")}
        Heart rate through the day
      </h2>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
        Each mark is one sample, its colour and shape by what the ring says you were doing; shaded: workouts and sessions.
      </p>
      {points.length ? (
        <>
          <ul className="mb-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400" aria-label="Samples by source">
            {counts.map((c) => (
              <li key={c.key} className="inline-flex items-center gap-1.5" data-source={c.key}>
                <MarkerGlyph shape={c.shape} color={c.color} />
                {c.name} <span className="font-medium tabular-nums text-slate-800 dark:text-slate-200">{c.n}</span>
              </li>
            ))}
          </ul>
          <LazyDayHeartRate points={points} bands={bands} label={`Heart rate through ${formatDay(day)}. ${summary}`} />
        </>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">{summary}</p>
      )}
    </Card>
  );
}
