// The ring's other records on the Day and Today pages: workouts and sessions, the ring app's
// tags, bedtime guidance, rest mode, and the ring's battery. Nothing here needs the browser:
// the Today page renders them on the server (the day's heart rate, a chart drawn in the
// browser, is heart-rate-card.tsx).
import Link from "next/link";
import type { DayRecords, DayResponse, TodayResponse } from "@/lib/api/contract";
import { formatDay } from "@/lib/days";
import { formatDuration } from "@/lib/metrics/format";
import { BEDTIME_RECOMMENDATIONS, BEDTIME_STATUSES, labelOf, SESSION_TYPES, WORKOUT_INTENSITIES } from "@/lib/metrics/sources";
import { activityName } from "@/lib/metrics/workouts";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";

type Workout = DayRecords["workouts"][number];
type Session = DayRecords["sessions"][number];

export const dot = (color: string) => <span aria-hidden className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ background: color }} />;

/** "07:25–07:59" from a document's local timestamps. */
function span(start: string | null, end: string | null): string {
  const t = (iso: string | null) => (iso ? iso.slice(11, 16) : "?");
  return `${t(start)}–${t(end)}`;
}

export function RestModeBanner({ restMode }: { restMode: DayRecords["restMode"] }) {
  if (!restMode) return null;
  const since = formatDay(restMode.startDay, { withYear: true });
  return (
    <div
      role="status"
      data-testid="rest-mode-banner"
      className={cn(
        "flex items-start gap-2 rounded-xl border border-teal-300 bg-teal-50 px-3 py-2 text-sm text-teal-950",
        "dark:border-teal-800 dark:bg-teal-950/40 dark:text-teal-100",
      )}
    >
      <span aria-hidden>🌿</span>
      <p>
        <span className="font-semibold">Rest mode {restMode.ongoing ? "is on" : "was on"}</span>{" "}
        {restMode.ongoing ? `since ${since}` : `from ${since}${restMode.endDay ? ` to ${formatDay(restMode.endDay, { withYear: true })}` : ""}`}. The ring eases
        its targets and scores while you recover.
      </p>
    </div>
  );
}

export function WorkoutLine({ w }: { w: Workout }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-1.5 text-sm" data-testid="day-workout">
      <span className="inline-flex min-w-0 items-center gap-2 font-medium">
        {dot(labelOf(WORKOUT_INTENSITIES, w.intensity) === "—" ? "var(--workout)" : `var(--cat-${w.intensity})`)}
        {activityName(w.activity)}
      </span>
      <span className="tabular-nums text-slate-600 dark:text-slate-300">{span(w.start, w.end)}</span>
      {w.duration !== null ? <span className="tabular-nums text-slate-600 dark:text-slate-300">{formatDuration(w.duration)}</span> : null}
      {w.calories !== null ? <span className="tabular-nums text-slate-600 dark:text-slate-300">{Math.round(w.calories)} kcal</span> : null}
      <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">{labelOf(WORKOUT_INTENSITIES, w.intensity)}</span>
      <Link
        href={`/workouts?w=${encodeURIComponent(w.id)}`}
        prefetch={false}
        className="text-xs font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-100"
      >
        Heart rate →
      </Link>
    </li>
  );
}

export function SessionLine({ s }: { s: Session }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-1.5 text-sm" data-testid="day-session">
      <span className="inline-flex items-center gap-2 font-medium">
        {dot("var(--session)")}
        {labelOf(SESSION_TYPES, s.type)}
      </span>
      <span className="tabular-nums text-slate-600 dark:text-slate-300">{span(s.start, s.end)}</span>
      {s.duration !== null ? <span className="tabular-nums text-slate-600 dark:text-slate-300">{formatDuration(s.duration)}</span> : null}
      {s.mood ? <span className="text-xs text-slate-500 dark:text-slate-400">mood: {s.mood}</span> : null}
    </li>
  );
}

