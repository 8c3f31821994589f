"use client";
import { RANGE_LABELS, RANGE_PRESETS, type RangePreset } from "@/lib/metrics/ranges";
import { inputClass } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";

/** 7d / 30d / 90d / 1y / all / custom, with two date fields for a custom range. */
export function RangePicker({
  range,
  from,
  to,
  onChange,
  presets = RANGE_PRESETS,
}: {
  range: RangePreset;
  from: string;
  to: string;
  onChange: (v: { range: RangePreset; from?: string; to?: string }) => void;
  presets?: readonly RangePreset[];
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Segmented
        label="Time range"
        options={presets.map((p) => ({ value: p, label: RANGE_LABELS[p] }))}
        value={range}
        onChange={(r) => onChange(r === "custom" ? { range: r, from, to } : { range: r })}
      />
      {range === "custom" ? (
        <span className="flex items-center gap-1.5 text-sm">
          <label className="sr-only" htmlFor="range-from">
            From
          </label>
          <input
            id="range-from"
            type="date"
            className={inputClass}
            value={from}
            max={to}
            onChange={(e) => e.target.value && onChange({ range, from: e.target.value, to })}
          />
          <span aria-hidden>–</span>
          <label className="sr-only" htmlFor="range-to">
            To
          </label>
          <input
            id="range-to"
            type="date"
            className={inputClass}
            value={to}
            min={from}
            onChange={(e) => e.target.value && onChange({ range, from, to: e.target.value })}
          />
        </span>
      ) : null}
    </div>
  );
}
