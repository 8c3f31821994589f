"use client";
import { useRef, type KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { useHydrated } from "@/components/hooks/use-hydrated";

export type SegmentedOption<T extends string> = { value: T; label: string; title?: string };

/** A row of mutually exclusive options (radio group): Tab to enter, arrow keys to move; usable once hydrated. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  size = "md",
  className,
}: {
  label: string;
  options: ReadonlyArray<SegmentedOption<T>>;
  value: T;
  onChange: (v: T) => void;
  size?: "sm" | "md";
  className?: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  // a click before hydration would do nothing and be lost: the options wait for it, as forms' submit buttons do
  const hydrated = useHydrated();
  const onKey = (e: KeyboardEvent, i: number) => {
    const delta = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (i + delta + options.length) % options.length;
    onChange(options[next]!.value);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={cn("inline-flex rounded-xl bg-slate-100 p-0.5 ring-1 ring-inset ring-slate-200 dark:bg-slate-800/80 dark:ring-slate-700", className)}
    >
      {options.map((o, i) => {
        const active = o.value === value;
        return (
          <button
            key={o.value}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={active}
            disabled={!hydrated}
            title={o.title}
            tabIndex={active ? 0 : -1}
            onClick={() => onChange(o.value)}
            onKeyDown={(e) => onKey(e, i)}
            className={cn(
              "rounded-[10px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600",
              size === "sm" ? "px-2 py-0.5 text-xs" : "px-2.5 py-1 text-sm",
              active
                ? "bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white"
                : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white",
            )}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}

/** A choice between the same day (lag 0) and the day after (lag 1), with the words for each. */
export function LagSegmented({
  label,
  lag,
  onChange,
  labels,
  size,
}: {
  label: string;
  lag: 0 | 1;
  onChange: (lag: 0 | 1) => void;
  labels: readonly [sameDay: string, dayAfter: string];
  size?: "sm" | "md";
}) {
  return (
    <Segmented
      size={size}
      label={label}
      value={lag === 1 ? "1" : "0"}
      onChange={(v) => onChange(v === "1" ? 1 : 0)}
      options={[
        { value: "0", label: labels[0] },
        { value: "1", label: labels[1] },
      ]}
    />
  );
}