export function WorkoutsSessionsCard({ title, workouts, sessions, empty }: { title: string; workouts: Workout[]; sessions: Session[]; empty: string }) {
  return (
    <Card aria-labelledby="ws-title" data-testid="workouts-sessions">
      <h2 id="ws-title" className="mb-1 flex items-center gap-2 text-base font-semibold">
        {dot("var(--workout)")}
        {title}
      </h2>
      {workouts.length + sessions.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {workouts.map((w) => (
            <WorkoutLine key={w.id} w={w} />
          ))}
          {sessions.map((s) => (
            <SessionLine key={s.id} s={s} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The tags entered in the ring's app that day, read-only. */
export function RingTagsCard({ tags }: { tags: DayRecords["ringTags"] }) {
  return (
    <Card className="!p-4" aria-labelledby="ring-tags-title" data-testid="day-ring-tags">
      <h2 id="ring-tags-title" className="mb-2 flex items-center gap-2 text-sm font-semibold">
        {dot("#0d9488")}
        Tags from the ring app
      </h2>
      {tags.length ? (
        <ul className="flex flex-wrap gap-1.5">
          {tags.map((t) => (
            <li
              key={t.id}
              className={cn(
                "rounded-full bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-900 ring-1 ring-inset ring-teal-200",
                "dark:bg-teal-950/50 dark:text-teal-100 dark:ring-teal-800",
              )}
              title={t.comment || undefined}
            >
              #{t.name}
              {t.time ? <span className="ml-1 font-normal text-teal-700 dark:text-teal-300">{t.time.slice(11, 16)}</span> : null}
              {t.comment ? <span className="ml-1 font-normal italic">“{t.comment}”</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">None that day.</p>
      )}
    </Card>
  );
}

/** That evening's bedtime guidance. */
export function BedtimeCard({ bedtime, heading = "Bedtime guidance" }: { bedtime: DayRecords["bedtime"]; heading?: string }) {
  return (
    <Card className="!p-4" aria-labelledby="bedtime-title" data-testid="bedtime">
      <h2 id="bedtime-title" className="mb-2 flex items-center gap-2 text-sm font-semibold">
        {dot("var(--sleep)")}
        {heading}
      </h2>
      {bedtime ? (
        <dl className="space-y-1 text-sm">
          {bedtime.window ? (
            <div className="flex items-baseline justify-between gap-2">
              <dt className="text-slate-500 dark:text-slate-400">Recommended bedtime</dt>
              <dd className="font-semibold tabular-nums" data-testid="bedtime-window">
                {bedtime.window.start}–{bedtime.window.end}
              </dd>
            </div>
          ) : null}
          <div className="flex items-baseline justify-between gap-2">
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd className="text-right font-medium">{labelOf(BEDTIME_STATUSES, bedtime.status)}</dd>
          </div>
          {bedtime.recommendation ? (
            <div className="flex items-baseline justify-between gap-2">
              <dt className="text-slate-500 dark:text-slate-400">Advice</dt>
              <dd className="text-right font-medium">{labelOf(BEDTIME_RECOMMENDATIONS, bedtime.recommendation)}</dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">No guidance for that evening.</p>
      )}
    </Card>
  );
}

/** A small battery drawn to its level (no emoji: not every system font has one). */
function BatteryIcon({ level, charging }: { level: number | null; charging: boolean }) {
  const pct = Math.max(0, Math.min(100, level ?? 0));
  const fill = charging ? "var(--good)" : pct <= 15 ? "var(--bad)" : pct <= 30 ? "var(--warn)" : "var(--good)";
  return (
    <span aria-hidden className="inline-flex items-center">
      <span className="relative inline-block h-2.5 w-5 rounded-[3px] border border-current opacity-80">
        <span className="absolute inset-y-0 left-0 rounded-[2px]" style={{ width: `${pct}%`, background: fill }} />
      </span>
      <span className="ml-px inline-block h-1 w-0.5 rounded-r-sm bg-current opacity-80" />
    </span>
  );
}

/** The ring's battery and firmware, beside the freshness chips. */
export function RingChips({ status }: { status: Pick<TodayResponse["records"], "battery" | "ring"> }) {
  const { battery, ring } = status;
  if (!battery && !ring) return null;
  const chip = cn(
    "inline-flex items-center gap-1.5 rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-700",
    "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300",
  );
  return (
    <ul aria-label="The ring" data-testid="ring-chips" className="flex flex-wrap gap-1.5">
      {battery ? (
        <li
          className={chip}
          data-testid="ring-battery"
          data-at={battery.at}
          title={`Battery ${battery.level ?? "?"} % at ${new Date(battery.at).toLocaleString()}`}
        >
          <BatteryIcon level={battery.level} charging={battery.charging === true} />
          <span className="font-medium">Battery</span>
          <span className="tabular-nums">{battery.level ?? "—"} %</span>
          {battery.charging ? <span className="text-slate-500 dark:text-slate-400">charging</span> : null}
        </li>
      ) : null}
      {ring ? (
        <li
          className={chip}
          data-testid="ring-firmware"
          title={[ring.hardware, ring.design, ring.color, ring.size ? `size ${ring.size}` : null].filter(Boolean).join(", ")}
        >
          <span className="font-medium">Firmware</span>
          <span className="tabular-nums">{ring.firmware ?? "—"}</span>
          {ring.hardware ? <span className="text-slate-500 dark:text-slate-400">{ring.hardware}</span> : null}
        </li>
      ) : null}
    </ul>
  );
}

/** The day's workouts and sessions on the activity timeline's clock. */
export function timelineEvents(records: DayResponse["records"]) {
  return [
    ...records.workouts.flatMap((w) =>
      w.startMin !== null && w.endMin !== null ? [{ start: w.startMin, end: w.endMin, kind: "workout" as const, label: activityName(w.activity) }] : [],
    ),
    ...records.sessions.flatMap((s) =>
      s.startMin !== null && s.endMin !== null ? [{ start: s.startMin, end: s.endMin, kind: "session" as const, label: labelOf(SESSION_TYPES, s.type) }] : [],
    ),
  ];
}
