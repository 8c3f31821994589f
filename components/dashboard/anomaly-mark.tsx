import type { AnomalyFlag } from "@/lib/metrics/stats";
import { cn } from "@/components/ui/cn";

/** Marks a value outside the person's 90-day baseline band. */
export function AnomalyMark({ flag, className, compact }: { flag: AnomalyFlag; className?: string; compact?: boolean }) {
  if (!flag) return null;
  const text = flag === "high" ? "Above your usual range" : "Below your usual range";
  return (
    <span
      data-testid="anomaly-mark"
      title={`${text} (mean ± 2 sd of the 90 days before)`}
      className={cn(
        "inline-flex items-center gap-1 rounded-full bg-amber-100 px-1.5 py-0.5 text-[0.7rem] font-semibold text-amber-900",
        "dark:bg-amber-400/15 dark:text-amber-300",
        className,
      )}
    >
      <span aria-hidden>{flag === "high" ? "↑" : "↓"}</span>
      {compact ? (
        <>
          <span aria-hidden>{flag}</span>
          <span className="sr-only">{text}</span>
        </>
      ) : (
        text
      )}
    </span>
  );
}
