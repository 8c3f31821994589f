"use client";
import { metricGroups, type MetricDef } from "@/lib/metrics/catalog";
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
  value: string;
  onChange: (id: string) => void;
  filter?: (m: MetricDef) => boolean;
  className?: string;
  ariaLabel?: string;
  /** an empty first option (for "add a metric" pickers) */
  placeholder?: string;
}) {
  return (
    <select id={id} aria-label={ariaLabel} value={value} onChange={(e) => onChange(e.target.value)} className={cn(inputClass, "max-w-full pr-8", className)}>
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
