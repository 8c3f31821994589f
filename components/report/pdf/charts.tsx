// The report's charts as PDF vectors: every mark is a path or a line, every label real text.
// A line chart draws the normal range as a pale area, the daily values as a thin grey line and
// the 7-day mean as a thick blue one; the stages chart stacks the night's stages as bars; the
// timing chart draws bedtime and wake time. Each chart keeps its title, legend and caption (the
// report's own words) on one page (wrap={false}). Geometry from components/charts/scale.ts, the
// same as the app's own SVG charts.
import { G, Line, Path, Svg, Text, View } from "@react-pdf/renderer";
import { bandPath, dayTicks, linePath, linearScale, niceTicks, type Scale } from "@/components/charts/scale";
import { formatNumber } from "@/lib/metrics/format";
import type { Num } from "@/lib/metrics/stats";
import type { ReportChart, ReportLineChart, ReportStagesChart, ReportTimingChart } from "@/lib/metrics/report";
import { writtenUnit } from "./format";
import { PDF_COLOURS, PDF_CONTENT_WIDTH, styles } from "./styles";
import { pdfText } from "./text";
import { reportClockTime } from "@/components/report/report-text";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";

const HEIGHT = 112;
/** A chart's height on the page with its title, legend and caption (a heading before one keeps at least this below it). */
export const CHART_HEIGHT = HEIGHT + 45;
const PAD = { left: 34, right: 4, top: 5, bottom: 14 };
const TICK_FONT = 6.5;

type Frame = { from: string; days: number; x: Scale; y: Scale; ticks: number[]; formatTick: (v: number) => string };

