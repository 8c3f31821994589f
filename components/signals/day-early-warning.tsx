import type { Units } from "@/lib/metrics/format";
import type { EarlyWarningSignal } from "@/lib/signals/signal-days";
import { MARKER_LABELS } from "@/lib/signals/early-warning";
import { Badge, SignalCard } from "@/components/signals/signal-card";
import { FlagRules } from "@/components/signals/early-warning-card";

const LEVEL = { watch: { text: "Watch", tone: "warn" }, likely: { text: "Likely", tone: "bad" } } as const;

/**
 * A day's early warning on its Day view, when the night was flagged: the level, and for each
 * flagged marker the rule that fired with its value and threshold (as Today's card says it).
 */
export function DayEarlyWarning({ signal, units }: { signal: EarlyWarningSignal; units: Units }) {
  if (signal.level !== "watch" && signal.level !== "likely") return null;
  const flagged = signal.markers.filter((m) => m.flagged).map((m) => MARKER_LABELS[m.marker]);
  return (
    <SignalCard
      kind="early_warning"
      badge={
        <Badge tone={LEVEL[signal.level].tone} testId="early-warning-level">
          {LEVEL[signal.level].text}
        </Badge>
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {flagged.join(", ")} left your baseline that night{signal.heartRateTwoNights ? ", resting heart rate two nights in a row" : ""}.
        {signal.muted ? " Rest mode was on, so no alert was sent." : ""}
      </p>
      <FlagRules markers={signal.markers} units={units} className="text-sm" />
    </SignalCard>
  );
}
