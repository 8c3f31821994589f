"use client";
import Link from "next/link";
import { useState } from "react";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { addDays, formatDay, isDay, todayIn } from "@/lib/days";
import { deltaTone, formatDelta, formatValue, type Units } from "@/lib/metrics/format";
import { DayNoteEditor } from "@/components/dashboard/day-note-editor";
import type { Tag } from "@/lib/api/contract";
import { useMetricsOverview } from "@/components/hooks/use-metrics-overview";
import { useNotes } from "@/components/hooks/use-notes";
import { useUnits } from "@/components/hooks/use-preferences";
import { useDeleteTag, useTagComparison, useTags, useUpdateTag } from "@/components/hooks/use-tags";
import { Card, PageHeader } from "@/components/ui/card";
import { Button, inputClass } from "@/components/ui/field";
import { MetricSelect } from "@/components/ui/metric-select";
import { LagSegmented } from "@/components/ui/segmented";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { cn } from "@/components/ui/cn";

export function NotesClient({ initialDay }: { initialDay: string | null }) {
  const overview = useMetricsOverview();
  const fallback = overview.data?.lastDay ?? todayIn();
  const [day, setDay] = useState<string | null>(isDay(initialDay) ? initialDay : null);
  const current = day ?? fallback;
  const dayNote = useNotes(current, current);
  const recentFrom = addDays(fallback, -365);
  const recent = useNotes(recentFrom, fallback);
  const [shown, setShown] = useState(15);

  return (
    <div className="space-y-4" data-testid="notes">
      <PageHeader
        title="Notes & tags"
        subtitle={
          "Tag days (alcohol, travel, sick…) and see what they do to your numbers. " +
          "Tags you enter in the ring's app appear here too, marked “from the ring”."
        }
      />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="space-y-4">
          <Card aria-labelledby="editor-title">
            <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
              <h2 id="editor-title" className="text-sm font-semibold">
                Tag a day
              </h2>
              <label className="flex items-center gap-2 text-xs font-medium text-slate-600 dark:text-slate-400">
                Day
                <input
                  type="date"
                  className={inputClass}
                  value={current}
                  max={todayIn()}
                  onChange={(e) => isDay(e.target.value) && setDay(e.target.value)}
                  data-testid="note-day"
                />
              </label>
            </div>
            {dayNote.isPending ? <Skeleton className="h-40" /> : <DayNoteEditor day={current} note={dayNote.data?.days[0]} />}
          </Card>
          <Card aria-labelledby="recent-title">
            <h2 id="recent-title" className="mb-3 text-sm font-semibold">
              Tagged and noted days <span className="font-normal text-slate-500 dark:text-slate-400">(last 12 months)</span>
            </h2>
            {recent.isError ? (
              <ErrorState error={recent.error} onRetry={() => recent.refetch()} />
            ) : !recent.data ? (
              <Skeleton className="h-40" />
            ) : recent.data.days.length === 0 ? (
              <EmptyState title="No notes yet" testId="notes-empty">
                Tag a day above; tags then show as markers on every chart.
              </EmptyState>
            ) : (
              <>
                <ul className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="notes-list">
                  {[...recent.data.days]
                    .reverse()
                    .slice(0, shown)
                    .map((d) => (
                      <li key={d.day} className="flex items-center gap-3 py-1.5">
                        <Link
                          href={`/day/${d.day}`}
                          className="w-28 shrink-0 text-sm font-medium tabular-nums hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                        >
                          {formatDay(d.day, { withYear: false })}{" "}
                          <span className="text-xs font-normal text-slate-500 dark:text-slate-400">{d.day.slice(0, 4)}</span>
                        </Link>
                        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-1">
                          {d.tags.map((t) => (
                            <span
                              key={t.id}
                              className="rounded-full px-2 py-0.5 text-xs font-medium text-violet-900 dark:text-violet-100"
                              style={{ background: `color-mix(in srgb, ${t.color ?? "#7c3aed"} 18%, transparent)` }}
                            >
                              #{t.name}
                            </span>
                          ))}
                          {d.ringTags.map((t) => (
                            <RingTagChip key={t.id} name={t.name} />
                          ))}
                          {d.text ? <span className="min-w-0 break-words text-sm text-slate-600 dark:text-slate-300">{d.text}</span> : null}
                        </div>
                        <Button
                          variant="ghost"
                          className="!px-2 !py-1 text-xs"
                          onClick={() => setDay(d.day)}
                          aria-label={`Edit ${formatDay(d.day, { withYear: true })}`}
                        >
                          Edit
                        </Button>
                      </li>
                    ))}
                </ul>
                {recent.data.days.length > shown ? (
                  <Button variant="secondary" className="mt-2 w-full" onClick={() => setShown((n) => n + 30)}>
                    Show more ({recent.data.days.length - shown} more)
                  </Button>
                ) : null}
              </>
            )}
          </Card>
        </div>
        <div className="space-y-4">
          <TagComparisonCard />
          <TagManager />
        </div>
      </div>
    </div>
  );
}

