import type { ReactNode } from "react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { PageHeader } from "@/components/ui/card";
import { retryButtonClass } from "@/components/ui/retry-button-class";

export function EmptyState({ title, children, className, testId }: { title: string; children?: ReactNode; className?: string; testId?: string }) {
  return (
    <div
      role="status"
      data-testid={testId}
      className={cn(
        "rounded-2xl border border-dashed border-slate-300 bg-white/60 px-5 py-8 text-center dark:border-slate-700 dark:bg-slate-900/40",
        className,
      )}
    >
      <p className="font-medium text-slate-800 dark:text-slate-100">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-500 dark:text-slate-400">{children}</div> : null}
    </div>
  );
}

/**
 * Something could not be loaded. `onRetry` (a component in the browser) gets a "Try again"
 * button; a section rendered on the server passes its own control as `retry` (RefreshButton).
 */
export function ErrorState({ error, onRetry, retry, className }: { error: unknown; onRetry?: () => void; retry?: ReactNode; className?: string }) {
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return (
    <div
      role="alert"
      className={cn(
        "rounded-2xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-100",
        className,
      )}
    >
      <p className="font-medium">Could not load this.</p>
      <p className="mt-0.5">{message}</p>
      {onRetry ? (
        <button type="button" onClick={onRetry} className={retryButtonClass}>
          Try again
        </button>
      ) : (
        retry
      )}
    </div>
  );
}

/** A page's title over NoDataYet: the page before the first sync. */
export function NoDataPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <NoDataYet />
    </>
  );
}

/** Shown when nothing has been synced yet. */
export function NoDataYet() {
  return (
    <EmptyState title="No ring data yet">
      The first sync fills this in. Follow it on the{" "}
      <Link className="font-medium text-brand-600 underline dark:text-brand-100" href="/sync">
        Sync
      </Link>{" "}
      page.
    </EmptyState>
  );
}
