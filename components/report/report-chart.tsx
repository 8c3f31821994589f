// One chart of the report on the page, as inline SVG drawn on the server (no script): the normal
// range as a pale area, the daily values as a thin line and the 7-day mean as a thick one; the
// night's stages as stacked bars; bedtime and wake time as two lines. Each keeps its title,
// legend and caption (what it shows, in words) together, and is never cut across a printed page.
// Geometry from components/charts/scale.ts, like the app's other charts and the PDF's.
import type { ReactNode } from "react";
import { bandPath, dayTicks, linePath, linearScale, niceTicks, type Scale } from "@/components/charts/scale";
import { formatNumber } from "@/lib/metrics/format";
import type { Num } from "@/lib/metrics/stats";
import { isEmptyChart, type ReportChart, type ReportLineChart, type ReportStagesChart, type ReportTimingChart } from "@/lib/metrics/report";
import { reportClockTime } from "@/components/report/report-text";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import { NO_DATA_IN_PERIOD } from "@/lib/metrics/describe";
import { cn } from "@/components/ui/cn";

const W = 720;
const H = 170;
const PAD = { left: 44, right: 8, top: 8, bottom: 22 };

type Frame = { from: string; days: number; x: Scale; y: Scale; ticks: number[]; label: (v: number) => string };