/** A tag entered in the ring's app: read-only, marked "from the ring". */
function RingTagChip({ name }: { name: string }) {
  return (
    <span
      data-testid="ring-tag-chip"
      title="From the ring app (read-only)"
      className={cn(
        "inline-flex items-center gap-1 rounded-full bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-900 ring-1 ring-inset ring-teal-200",
        "dark:bg-teal-950/50 dark:text-teal-100 dark:ring-teal-800",
      )}
    >
      #{name}
      <span className="text-[0.65rem] font-normal text-teal-700 dark:text-teal-300">from the ring</span>
    </span>
  );
}

function TagComparisonCard() {
  const tags = useTags();
  const units = useUnits();
  const [tagId, setTagId] = useState<number | string | null>(null);
  const [metricId, setMetricId] = useState<MetricId>("sleep.score");
  const [lag, setLag] = useState<0 | 1>(1);
  const own = tags.data?.tags ?? [];
  const ring = tags.data?.ringTags ?? [];
  const list: Array<{ id: number | string; name: string; days: number }> = [...own, ...ring];
  const selected = tagId ?? list[0]?.id ?? null;
  const cmp = useTagComparison(selected, metricId, lag);
  const metric = getMetric(metricId);
  return (
    <Card aria-labelledby="compare-title">
      <h2 id="compare-title" className="text-sm font-semibold">
        Tagged against untagged days
      </h2>
      {tags.isPending ? (
        <Skeleton className="mt-3 h-40" />
      ) : list.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">Tag some days first.</p>
      ) : (
        <div className="mt-3 space-y-3">
          <div className="flex flex-wrap gap-2">
            <label className="sr-only" htmlFor="cmp-tag">
              Tag
            </label>
            <select
              id="cmp-tag"
              className={inputClass}
              value={selected ?? ""}
              onChange={(e) => setTagId(/^\d+$/.test(e.target.value) ? Number(e.target.value) : e.target.value)}
            >
              {own.length ? (
                <optgroup label="Your tags">
                  {own.map((t) => (
                    <option key={t.id} value={t.id}>
                      #{t.name} ({t.days})
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {ring.length ? (
                <optgroup label="From the ring">
                  {ring.map((t) => (
                    <option key={t.id} value={t.id}>
                      #{t.name} — from the ring ({t.days})
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
            <label className="sr-only" htmlFor="cmp-metric">
              Metric
            </label>
            <MetricSelect id="cmp-metric" value={metricId} onChange={setMetricId} filter={(m) => m.kind !== "category"} className="min-w-0 flex-1" />
          </div>
          <LagSegmented size="sm" label="Compare the value" lag={lag} onChange={setLag} labels={["On the tagged day", "The day after"]} />
          {cmp.isError ? (
            <ErrorState error={cmp.error} onRetry={() => cmp.refetch()} />
          ) : !cmp.data ? (
            <Skeleton className="h-28" />
          ) : (
            <ComparisonView data={cmp.data} metric={metric} units={units} />
          )}
        </div>
      )}
    </Card>
  );
}

function ComparisonView({ data, metric, units }: { data: NonNullable<ReturnType<typeof useTagComparison>["data"]>; metric: MetricDef; units: Units }) {
  const c = data.comparison;
  if (!c) return <p className="text-sm text-slate-500 dark:text-slate-400">No data to compare yet.</p>;
  const max = Math.max(Math.abs(c.tagged.mean ?? 0), Math.abs(c.untagged.mean ?? 0)) || 1;
  const tone = deltaTone(metric, c.difference);
  const when = data.lag ? "the day after" : "on";
  const summary =
    c.difference === null
      ? `Not enough days to compare: ${c.tagged.n} tagged and ${c.untagged.n} untagged days have a value (at least 3 each are needed).`
      : `${metric.label} ${when} days tagged #${data.tag.name}${"source" in data.tag ? " (from the ring)" : ""} ` +
        `averages ${formatValue(metric, c.tagged.mean, units)} (n = ${c.tagged.n}), ` +
        `against ${formatValue(metric, c.untagged.mean, units)} on other days (n = ${c.untagged.n}): ` +
        `a difference of ${formatDelta(metric, c.difference, units)}.`;
  return (
    <figure className="m-0 space-y-2" data-testid="tag-comparison">
      <div role="img" aria-label={summary} className="space-y-1.5">
        {(
          [
            ["Tagged", c.tagged, "bg-violet-500"],
            ["Untagged", c.untagged, "bg-slate-400 dark:bg-slate-500"],
          ] as const
        ).map(([label, g, color]) => (
          <div key={label} className="grid grid-cols-[4.5rem_minmax(0,1fr)_auto] items-center gap-2 text-xs">
            <span className="text-slate-600 dark:text-slate-300">{label}</span>
            <span className="h-3 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
              <span
                className={cn("block h-full rounded-full", color)}
                style={{ width: `${g.mean === null ? 0 : Math.max(2, (Math.abs(g.mean) / max) * 100)}%` }}
              />
            </span>
            <span className="tabular-nums">
              <span className="font-semibold">{formatValue(metric, g.mean, units)}</span> <span className="text-slate-500 dark:text-slate-400">n={g.n}</span>
            </span>
          </div>
        ))}
      </div>
      <p className="text-sm">
        Difference{" "}
        <span
          data-testid="tag-difference"
          className={cn(
            "font-semibold tabular-nums",
            tone === "good" && "text-emerald-700 dark:text-emerald-400",
            tone === "bad" && "text-rose-700 dark:text-rose-400",
          )}
        >
          {c.difference === null ? "—" : formatDelta(metric, c.difference, units)}
        </span>
      </p>
      <figcaption className="text-xs leading-relaxed text-slate-500 dark:text-slate-400">{summary}</figcaption>
    </figure>
  );
}

function TagManager() {
  const tags = useTags();
  return (
    <Card aria-labelledby="tags-title">
      <h2 id="tags-title" className="mb-2 text-sm font-semibold">
        Your tags
      </h2>
      {tags.isError ? (
        <ErrorState error={tags.error} onRetry={() => tags.refetch()} />
      ) : !tags.data ? (
        <Skeleton className="h-24" />
      ) : (
        <>
          {tags.data.tags.length === 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">No tags yet.</p>
          ) : (
            <ul className="space-y-1.5" data-testid="tag-list">
              {tags.data.tags.map((t) => (
                <TagRow key={t.id} tag={t} />
              ))}
            </ul>
          )}
          {tags.data.ringTags.length ? (
            <div className="mt-4 border-t border-slate-100 pt-3 dark:border-slate-800">
              <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">From the ring</h3>
              <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">Entered in the ring&apos;s app; read-only here (change them there).</p>
              <ul className="space-y-1" data-testid="ring-tag-list">
                {tags.data.ringTags.map((t) => (
                  <li key={t.id} className="flex items-center gap-2 text-sm" data-tag-id={t.id}>
                    <span aria-hidden className="h-3 w-3 shrink-0 rounded-full" style={{ background: t.color }} />
                    <span className="min-w-0 flex-1 break-words">
                      #{t.name}{" "}
                      <span className="text-xs text-slate-500 dark:text-slate-400">
                        {t.days} {t.days === 1 ? "day" : "days"}
                      </span>
                    </span>
                    <span className="rounded bg-teal-50 px-1.5 py-0.5 text-[0.7rem] font-medium text-teal-800 dark:bg-teal-950/50 dark:text-teal-200">
                      from the ring
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}

function TagRow({ tag }: { tag: Tag }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(tag.name);
  const update = useUpdateTag();
  const del = useDeleteTag();
  return (
    <li className="flex items-center gap-2 text-sm">
      <input
        type="color"
        aria-label={`Colour of ${tag.name}`}
        value={tag.color ?? "#7c3aed"}
        onChange={(e) => update.mutate({ id: tag.id, color: e.target.value })}
        className="h-6 w-6 shrink-0 cursor-pointer rounded border-0 bg-transparent p-0"
      />
      {editing ? (
        <form
          className="flex flex-1 gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ id: tag.id, name }, { onSuccess: () => setEditing(false) });
          }}
        >
          <input
            aria-label="Tag name"
            className={cn(inputClass, "min-w-0 flex-1 !py-1")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={40}
            autoFocus
          />
          <Button type="submit" className="!px-2 !py-1 text-xs">
            Save
          </Button>
        </form>
      ) : (
        <span className="min-w-0 flex-1 break-words">
          #{tag.name}{" "}
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {tag.days} {tag.days === 1 ? "day" : "days"}
          </span>
        </span>
      )}
      {!editing ? (
        <Button variant="ghost" className="!px-2 !py-1 text-xs" onClick={() => setEditing(true)}>
          Rename
        </Button>
      ) : null}
      <Button
        variant="ghost"
        className="!px-2 !py-1 text-xs text-rose-700 dark:text-rose-400"
        onClick={() => {
          if (window.confirm(`Delete #${tag.name} from ${tag.days} days?`)) del.mutate(tag.id);
        }}
      >
        Delete
      </Button>
      {update.isError ? (
        <span role="alert" className="text-xs text-rose-600">
          {(update.error as Error).message}
        </span>
      ) : null}
    </li>
  );
}
