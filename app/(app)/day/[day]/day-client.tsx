"use client";
import type { ReactNode } from "react";
import Link from "next/link";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { formatClock, type DayPeriod } from "@/lib/metrics/day-detail";
import { addDays, formatDay } from "@/lib/days";
import { formatDuration, formatValue, type Units } from "@/lib/metrics/format";
import { documentCard, TODAY_LAYOUT, type DocumentCard, type ScoreCard } from "@/lib/metrics/today-layout";
import { ActivityTimeline } from "@/components/charts/activity-timeline";
import { Hypnogram } from "@/components/charts/hypnogram";
import { LazyNightCurves } from "@/components/charts/lazy";
import { ScoreRing } from "@/components/charts/score-ring";
import { CategoryBadge } from "@/components/dashboard/category-days";
import { ContributorBars } from "@/components/dashboard/contributor-bars";
import { DayNoteEditor } from "@/components/dashboard/day-note-editor";
import { DaySleepDebt } from "@/components/signals/day-sleep-debt";
import { HeartRateCard } from "@/components/dashboard/heart-rate-card";
import { MissingNight } from "@/components/dashboard/missing-night";
import { BedtimeCard, RestModeBanner, RingTagsCard, timelineEvents, WorkoutsSessionsCard } from "@/components/dashboard/records";
import type { DayResponse } from "@/lib/api/contract";
import { useDay } from "@/components/hooks/use-day";
import { useSignals } from "@/components/hooks/use-signals";
import type { EarlyWarningSignal } from "@/lib/signals/signal-days";
import { DayEarlyWarning } from "@/components/signals/day-early-warning";
import { useUnits } from "@/components/hooks/use-preferences";
import { Card, PageHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";

const m = getMetric;
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
/** A daily metric's value in its document's row (nothing for a metric from elsewhere). */
const valueIn = (row: Record<string, unknown> | undefined, def: MetricDef): unknown => (def.source.type === "daily" ? row?.[def.source.column] : undefined);

/** A small card of one daily document: its title and colour, its category (a badge) if it has one, and its figures. */
type SmallDocCard = DocumentCard & { category?: MetricId; metrics: readonly MetricId[] };
/** Today's cards (lib/metrics/today-layout.ts), for one day's documents, and the blood oxygen document's. */
const { scores, stress, resilience, cardio } = TODAY_LAYOUT;
const SMALL_DOCS: readonly SmallDocCard[] = [
  { ...documentCard("daily_spo2"), metrics: ["spo2.spo2_average", "spo2.breathing_disturbance_index"] },
  stress,
  resilience,
  cardio,
];

const navBtn = cn(
  "rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600",
  "dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800",
);

/** `cycle`: the day's cycle entries and log buttons (drawn on the server; null with cycle tracking off). */
export function DayClient({ day, cycle = null }: { day: string; cycle?: ReactNode }) {
  const q = useDay(day);
  const units = useUnits();
  const d = q.data;
  return (
    <div className="space-y-4" data-testid="day-view">
      <PageHeader title={formatDay(day, { withYear: true })} subtitle="Everything the ring recorded for this day">
        <nav aria-label="Other days" className="flex gap-2">
          <Link className={navBtn} href={`/day/${d?.previous ?? addDays(day, -1)}`} rel="prev">
            ← <span className="sr-only sm:not-sr-only">Previous</span>
          </Link>
          <Link className={navBtn} href={`/day/${d?.next ?? addDays(day, 1)}`} rel="next">
            <span className="sr-only sm:not-sr-only">Next</span> →
          </Link>
        </nav>
      </PageHeader>
      {cycle}
      {q.isPending ? (
        <div className="grid gap-4 lg:grid-cols-3">
          <Skeleton className="h-64" />
          <Skeleton className="h-64" />
          <Skeleton className="h-64" />
        </div>
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => q.refetch()} />
      ) : (
        <DayBody data={q.data} units={units} />
      )}
    </div>
  );
}