function frame(from: string, days: number, values: Num[][], label: (v: number) => string, zero = false): Frame {
  let lo = Infinity;
  let hi = -Infinity;
  for (const series of values)
    for (const v of series) {
      if (v === null || !Number.isFinite(v)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  if (zero && lo > 0) lo = 0;
  if (zero && hi <= lo) hi = lo + 1;
  const { ticks, domain } = Number.isFinite(lo) ? niceTicks(lo, hi, 4, label) : { ticks: [0, 1], domain: [0, 1] as [number, number] };
  return { from, days, x: linearScale([0, Math.max(1, days - 1)], [PAD.left, W - PAD.right]), y: linearScale(domain, [H - PAD.bottom, PAD.top]), ticks, label };
}

const pixels = (f: Frame, s: Num[]): Num[] => s.map((v) => (v === null || !Number.isFinite(v) ? null : f.y(v)));
const xs = (f: Frame): number[] => Array.from({ length: f.days }, (_, i) => f.x(i));

function Axes({ f }: { f: Frame }) {
  const bottom = H - PAD.bottom;
  return (
    <g fontSize={11} fill="var(--chart-text)">
      {f.ticks.map((t) => (
        <g key={`y${t}`}>
          <line x1={PAD.left} x2={W - PAD.right} y1={f.y(t)} y2={f.y(t)} stroke="var(--chart-grid)" strokeWidth={1} />
          <text x={PAD.left - 5} y={f.y(t) + 4} textAnchor="end">
            {f.label(t)}
          </text>
        </g>
      ))}
      {dayTicks(f.from, f.days, 8).map((t) => (
        <text key={`x${t.index}`} x={f.x(t.index)} y={bottom + 16} textAnchor="middle">
          {t.label}
        </text>
      ))}
    </g>
  );
}

const titled = (c: ReportChart) => (c.unit ? `${c.title} (${c.unit})` : c.title);

type LegendItem = { label: string; colour: string; shape: "line" | "thin" | "area" };

/** A chart with no value in its period: its title, "No data in this period" and the reason when known, and its caption. */
function EmptyFigure({ title, caption, reason }: { title: string; caption: string; reason: string | null }) {
  return (
    <figure className="break-inside-avoid rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="report-chart" data-empty="true">
      <h4 className="text-sm font-semibold">{title}</h4>
      <div
        className={cn(
          "mt-1 flex min-h-24 flex-col items-center justify-center rounded-md border border-dashed border-slate-300 p-3 text-center",
          "dark:border-slate-700",
        )}
      >
        <p className="text-sm font-medium" data-testid="chart-empty">
          {NO_DATA_IN_PERIOD}
        </p>
        {reason ? <p className="text-xs text-slate-600 dark:text-slate-300">{reason}</p> : null}
      </div>
      <figcaption className="mt-1 text-sm text-slate-600 dark:text-slate-300">{caption}</figcaption>
    </figure>
  );
}

function Figure({ title, caption, legend, children }: { title: string; caption: string; legend: LegendItem[]; children: ReactNode }) {
  return (
    <figure className="break-inside-avoid rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="report-chart">
      <h4 className="text-sm font-semibold">{title}</h4>
      <svg viewBox={`0 0 ${W} ${H}`} className="mt-1 h-auto w-full" role="img" aria-label={`${title}: ${caption}`}>
        {children}
      </svg>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300" aria-label="Legend">
        {legend.map((l) => (
          <li key={l.label} className="flex items-center gap-1.5">
            <span
              aria-hidden
              className="inline-block w-4 rounded-sm"
              style={{ background: l.colour, height: l.shape === "area" ? 10 : l.shape === "thin" ? 1 : 3, opacity: l.shape === "area" ? 0.6 : 1 }}
            />
            {l.label}
          </li>
        ))}
      </ul>
      <figcaption className="mt-1 text-sm text-slate-600 dark:text-slate-300">{caption}</figcaption>
    </figure>
  );
}

const DAILY = "var(--chart-cursor)";
const MEAN = "var(--chart-1)";
const BAND = "var(--chart-normal)";

function LineChart({ chart, from }: { chart: ReportLineChart; from: string }) {
  const f = frame(from, chart.value.length, [chart.value, chart.avg7, chart.low, chart.high], (v) => formatNumber(v, Math.min(chart.decimals, 1)));
  const x = xs(f);
  const band = bandPath(x, pixels(f, chart.low), pixels(f, chart.high));
  const legend: LegendItem[] = [
    { label: "Daily value", colour: DAILY, shape: "thin" },
    { label: SEVEN_DAY_MEAN.label, colour: MEAN, shape: "line" },
    ...(band ? [{ label: chart.rangeSource === "baseline" ? "Baseline band" : "Normal range", colour: BAND, shape: "area" as const }] : []),
  ];
  return (
    <Figure title={titled(chart)} caption={chart.caption} legend={legend}>
      <Axes f={f} />
      {band ? <path d={band} fill={BAND} /> : null}
      <path d={linePath(x, pixels(f, chart.value))} stroke={DAILY} strokeWidth={1} fill="none" />
      <path d={linePath(x, pixels(f, chart.avg7))} stroke={MEAN} strokeWidth={2.5} fill="none" />
    </Figure>
  );
}

const STAGES = [
  { key: "deep", label: "Deep", colour: "var(--phase-deep)" },
  { key: "rem", label: "REM", colour: "var(--phase-rem)" },
  { key: "light", label: "Light", colour: "var(--phase-light)" },
  { key: "awake", label: "Awake", colour: "var(--phase-awake)" },
] as const;

function StagesChart({ chart, from }: { chart: ReportStagesChart; from: string }) {
  const days = chart.deep.length;
  const totals = Array.from({ length: days }, (_, i) => STAGES.reduce((s, st) => s + (chart[st.key][i] ?? 0), 0));
  const f = frame(from, days, [totals], (v) => formatNumber(v, 0), true);
  const width = Math.max(0.5, Math.min(10, ((W - PAD.left - PAD.right) / Math.max(1, days)) * 0.75));
  const paths = STAGES.map(() => "");
  const r = (v: number) => Math.round(v * 10) / 10;
  for (let i = 0; i < days; i++) {
    let base = 0;
    STAGES.forEach((st, k) => {
      const v = chart[st.key][i];
      if (v === null || v === undefined || !(v > 0)) return;
      paths[k] += `M${r(f.x(i) - width / 2)} ${r(f.y(base + v))}h${r(width)}V${r(f.y(base))}h${-r(width)}Z`;
      base += v;
    });
  }
  return (
    <Figure title={titled(chart)} caption={chart.caption} legend={STAGES.map((s) => ({ label: s.label, colour: s.colour, shape: "area" }))}>
      <Axes f={f} />
      {STAGES.map((st, k) => (paths[k] ? <path key={st.key} d={paths[k]} fill={st.colour} /> : null))}
    </Figure>
  );
}

function TimingChart({ chart, from }: { chart: ReportTimingChart; from: string }) {
  const f = frame(from, chart.bedtime.length, [chart.bedtime, chart.wakeTime], reportClockTime);
  const x = xs(f);
  const legend: LegendItem[] = [
    { label: "Bedtime", colour: "var(--sleep)", shape: "line" },
    { label: "Wake time", colour: "var(--activity)", shape: "line" },
  ];
  return (
    <Figure title={chart.title} caption={chart.caption} legend={legend}>
      <Axes f={f} />
      <path d={linePath(x, pixels(f, chart.bedtime))} stroke="var(--sleep)" strokeWidth={2} fill="none" />
      <path d={linePath(x, pixels(f, chart.wakeTime))} stroke="var(--activity)" strokeWidth={2} fill="none" />
    </Figure>
  );
}

/** One chart of the report, over the days from `from` (one slot a day); an empty one says so, with `emptyReason` when known. */
export function ReportChartView({ chart, from, emptyReason = null }: { chart: ReportChart; from: string; emptyReason?: string | null }) {
  if (isEmptyChart(chart)) return <EmptyFigure title={chart.kind === "timing" ? chart.title : titled(chart)} caption={chart.caption} reason={emptyReason} />;
  if (chart.kind === "stages") return <StagesChart chart={chart} from={from} />;
  if (chart.kind === "timing") return <TimingChart chart={chart} from={from} />;
  return <LineChart chart={chart} from={from} />;
}
