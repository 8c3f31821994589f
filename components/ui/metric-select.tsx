"use client";
import { findMetric, metricGroups, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";

/** A native select of catalog metrics, grouped (keyboard and screen-reader friendly). */
export function MetricSelect({
  id,
  value,
  onChange,
  filter,
  className,
  ariaLabel,
  placeholder,
}: {
  id?: string;
  /** "" = the placeholder */
  value: MetricId | "";
  onChange: (id: MetricId) => void;
  filter?: (m: MetricDef) => boolean;
  className?: string;
  ariaLabel?: string;
  /** an empty first option (for "add a metric" pickers) */
  placeholder?: string;
}) {
  return (
    <select
      id={id}
      aria-label={ariaLabel}
      value={value}
      onChange={(e) => {
        const m = findMetric(e.target.value);
        if (m) onChange(m.id);
      }}
      className={cn(inputClass, "max-w-full pr-8", className)}
    >
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {metricGroups(filter).map((g) => (
        <optgroup key={g.group} label={g.group}>
          {g.metrics.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
