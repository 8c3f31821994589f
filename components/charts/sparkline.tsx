// A sparkline: drawn where it is rendered (on the server for the Today page, in the browser
// for the Workouts page's cards), with no state; only its readiness mark runs in the browser.
import { addDays, formatDay } from "@/lib/days";
import { describeSeries } from "@/lib/metrics/describe";
import { bandPath, linearScale, linePath } from "@/components/charts/scale";
import { ReadySvg } from "@/components/charts/chart-ready";
import type { DaysTableProps } from "@/components/charts/chart-table";

/** The days of a sparkline's slots (the last slot is `end`). */
const slotDay = (end: string, n: number, i: number) => addDays(end, i - (n - 1));

/** A sparkline's summary: its range, latest value and change over its days (its accessible name). */
export function sparkSummary(label: string, values: ReadonlyArray<number | null>, end: string, format: (v: number) => string): string {
  return describeSeries(
    label,
    values.map((value, i) => ({ at: formatDay(slotDay(end, values.length, i)), value })),
    format,
  );
}

/** A sparkline's days as a table (shown under the card's text by the caller): the values formatted here, the rows built when opened. */
export function sparkTable(
  label: string,
  values: ReadonlyArray<number | null>,
  end: string,
  format: (v: number) => string,
  marks?: ReadonlyArray<boolean>,
): DaysTableProps {
  return {
    caption: `${label}, by day`,
    label: `${values.length} days as a table`,
    valueLabel: "Value",
    numeric: true,
    end,
    values: values.map((v) => (v === null ? "—" : format(v))),
    ...(marks ? { marks } : {}),
  };
}

/**
 * A small line of the last weeks, gaps left open, with the baseline band behind it and the
 * last value as a dot. Scales to its box (viewBox), so it needs no measuring.
 */
export function Sparkline({
  values,
  band,
  color,
  label,
  marks,
  height = 36,
  className,
}: {
  values: ReadonlyArray<number | null>;
  band?: { low: number; high: number } | null;
  color: string;
  /** accessible name: the line's summary (sparkSummary) */
  label: string;
  /** days (same slots as values) with a tag: drawn as small ticks under the line */
  marks?: ReadonlyArray<boolean>;
  height?: number;
  className?: string;
}) {
  const W = 120;
  const H = height;
  const geo = (() => {
    const nums = values.filter((v): v is number => v !== null);
    if (!nums.length) return null;
    let lo = Math.min(...nums);
    let hi = Math.max(...nums);
    if (band) {
      lo = Math.min(lo, band.low);
      hi = Math.max(hi, band.high);
    }
    if (lo === hi) {
      lo -= 1;
      hi += 1;
    }
    const x = linearScale([0, Math.max(1, values.length - 1)], [2, W - 3]);
    const y = linearScale([lo, hi], [H - 5, 4]);
    const xs = values.map((_, i) => x(i));
    const ys = values.map((v) => (v === null ? null : y(v)));
    let last = -1;
    for (let i = values.length - 1; i >= 0; i--)
      if (values[i] !== null) {
        last = i;
        break;
      }
    return {
      line: linePath(xs, ys),
      band: band ? bandPath([xs[0]!, xs[xs.length - 1]!], [y(band.low), y(band.low)], [y(band.high), y(band.high)]) : "",
      dot: last >= 0 ? { cx: xs[last]!, cy: ys[last]! } : null,
      xs,
    };
  })();
  if (!geo) {
    return <div className={className} style={{ height }} aria-hidden />;
  }
  return (
    <ReadySvg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      className={className}
      style={{ height, width: "100%", display: "block", overflow: "visible" }}
    >
      {geo.band ? <path d={geo.band} fill="var(--chart-band)" /> : null}
      <path d={geo.line} fill="none" stroke={color} strokeWidth={1.75} strokeLinejoin="round" strokeLinecap="round" vectorEffect="non-scaling-stroke" />
      {marks?.map((m, i) => (m ? <rect key={i} x={geo.xs[i]! - 0.75} y={H - 2} width={1.5} height={2} fill="var(--chart-tag)" /> : null))}
      {geo.dot ? <circle cx={geo.dot.cx} cy={geo.dot.cy} r={2.4} fill={color} vectorEffect="non-scaling-stroke" /> : null}
    </ReadySvg>
  );
}
