// The Today page's view, rendered on the server from what the page read (app/(app)/page.tsx):
// nothing on it changes in the browser but the freshness chips (the browser's today, the sync
// status polled), the tables opened under the charts, and the readiness marks. So the page
// ships no query client and none of its cards' code (docs/decisions/0022-what-a-page-ships-to-the-browser.md).
import { Suspense, type ReactNode } from "react";
import Link from "next/link";
import { CHARTED_COLLECTIONS, COLLECTIONS, getMetric, type MetricId } from "@/lib/metrics/catalog";
import { addDays, dayRange, formatDay } from "@/lib/days";
import { formatValue, type Units } from "@/lib/metrics/format";
import { SPARK_DAYS, type TodaySummary } from "@/lib/metrics/today";
import { TODAY_LAYOUT } from "@/lib/metrics/today-layout";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import type { SignalsResponse, SyncCollectionStatus, TodayResponse } from "@/lib/api/contract";
import { ReadyDiv } from "@/components/charts/chart-ready";
import { AnomalyMark } from "@/components/dashboard/anomaly-mark";
import { CategoryBadge, CategoryDays } from "@/components/dashboard/category-days";
import { ContributorBars } from "@/components/dashboard/contributor-bars";
import { DeltaChip } from "@/components/dashboard/delta-chip";
import type { FreshnessSource } from "@/components/dashboard/freshness";
import { FreshnessChips } from "@/components/dashboard/freshness-chips";
import { MetricTile } from "@/components/dashboard/metric-tile";
import { ScoreCard } from "@/components/dashboard/score-card";
import { BedtimeCard, RestModeBanner, RingChips, WorkoutsSessionsCard } from "@/components/dashboard/records";
import { Card, PageHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { TodaySignals, TodaySignalsSkeleton } from "@/components/signals/today-signals";
import { NoDataYet } from "@/components/ui/states";
import { MissingNight } from "@/components/dashboard/missing-night";
import { HistoryDownloading, type HistoryDownloadingState } from "@/components/ui/history-downloading";
import type { MissingReason } from "@/lib/metrics/missing-night";

const m = getMetric;

const { scores, body, heart, stress, resilience, cardio } = TODAY_LAYOUT;

export type TodayViewProps = {
  today: TodayResponse;
  units: Units;
  /** days (around the sparklines' windows) with a note's tag or a ring tag */
  taggedDays: readonly string[];
  /** the sync status read with the page (the freshness chips poll it from there) */
  syncStatus: SyncCollectionStatus[];
  /** the newest day's signals, being computed (null: they could not be) */
  signals: Promise<SignalsResponse | null>;
  isDemo: boolean;
  /** the Cycle card (components/cycle/cycle-card.tsx), first under the title; null with cycle tracking off */
  cycle?: ReactNode;
  /** the person's today when it has no main sleep, and why */
  missingNight?: { day: string; reason: MissingReason } | null;
  /** the person's history still downloading (lib/services/history.ts), said at the top */
  downloading?: HistoryDownloadingState;
};

export function TodayView({
  today: data,
  units,
  taggedDays,
  syncStatus,
  signals,
  isDemo,
  cycle = null,
  missingNight = null,
  downloading = null,
}: TodayViewProps) {
  const day = data.day;
  const missing = missingNight ? <MissingNight reason={missingNight.reason} lead={`Last night (${formatDay(missingNight.day)}), no main sleep`} /> : null;
  if (!day) {
    return (
      <div data-testid="today" className="space-y-5">
        <PageHeader title="Today" />
        <HistoryDownloading downloading={downloading} />
        {cycle}
        {missing}
        <NoDataYet />
      </div>
    );
  }

  // the collections that have charts, one freshness chip each
  const sources: FreshnessSource[] = data.ranges
    .filter((r) => CHARTED_COLLECTIONS.includes(r.collection))
    .map((r) => ({ collection: r.collection, label: COLLECTIONS[r.collection].label, lastDay: r.lastDay }));
  // tag marks under each 30-day sparkline, slot for slot (a spark ends on its metric's day)
  const tagged = new Set(taggedDays);
  const marks = (id: MetricId) => {
    const end = data.metrics[id]?.day ?? day;
    return dayRange(addDays(end, -(SPARK_DAYS - 1)), end).map((d) => tagged.has(d));
  };

  return (
    <ReadyDiv data-testid="today" className="space-y-5">
      <PageHeader
        title="Today"
        subtitle={
          <>
            Newest data: <span className="font-medium text-slate-700 dark:text-slate-200">{formatDay(day, { withYear: true })}</span>
            {isDemo ? (
              <span
                data-testid="today-demo-badge"
                className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"
              >
                Demo data
              </span>
            ) : null}
          </>
        }
      >
        <Link
          href={`/day/${day}`}
          prefetch={false}
          className={cn(
            "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50",
            "focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800",
          )}
        >
          Open the whole day →
        </Link>
      </PageHeader>
      <HistoryDownloading downloading={downloading} />
      {cycle}
      {missing}
      <RestModeBanner restMode={data.records.restMode} />
      <div className="flex flex-wrap items-start gap-1.5">
        <FreshnessChips sources={sources} initialStatus={syncStatus} />
        <RingChips status={data.records} />
      </div>

      <div className="grid gap-4 lg:grid-cols-3">
        {scores.map((c) => (
          <ScoreCard
            key={c.score}
            title={c.title}
            color={c.color}
            scoreId={c.score}
            contributorIds={c.contributors}
            metrics={data.metrics}
            units={units}
            refDay={day}
            marks={marks(c.score)}
          />
        ))}
      </div>

      <Suspense fallback={<TodaySignalsSkeleton />}>
        <TodaySignals signals={signals} units={units} />
      </Suspense>

      <section aria-label={body.label}>
        <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
          {body.metrics.map((id) => (
            <MetricTile key={id} metric={m(id)} data={data.metrics[id]} units={units} refDay={day} marks={marks(id)} />
          ))}
        </div>
      </section>

      <section aria-labelledby="heart-title">
        <h2 id="heart-title" className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-200">
          {heart.title} <span className="font-normal text-slate-500 dark:text-slate-400">· {heart.note}</span>
        </h2>
        <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
          {heart.metrics.map((id) => (
            <MetricTile key={id} metric={m(id)} data={data.metrics[id]} units={units} refDay={day} marks={marks(id)} />
          ))}
        </div>
      </section>

      <div className="grid gap-4 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <WorkoutsSessionsCard
            title={`Workouts and sessions, ${formatDay(day)}`}
            workouts={data.records.workouts}
            sessions={data.records.sessions}
            empty="None on the newest day."
          />
        </div>
        <BedtimeCard bedtime={data.records.bedtime} heading="Tonight's bedtime" />
      </div>

      <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        <StressCard data={data} units={units} />
        <ResilienceCard data={data} />
        <CardioCard data={data} units={units} />
      </div>
    </ReadyDiv>
  );
}

function StressCard({ data, units }: { data: TodaySummary; units: "metric" | "imperial" }) {
  const summary = data.categories[stress.category];
  return (
    <Card aria-labelledby="stress-title" data-metric="stress" className="space-y-3">
      <CategoryHeading id="stress-title" color={stress.color} title={stress.title} metric={stress.category} value={summary?.value ?? null} />
      <dl className="grid grid-cols-2 gap-3">
        {stress.metrics.map((id) => {
          const d = data.metrics[id];
          return (
            <div key={id} className="space-y-1">
              <dt className="text-xs text-slate-500 dark:text-slate-400">{m(id).label}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid={`value-${id}`}>
                {formatValue(m(id), d?.value ?? null, units)}
              </dd>
              <dd className="flex flex-wrap gap-1">
                {d ? <DeltaChip metric={m(id)} delta={d.delta} units={units} against={SEVEN_DAY_MEAN.short} /> : null}
                <AnomalyMark flag={d?.flag ?? null} compact />
              </dd>
            </div>
          );
        })}
      </dl>
      {summary ? <CategoryDays metric={m(stress.category)} values={summary.recent} lastDay={summary.day} /> : null}
    </Card>
  );
}

function ResilienceCard({ data }: { data: TodaySummary }) {
  const level = data.categories[resilience.category];
  return (
    <Card aria-labelledby="resilience-title" data-metric="resilience" className="space-y-3">
      <CategoryHeading id="resilience-title" color={resilience.color} title={resilience.title} metric={resilience.category} value={level?.value ?? null} />
      {level ? (
        <>
          <ContributorBars
            dense
            label={`${resilience.title} contributors`}
            items={resilience.metrics.map((id) => ({ metric: m(id), value: data.metrics[id]?.value ?? null }))}
          />
          <CategoryDays metric={m(resilience.category)} values={level.recent} lastDay={level.day} />
        </>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">Resilience appears after a few weeks of wearing the ring.</p>
      )}
    </Card>
  );
}

function CardioCard({ data, units }: { data: TodaySummary; units: "metric" | "imperial" }) {
  const [vaId, pwvId] = cardio.metrics;
  const va = data.metrics[vaId];
  const pwv = data.metrics[pwvId];
  const diff = va?.value !== null && va?.value !== undefined && data.age !== null ? va.value - data.age : null;
  return (
    <Card aria-labelledby="cardio-title" data-metric="cardio" className="space-y-3">
      <DotTitle id="cardio-title" color={cardio.color}>
        {cardio.title}
      </DotTitle>
      <div className="flex items-end gap-4">
        <div>
          <p className="text-3xl font-semibold tabular-nums" data-testid={`value-${vaId}`}>
            {va?.value ?? "—"}
            <span className="ml-1 text-base font-normal text-slate-500 dark:text-slate-400">years</span>
          </p>
          {data.age !== null ? (
            <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="cardio-age-compare">
              Your age: <span className="font-medium tabular-nums">{data.age}</span>
              {diff !== null ? (
                <span className={diff <= 0 ? "ml-1 text-emerald-700 dark:text-emerald-400" : "ml-1 text-rose-700 dark:text-rose-400"}>
                  ({diff === 0 ? "the same" : `${Math.abs(diff)} ${diff < 0 ? "younger" : "older"}`})
                </span>
              ) : null}
            </p>
          ) : (
            <p className="text-xs text-slate-500 dark:text-slate-400">Share the personal scope to compare with your age.</p>
          )}
        </div>
        <AnomalyMark flag={va?.flag ?? null} compact />
      </div>
      <div className="flex items-center justify-between border-t border-slate-100 pt-2 text-sm dark:border-slate-800">
        <span className="text-slate-500 dark:text-slate-400">{m(pwvId).label}</span>
        <span className="font-medium tabular-nums" data-testid={`value-${pwvId}`}>
          {formatValue(m(pwvId), pwv?.value ?? null, units)}
        </span>
      </div>
      {va?.day ? <p className="text-xs text-slate-500 dark:text-slate-400">Measured {formatDay(va.day, { withYear: true })}</p> : null}
    </Card>
  );
}

/** A card's heading with its colour dot. */
function DotTitle({ id, color, children }: { id: string; color: string; children: ReactNode }) {
  return (
    <h2 id={id} className="flex items-center gap-2 text-base font-semibold">
      <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ background: color }} />
      {children}
    </h2>
  );
}

/** The heading of a card led by a category (stress, resilience): the title, and the day's level. */
function CategoryHeading({ id, color, title, metric, value }: { id: string; color: string; title: string; metric: MetricId; value: string | null }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <DotTitle id={id} color={color}>
        {title}
      </DotTitle>
      <span data-testid={`value-${metric}`}>
        <CategoryBadge metric={m(metric)} value={value} />
      </span>
    </div>
  );
}