function frame(from: string, days: number, values: Num[][], formatTick: (v: number) => string, zero = false): Frame {
  let lo = Infinity;
  let hi = -Infinity;
  for (const series of values)
    for (const v of series) {
      if (v === null || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (zero && lo > 0) lo = 0;
  const { ticks, domain } = Number.isFinite(lo) ? niceTicks(lo, hi, 4) : { ticks: [0, 1], domain: [0, 1] as [number, number] };
  const x = linearScale([0, Math.max(1, days - 1)], [PAD.left, PDF_CONTENT_WIDTH - PAD.right]);
  const y = linearScale(domain, [HEIGHT - PAD.bottom, PAD.top]);
  return { from, days, x, y, ticks, formatTick };
}

const pixels = (f: Frame, series: Num[]): Num[] => series.map((v) => (v === null || !Number.isFinite(v) ? null : f.y(v)));
const xs = (f: Frame): number[] => Array.from({ length: f.days }, (_, i) => f.x(i));

/** A day label's anchor: centred under its tick, but kept inside the chart at either end. */
const tickAnchor = (x: number): "start" | "middle" | "end" => (x < PAD.left + 12 ? "start" : x > PDF_CONTENT_WIDTH - PAD.right - 12 ? "end" : "middle");

/** The axes: horizontal rules at the value ticks with their labels, and the day ticks below. */
function Axes({ f }: { f: Frame }) {
  const bottom = HEIGHT - PAD.bottom;
  return (
    <G>
      {f.ticks.map((t) => (
        <G key={`y${t}`}>
          <Line x1={PAD.left} x2={PDF_CONTENT_WIDTH - PAD.right} y1={f.y(t)} y2={f.y(t)} stroke={PDF_COLOURS.rule} strokeWidth={0.4} />
          <Text x={PAD.left - 3} y={f.y(t) + 2.2} textAnchor="end" style={{ fontSize: TICK_FONT, fill: PDF_COLOURS.muted }}>
            {pdfText(f.formatTick(t))}
          </Text>
        </G>
      ))}
      {dayTicks(f.from, f.days, 8).map((t) => (
        <G key={`x${t.index}`}>
          <Line x1={f.x(t.index)} x2={f.x(t.index)} y1={bottom} y2={bottom + 2.5} stroke={PDF_COLOURS.muted} strokeWidth={0.4} />
          <Text x={f.x(t.index)} y={bottom + 9.5} textAnchor={tickAnchor(f.x(t.index))} style={{ fontSize: TICK_FONT, fill: PDF_COLOURS.muted }}>
            {pdfText(t.label)}
          </Text>
        </G>
      ))}
    </G>
  );
}

function Legend({ items }: { items: Array<{ label: string; colour: string; thin?: boolean; area?: boolean }> }) {
  return (
    <View style={styles.legend}>
      {items.map((it) => (
        <View key={it.label} style={styles.legendItem}>
          <View style={[styles.swatch, { backgroundColor: it.colour, height: it.area ? 6 : it.thin ? 1 : 2.5 }]} />
          <Text>{pdfText(it.label)}</Text>
        </View>
      ))}
    </View>
  );
}

function ChartFrame({ title, unit, caption, children }: { title: string; unit: string; caption: string; children: React.ReactNode }) {
  return (
    <View style={styles.chart} wrap={false}>
      <Text style={styles.chartTitle}>{pdfText(writtenUnit(unit) ? `${title} (${unit})` : title)}</Text>
      {children}
      <Text style={styles.caption}>{pdfText(caption)}</Text>
    </View>
  );
}

function LineChart({ chart, from }: { chart: ReportLineChart; from: string }) {
  const f = frame(from, chart.value.length, [chart.value, chart.avg7, chart.low, chart.high], (v) => formatNumber(v, Math.min(chart.decimals, 1)));
  const x = xs(f);
  const band = bandPath(x, pixels(f, chart.low), pixels(f, chart.high));
  return (
    <ChartFrame title={chart.title} unit={chart.unit} caption={chart.caption}>
      <Svg width={PDF_CONTENT_WIDTH} height={HEIGHT}>
        <Axes f={f} />
        {band ? <Path d={band} fill={PDF_COLOURS.band} fillOpacity={0.45} /> : null}
        <Path d={linePath(x, pixels(f, chart.value))} stroke={PDF_COLOURS.daily} strokeWidth={0.6} fill="none" />
        <Path d={linePath(x, pixels(f, chart.avg7))} stroke={PDF_COLOURS.mean} strokeWidth={1.6} fill="none" />
      </Svg>
      <Legend
        items={[
          { label: "Daily value", colour: PDF_COLOURS.daily, thin: true },
          { label: SEVEN_DAY_MEAN.label, colour: PDF_COLOURS.mean },
          ...(band ? [{ label: chart.rangeSource === "baseline" ? "Baseline band" : "Normal range", colour: PDF_COLOURS.band, area: true }] : []),
        ]}
      />
    </ChartFrame>
  );
}

const STAGES = [
  { key: "deep", label: "Deep" },
  { key: "rem", label: "REM" },
  { key: "light", label: "Light" },
  { key: "awake", label: "Awake" },
] as const;

/** One bar per night, its stages stacked from the bottom (deep, REM, light, awake), each stage one path. */
function StagesChart({ chart, from }: { chart: ReportStagesChart; from: string }) {
  const days = chart.deep.length;
  const totals = Array.from({ length: days }, (_, i) => STAGES.reduce((s, st) => s + (chart[st.key][i] ?? 0), 0));
  const f = frame(from, days, [totals], (v) => formatNumber(v, 0), true);
  const width = Math.max(0.3, Math.min(6, ((PDF_CONTENT_WIDTH - PAD.left - PAD.right) / Math.max(1, days)) * 0.75));
  const paths = STAGES.map(() => "");
  for (let i = 0; i < days; i++) {
    let base = 0;
    STAGES.forEach((st, k) => {
      const v = chart[st.key][i];
      if (v === null || v === undefined || !(v > 0)) return;
      const y0 = f.y(base);
      const y1 = f.y(base + v);
      const x0 = Math.round((f.x(i) - width / 2) * 10) / 10;
      paths[k] += `M${x0} ${Math.round(y1 * 10) / 10}h${Math.round(width * 100) / 100}V${Math.round(y0 * 10) / 10}h${-Math.round(width * 100) / 100}Z`;
      base += v;
    });
  }
  return (
    <ChartFrame title={chart.title} unit={chart.unit} caption={chart.caption}>
      <Svg width={PDF_CONTENT_WIDTH} height={HEIGHT}>
        <Axes f={f} />
        {STAGES.map((st, k) => (paths[k] ? <Path key={st.key} d={paths[k]} fill={PDF_COLOURS.stages[st.key]} /> : null))}
      </Svg>
      <Legend items={STAGES.map((st) => ({ label: st.label, colour: PDF_COLOURS.stages[st.key], area: true }))} />
    </ChartFrame>
  );
}

function TimingChart({ chart, from }: { chart: ReportTimingChart; from: string }) {
  const f = frame(from, chart.bedtime.length, [chart.bedtime, chart.wakeTime], reportClockTime);
  const x = xs(f);
  return (
    <ChartFrame title={chart.title} unit="" caption={chart.caption}>
      <Svg width={PDF_CONTENT_WIDTH} height={HEIGHT}>
        <Axes f={f} />
        <Path d={linePath(x, pixels(f, chart.bedtime))} stroke={PDF_COLOURS.bedtime} strokeWidth={1} fill="none" />
        <Path d={linePath(x, pixels(f, chart.wakeTime))} stroke={PDF_COLOURS.wake} strokeWidth={1} fill="none" />
      </Svg>
      <Legend
        items={[
          { label: "Bedtime", colour: PDF_COLOURS.bedtime },
          { label: "Wake time", colour: PDF_COLOURS.wake },
        ]}
      />
    </ChartFrame>
  );
}

/** One chart of the report, drawn over the days from `from` (one slot a day). */
export function ReportChartPdf({ chart, from }: { chart: ReportChart; from: string }) {
  switch (chart.kind) {
    case "line":
      return <LineChart chart={chart} from={from} />;
    case "stages":
      return <StagesChart chart={chart} from={from} />;
    case "timing":
      return <TimingChart chart={chart} from={from} />;
  }
}
