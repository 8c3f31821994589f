import { WEEKDAYS } from "@/lib/alerts/catalog";
import { REGULARITY } from "@/lib/signals/regularity";
import type { RegularitySignal } from "@/lib/signals/signal-days";
import { Badge, clockText, SignalCard } from "@/components/signals/signal-card";
import { settingsHref } from "@/lib/settings-sections";

/** Today's regularity: the Sleep Regularity Index, the spread of bedtimes and wake times, social jet lag. */
export function RegularityCard({ signal }: { signal: RegularitySignal }) {
  const free = signal.baseline.freeDays.map((d) => WEEKDAYS.find((w) => w.value === d)?.label.slice(0, 3) ?? "?").join(", ") || "none";
  const j = signal.socialJetLag;
  const s = signal.spread;
  return (
    <SignalCard kind="regularity" badge={signal.value === null ? <Badge tone="neutral">Not enough nights</Badge> : undefined}>
      <div className="flex items-end gap-2">
        <p className="text-3xl font-semibold tabular-nums" data-testid="sri-value">
          {signal.value === null ? "—" : Math.round(signal.value)}
        </p>
        <p className="pb-1 text-sm text-slate-600 dark:text-slate-300">
          Sleep Regularity Index, last {REGULARITY.sriDays} days{" "}
          <span className="text-slate-500 dark:text-slate-400">(100: asleep and awake at the same times every day)</span>
        </p>
      </div>
      {signal.value === null ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Needs {REGULARITY.minPairs} pairs of consecutive recorded nights; {signal.inputs.dayPairs} so far.
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Bedtime</dt>
          <dd className="font-medium tabular-nums">
            {clockText(s.bedtime)} {s.bedtimeSdMin === null ? "" : `± ${s.bedtimeSdMin} min`}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Wake time</dt>
          <dd className="font-medium tabular-nums">
            {clockText(s.wakeTime)} {s.wakeTimeSdMin === null ? "" : `± ${s.wakeTimeSdMin} min`}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="text-xs text-slate-500 dark:text-slate-400">Social jet lag (free days: {free})</dt>
          <dd className="font-medium tabular-nums" data-testid="social-jet-lag">
            {j.hours === null
              ? "— (needs 2 free and 2 work nights in 4 weeks)"
              : `${j.hours.toFixed(1)} h: mid-sleep ${clockText(j.midSleepWork)} on work nights, ` +
                `${clockText(j.midSleepFree)} on free nights; chronotype ${clockText(j.chronotype)}`}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Free days are a setting:{" "}
        <a href={settingsHref("signals", "free-days")} className="underline decoration-dotted underline-offset-2">
          change them
        </a>
        .
      </p>
    </SignalCard>
  );
}
