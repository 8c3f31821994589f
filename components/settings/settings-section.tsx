import type { ReactNode } from "react";

/** One section of the Settings page: its card, heading and short explanation. */
export function SettingsSection({
  id,
  name,
  testId = `${name}-section`,
  title,
  description,
  children,
}: {
  id?: string;
  name: string;
  testId?: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${name}-heading`}
      data-testid={testId}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 sm:p-6"
    >
      <div>
        <h2 id={`${name}-heading`} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** A section's save outcome, read by screen readers: the error's message, or "Saved.". */
export function SaveStatus({ mutation }: { mutation: { isError: boolean; isSuccess: boolean; error: unknown } }) {
  return (
    <p role="status" className="text-xs text-slate-500 dark:text-slate-400">
      {mutation.isError ? (
        <span className="text-rose-600">{mutation.error instanceof Error ? mutation.error.message : String(mutation.error)}</span>
      ) : mutation.isSuccess ? (
        "Saved."
      ) : (
        ""
      )}
    </p>
  );
}