function DayBody({ data, units }: { data: DayResponse; units: Units }) {
  const signals = useSignals(data.day, data.day);
  const ew = signals.data?.days[0]?.signals.find((s): s is EarlyWarningSignal => s.kind === "early_warning") ?? null;
  const r = data.records;
  const has = Object.keys(data.daily).length > 0 || data.periods.length > 0 || r.heartRate.length > 0 || r.workouts.length > 0 || r.sessions.length > 0;
  const main = data.periods.find((p) => p.role === "main");
  const naps = data.periods.filter((p) => p.role === "nap");
  const others = data.periods.filter((p) => p.role === "other");
  const notes = (
    <Card aria-labelledby="notes-title">
      <h2 id="notes-title" className="mb-2 text-sm font-semibold">
        Your notes
      </h2>
      <DayNoteEditor day={data.day} note={data.note} compact />
    </Card>
  );
  return (
    <>
      {!has ? (
        <>
          <EmptyState title="No documents for this day">
            {data.missing_reason ? <MissingNight reason={data.missing_reason} /> : "The ring may not have been worn, or this day is not synced yet."}
          </EmptyState>
          {notes}
        </>
      ) : (
        <>
          <RestModeBanner restMode={r.restMode} />
          <div className="grid gap-4 lg:grid-cols-3">
            {scores.map((c) => (
              <ScoreBlock key={c.score} card={c} row={data.daily[c.collection]}>
                {c.collection === "daily_readiness" && data.daily.daily_readiness ? (
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {m("readiness.temperature_deviation").label}{" "}
                    <span className="font-medium tabular-nums text-slate-900 dark:text-slate-100">
                      {formatValue(m("readiness.temperature_deviation"), num(data.daily.daily_readiness.temperature_deviation), units)}
                    </span>
                  </p>
                ) : null}
              </ScoreBlock>
            ))}
          </div>

          {ew ? <DayEarlyWarning signal={ew} units={units} /> : null}
          {notes}
          <Card aria-labelledby="main-sleep-title" data-testid="main-sleep">
            <h2 id="main-sleep-title" className="mb-3 flex items-center gap-2 text-base font-semibold">
              <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ background: "var(--sleep)" }} />
              Main sleep
            </h2>
            {main ? (
              <PeriodDetail p={main} units={units} withCurves />
            ) : (
              <>
                <p className="text-sm text-slate-500 dark:text-slate-400">No main sleep recorded for this day.</p>
                {data.missing_reason ? <MissingNight reason={data.missing_reason} lead="Likeliest reason" /> : null}
              </>
            )}
          </Card>
          <DaySleepDebt day={data.day} />

          {naps.length ? (
            <Card aria-labelledby="naps-title" data-testid="naps">
              <h2 id="naps-title" className="mb-3 text-base font-semibold">
                Naps <span className="font-normal text-slate-500 dark:text-slate-400">({naps.length})</span>
              </h2>
              <div className="space-y-5">
                {naps.map((p) => (
                  <PeriodDetail key={p.documentId} p={p} units={units} />
                ))}
              </div>
            </Card>
          ) : null}

          {data.activity ? (
            <Card aria-labelledby="activity-title">
              <h2 id="activity-title" className="mb-3 flex items-center gap-2 text-base font-semibold">
                <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ background: "var(--activity)" }} />
                Activity through the day
              </h2>
              <ActivityTimeline
                segments={data.activity.segments}
                minutes={data.activity.minutes}
                events={timelineEvents(r)}
                label={`Activity level in 5-minute steps, ${formatDay(data.day)}`}
              />
              <ActivityFigures row={data.daily.daily_activity ?? {}} units={units} />
            </Card>
          ) : null}

          <HeartRateCard day={data.day} records={r} />
          <div className="grid gap-4 lg:grid-cols-3">
            <div className="lg:col-span-2">
              <WorkoutsSessionsCard title="Workouts and sessions" workouts={r.workouts} sessions={r.sessions} empty="No workouts or sessions this day." />
            </div>
            <div className="space-y-4">
              <RingTagsCard tags={r.ringTags} />
              <BedtimeCard bedtime={r.bedtime} heading="Bedtime guidance for the evening" />
            </div>
          </div>

          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {SMALL_DOCS.map((c) => (
              <SmallDoc key={c.collection} card={c} row={data.daily[c.collection]} units={units} />
            ))}
          </div>

          {others.length ? (
            <Card aria-labelledby="others-title">
              <h2 id="others-title" className="mb-2 text-sm font-semibold">
                Other periods
              </h2>
              <ul className="space-y-1 text-sm text-slate-600 dark:text-slate-400">
                {others.map((p) => (
                  <li key={p.documentId}>
                    {p.type === "rest" ? "Rest (not counted as sleep)" : "Deleted"} · {p.start !== null ? formatClock(p.start) : "?"}–
                    {p.end !== null ? formatClock(p.end) : "?"}
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}

          <Card aria-labelledby="raw-title">
            <h2 id="raw-title" className="mb-2 text-sm font-semibold">
              Documents as the ring service sent them
            </h2>
            <div className="space-y-1.5">
              {Object.entries(data.raw).map(([c, doc]) => (
                <details key={c} className="rounded-lg border border-slate-200 dark:border-slate-800">
                  <summary className="cursor-pointer px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600">{c}</summary>
                  <pre
                    tabIndex={0}
                    aria-label={`${c}, as sent`}
                    className={cn(
                      "max-h-80 overflow-auto border-t border-slate-200 p-3 text-xs leading-relaxed focus-visible:outline-2 focus-visible:outline-brand-600",
                      "dark:border-slate-800",
                    )}
                  >
                    {JSON.stringify(doc, null, 2)}
                  </pre>
                </details>
              ))}
            </div>
          </Card>
        </>
      )}
    </>
  );
}

