import type { ReactNode } from "react";
import { signalDocsHref, SIGNALS, type SignalKind } from "@/lib/signals/catalog";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";

/** The frame every signal card shares: its title, a badge, and the link to where its method is explained. */
export function SignalCard({ kind, badge, children, className }: { kind: SignalKind; badge?: ReactNode; children: ReactNode; className?: string }) {
  const def = SIGNALS[kind];
  const titleId = `signal-${kind}-title`;
  return (
    <Card aria-labelledby={titleId} data-testid={`signal-${kind}`} className={cn("space-y-3", className)}>
      <div className="flex items-start justify-between gap-2">
        <h2 id={titleId} className="text-base font-semibold">
          {def.label}
        </h2>
        {badge}
      </div>
      {children}
      <p className="text-xs">
        <a
          href={signalDocsHref(def.anchor)}
          className="text-brand-700 underline decoration-dotted underline-offset-2 hover:text-brand-600 dark:text-brand-100"
          data-testid="signal-docs-link"
        >
          How this is worked out, and its sources
        </a>
      </p>
    </Card>
  );
}

const TONES = {
  good: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  warn: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  bad: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-200",
  neutral: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
} as const;

export function Badge({ tone, children, testId }: { tone: keyof typeof TONES; children: ReactNode; testId?: string }) {
  return (
    <span data-testid={testId} className={cn("shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold", TONES[tone])}>
      {children}
    </span>
  );
}

/** A clock time from hours after midnight ("23:09"). */
export function clockText(h: number | null): string {
  if (h === null) return "—";
  const m = Math.round(h * 60) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}
