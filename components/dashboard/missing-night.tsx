import { MISSING_REASON_TEXT, type MissingReason } from "@/lib/metrics/missing-night";
import { cn } from "@/components/ui/cn";

/**
 * Why a day has no main sleep, in words (lib/metrics/missing-night.ts decides): "No main sleep:
 * on the charger." `lead` replaces "No main sleep" (Today: "Last night, no main sleep").
 */
export function MissingNight({ reason, lead = "No main sleep", className }: { reason: MissingReason; lead?: string; className?: string }) {
  return (
    <p data-testid="missing-reason" data-reason={reason} className={cn("text-sm text-slate-600 dark:text-slate-300", className)}>
      {lead}: <span className="font-medium text-slate-900 dark:text-slate-100">{MISSING_REASON_TEXT[reason]}</span>.
    </p>
  );
}
