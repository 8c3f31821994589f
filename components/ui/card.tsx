import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** A card's frame, for elements that cannot be a <section> (a <div> group inside a <dl>). */
export const cardClass =
  "rounded-2xl border border-slate-200/80 bg-white p-4 shadow-sm shadow-slate-200/50 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none sm:p-5";

export function Card({ className, children, ...rest }: ComponentPropsWithoutRef<"section">) {
  return (
    <section className={cn(cardClass, className)} {...rest}>
      {children}
    </section>
  );
}

export function PageHeader({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{subtitle}</p> : null}
      </div>
      {children ? <div className="flex flex-wrap items-center gap-2">{children}</div> : null}
    </div>
  );
}