function ScoreBlock({ card, row, children }: { card: ScoreCard; row: Record<string, unknown> | undefined; children?: React.ReactNode }) {
  const { title, color, score: scoreId } = card;
  const score = num(row?.score);
  return (
    <Card aria-labelledby={`day-${scoreId}`} data-metric={scoreId} className="space-y-3">
      <h2 id={`day-${scoreId}`} className="flex items-center gap-2 text-base font-semibold">
        <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ background: color }} />
        {title}
      </h2>
      {row ? (
        <>
          <div className="flex items-center gap-3">
            <ScoreRing score={score} color={color} label={`${title} score`} size={72} />
            <p className="sr-only" data-testid={`day-value-${scoreId}`}>
              {score ?? "no score"}
            </p>
            {children ? <div className="min-w-0 flex-1">{children}</div> : null}
          </div>
          <ContributorBars dense label={`${title} contributors`} items={card.contributors.map((id) => ({ metric: m(id), value: num(valueIn(row, m(id))) }))} />
        </>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">No {title.toLowerCase()} document.</p>
      )}
    </Card>
  );
}

function PeriodDetail({ p, units, withCurves }: { p: DayPeriod; units: Units; withCurves?: boolean }) {
  const r = p.row;
  const figs: Array<[string, string]> = [
    ["Total sleep", formatValue(m("night.total_sleep_duration"), num(r.total_sleep_duration), units)],
    ["Time in bed", formatValue(m("night.time_in_bed"), num(r.time_in_bed), units)],
    ["Efficiency", formatValue(m("night.efficiency"), num(r.efficiency), units)],
    ["Latency", formatValue(m("night.latency"), num(r.latency), units)],
    ["Lowest heart rate", formatValue(m("night.lowest_heart_rate"), num(r.lowest_heart_rate), units)],
    ["Average HRV", formatValue(m("night.average_hrv"), num(r.average_hrv), units)],
    ["Breathing rate", formatValue(m("night.average_breath"), num(r.average_breath), units)],
  ];
  const span = p.start !== null && p.end !== null ? `${formatClock(p.start)} – ${formatClock(p.end)}` : "";
  return (
    <div className="space-y-3" data-testid="sleep-period" data-role={p.role}>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        <span className="font-semibold text-slate-900 dark:text-white">{span}</span>
        {p.type ? <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">{p.type.replace("_", " ")}</span> : null}
        {num(r.time_in_bed) !== null ? <span className="ml-2">{formatDuration(num(r.time_in_bed)!)} in bed</span> : null}
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4 lg:grid-cols-7">
        {figs.map(([k, v]) => (
          <div key={k}>
            <dt className="text-[0.7rem] text-slate-500 dark:text-slate-400">{k}</dt>
            <dd className="text-sm font-semibold tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      {p.hypnogram && p.start !== null && p.end !== null ? (
        <Hypnogram
          segments={p.hypnogram.segments}
          minutes={p.hypnogram.minutes}
          start={p.start}
          end={p.end}
          label={`Sleep stages ${span}`}
          height={withCurves ? 132 : 96}
        />
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">No sleep stages in this document.</p>
      )}
      {withCurves && (p.heartRate.length || p.hrv.length) ? (
        <div>
          <p className="mb-1 flex gap-3 text-xs text-slate-600 dark:text-slate-400">
            <span className="inline-flex items-center gap-1.5">
              <span aria-hidden className="h-0.5 w-4" style={{ background: "var(--heart)" }} /> Heart rate (bpm, left)
            </span>
            <span className="inline-flex items-center gap-1.5">
              <span aria-hidden className="h-0 w-4 border-t-2 border-dashed" style={{ borderColor: "var(--sleep)" }} /> HRV (ms, right, dashed)
            </span>
          </p>
          <LazyNightCurves heartRate={p.heartRate} hrv={p.hrv} label={`Heart rate and HRV through the night, ${span}`} />
        </div>
      ) : null}
    </div>
  );
}

function ActivityFigures({ row, units }: { row: Record<string, unknown>; units: Units }) {
  const ids: MetricId[] = [
    "activity.steps",
    "activity.active_calories",
    "activity.equivalent_walking_distance",
    "activity.high_activity_time",
    "activity.medium_activity_time",
    "activity.sedentary_time",
    "activity.non_wear_time",
  ];
  return (
    <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4 lg:grid-cols-7">
      {ids.map((id) => {
        const def = m(id);
        const col = def.source.type === "daily" ? def.source.column : "";
        return (
          <div key={id}>
            <dt className="text-[0.7rem] text-slate-500 dark:text-slate-400">{def.label}</dt>
            <dd className="text-sm font-semibold tabular-nums" data-testid={`day-value-${id}`}>
              {formatValue(def, num(row[col]), units)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** One small daily document: its heading, its category (a badge) if it has one, and its figures. */
function SmallDoc({ card, row, units }: { card: SmallDocCard; row: Record<string, unknown> | undefined; units: Units }) {
  const category = card.category ? valueIn(row, m(card.category)) : undefined;
  return (
    <Card className="!p-4">
      <h2 className="mb-2 flex items-center gap-2 text-sm font-semibold">
        <span aria-hidden className="h-2 w-2 rounded-full" style={{ background: card.color }} />
        {card.title}
      </h2>
      {card.category && row ? (
        <div className="mb-1">
          <CategoryBadge metric={m(card.category)} value={typeof category === "string" ? category : null} />
        </div>
      ) : null}
      {row ? (
        <dl className="space-y-1">
          {card.metrics.map((id) => (
            <Fig key={id} label={m(id).label} value={formatValue(m(id), num(valueIn(row, m(id))), units)} />
          ))}
        </dl>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">No document.</p>
      )}
    </Card>
  );
}

function Fig({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-2 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}
