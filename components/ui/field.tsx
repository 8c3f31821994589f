import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { cn } from "@/components/ui/cn";

export const inputClass = cn(
  "max-w-full rounded-lg border border-slate-500 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm",
  "focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600",
  "dark:border-slate-500 dark:bg-slate-950 dark:text-slate-100",
);

export function Field({ label, children, className, hint }: { label: string; children: ReactNode; className?: string; hint?: string }) {
  return (
    <label className={cn("flex min-w-0 max-w-full flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400", className)}>
      <span>{label}</span>
      {children}
      {hint ? <span className="font-normal text-slate-500 dark:text-slate-400">{hint}</span> : null}
    </label>
  );
}

export function Button({
  className,
  variant = "primary",
  ...rest
}: ComponentPropsWithoutRef<"button"> & { variant?: "primary" | "secondary" | "danger" | "ghost" }) {
  return (
    <button
      type="button"
      className={cn(
        "inline-flex items-center justify-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50",
        variant === "primary" && "bg-brand-600 text-white hover:bg-brand-700 focus-visible:outline-brand-600",
        variant === "secondary" && "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:outline-brand-600",
        variant === "secondary" && "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
        variant === "danger" && "bg-rose-600 text-white hover:bg-rose-700 focus-visible:outline-rose-600",
        variant === "ghost" && "text-slate-600 hover:bg-slate-100 focus-visible:outline-brand-600 dark:text-slate-300 dark:hover:bg-slate-800",
        className,
      )}
      {...rest}
    />
  );
}
