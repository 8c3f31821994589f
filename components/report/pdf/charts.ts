// The report's charts drawn as PDF vectors: every mark is a path or a line, every label real
// text. A line chart draws the normal range as a pale area, the daily values as a thin grey line
// and the 7-day mean as a thick blue one; the stages chart stacks the night's stages as bars;
// the timing chart draws bedtime and wake time. Each chart keeps its title, plot, legend and
// caption (the report's own words) on one page: its height is measured before it is drawn.
// The geometry, and the paths as PDF operators, are ./chart-geometry.ts.
import { formatNumber } from "@/lib/metrics/format";
import { isEmptyChart, type ReportChart } from "@/lib/metrics/report";
import { reportClockTime } from "@/components/report/report-text";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import { PLOT, STAGES, anchored, axisMarks, chartFrame, lineOps, rangeOps, stageOps, stageTotals, type Frame } from "./chart-geometry";
import { writtenUnit } from "./format";
import type { PdfWriter } from "./layout";
import { PDF_COLOURS, PDF_CONTENT_WIDTH, PDF_PAGE, STYLES } from "./styles";
import { pdfText } from "./text";
import { NO_DATA_IN_PERIOD } from "@/lib/metrics/describe";

type LegendItem = { label: string; colour: string; thin?: boolean; area?: boolean };
/** A mark: its path as PDF operators (./chart-geometry.ts), filled or stroked. */
type Mark = { d: string; fill?: string; opacity?: number; stroke?: string; lineWidth?: number };
/** A chart as drawn: its marks over the axes, and its legend. */
type Drawing = { f: Frame; marks: Mark[]; legend: LegendItem[] };

const LEGEND = { above: 2, swatch: 10, swatchGap: 3, itemGap: 10 } as const;
/** The space after a chart. */
const CHART_BELOW = 10;

function drawingOf(chart: ReportChart, from: string): Drawing {
  switch (chart.kind) {
    case "line": {
      const f = chartFrame(from, chart.value.length, PDF_CONTENT_WIDTH, [chart.value, chart.avg7, chart.low, chart.high], (v) =>
        formatNumber(v, Math.min(chart.decimals, 1)),
      );
      const band = rangeOps(f, chart.low, chart.high);
      return {
        f,
        marks: [
          ...(band ? [{ d: band, fill: PDF_COLOURS.band, opacity: 0.45 }] : []),
          { d: lineOps(f, chart.value), stroke: PDF_COLOURS.daily, lineWidth: 0.6 },
          { d: lineOps(f, chart.avg7), stroke: PDF_COLOURS.mean, lineWidth: 1.6 },
        ],
        legend: [
          { label: "Daily value", colour: PDF_COLOURS.daily, thin: true },
          { label: SEVEN_DAY_MEAN.label, colour: PDF_COLOURS.mean },
          ...(band ? [{ label: chart.rangeSource === "baseline" ? "Baseline band" : "Normal range", colour: PDF_COLOURS.band, area: true }] : []),
        ],
      };
    }
    case "stages": {
      const f = chartFrame(from, chart.deep.length, PDF_CONTENT_WIDTH, [stageTotals(chart)], (v) => formatNumber(v, 0), true);
      const paths = stageOps(chart, f);
      return {
        f,
        marks: STAGES.map((st) => ({ d: paths[st.key], fill: PDF_COLOURS.stages[st.key] })),
        legend: STAGES.map((st) => ({ label: st.label, colour: PDF_COLOURS.stages[st.key], area: true })),
      };
    }
    case "timing": {
      const f = chartFrame(from, chart.bedtime.length, PDF_CONTENT_WIDTH, [chart.bedtime, chart.wakeTime], reportClockTime);
      return {
        f,
        marks: [
          { d: lineOps(f, chart.bedtime), stroke: PDF_COLOURS.bedtime, lineWidth: 1 },
          { d: lineOps(f, chart.wakeTime), stroke: PDF_COLOURS.wake, lineWidth: 1 },
        ],
        legend: [
          { label: "Bedtime", colour: PDF_COLOURS.bedtime },
          { label: "Wake time", colour: PDF_COLOURS.wake },
        ],
      };
    }
  }
}

const chartTitle = (chart: ReportChart) => (chart.kind !== "timing" && writtenUnit(chart.unit) ? `${chart.title} (${chart.unit})` : chart.title);

const legendHeight = (w: PdfWriter) => LEGEND.above + w.heightOf("Daily value", STYLES.legend);

/** An empty chart's box: "No data in this period" and the reason, in place of the plot and legend. */
const EMPTY = { height: 44, gap: 3 } as const;

/** A chart's height on the page: title, plot, legend, caption and the space after it (an empty one: its box instead of plot and legend). */
export function chartHeight(w: PdfWriter, chart: ReportChart, emptyReason: string | null = null): number {
  const body = isEmptyChart(chart) ? Math.max(EMPTY.height, emptyBoxText(w, emptyReason)) : PLOT.height + legendHeight(w);
  return w.blockHeight(chartTitle(chart), STYLES.chartTitle) + body + w.blockHeight(chart.caption, STYLES.caption) + CHART_BELOW;
}

const emptyBoxText = (w: PdfWriter, reason: string | null) =>
  w.heightOf(NO_DATA_IN_PERIOD, STYLES.empty) + (reason ? EMPTY.gap + w.heightOf(reason, STYLES.muted) : 0) + 2 * EMPTY.gap;

/** An empty chart's box: a dashed frame with "No data in this period" and the reason centred in it. */
function drawEmpty(w: PdfWriter, height: number, reason: string | null): void {
  const doc = w.doc;
  const x0 = PDF_PAGE.margin;
  const y0 = w.y;
  doc.save().rect(x0, y0, PDF_CONTENT_WIDTH, height).lineWidth(0.6).dash(3, { space: 2 }).strokeColor(PDF_COLOURS.rule).stroke().undash().restore();
  const text = emptyBoxText(w, reason) - 2 * EMPTY.gap;
  let y = y0 + (height - text) / 2;
  w.textAt(NO_DATA_IN_PERIOD, STYLES.empty, x0, y, { width: PDF_CONTENT_WIDTH, align: "center" });
  y += w.heightOf(NO_DATA_IN_PERIOD, STYLES.empty) + EMPTY.gap;
  if (reason) w.textAt(reason, STYLES.muted, x0, y, { width: PDF_CONTENT_WIDTH, align: "center" });
  w.y = y0 + height;
}

/** The axes at the plot's top left (x0, y0): the value rules with their labels, the day ticks with theirs. */
function drawAxes(w: PdfWriter, f: Frame, x0: number, y0: number): void {
  const doc = w.doc;
  const axes = axisMarks(f);
  const tick = { size: PLOT.tickFont, colour: PDF_COLOURS.muted };
  for (const r of axes.rules) {
    doc
      .moveTo(x0 + PLOT.pad.left, y0 + r.y)
      .lineTo(x0 + f.width - PLOT.pad.right, y0 + r.y)
      .lineWidth(0.4)
      .strokeColor(PDF_COLOURS.rule)
      .stroke();
    const label = pdfText(r.label);
    w.use(tick).text(label, x0 + PLOT.pad.left - 3 - doc.widthOfString(label), y0 + r.y + 2.2, { baseline: "alphabetic", lineBreak: false });
  }
  for (const t of axes.days) {
    doc
      .moveTo(x0 + t.x, y0 + axes.bottom)
      .lineTo(x0 + t.x, y0 + axes.bottom + 2.5)
      .lineWidth(0.4)
      .strokeColor(PDF_COLOURS.muted)
      .stroke();
    const label = pdfText(t.label);
    w.use(tick).text(label, x0 + anchored(t.x, doc.widthOfString(label), t.anchor), y0 + axes.bottom + 9.5, { baseline: "alphabetic", lineBreak: false });
  }
}

function drawLegend(w: PdfWriter, items: readonly LegendItem[], y: number): void {
  const doc = w.doc;
  const lineHeight = w.heightOf("Daily value", STYLES.legend);
  let x = PDF_PAGE.margin;
  for (const it of items) {
    const h = it.area ? 6 : it.thin ? 1 : 2.5;
    doc
      .rect(x, y + lineHeight / 2 - h / 2, LEGEND.swatch, h)
      .fillColor(it.colour)
      .fill();
    x += LEGEND.swatch + LEGEND.swatchGap;
    const label = pdfText(it.label);
    w.use(STYLES.legend).text(label, x, y, { lineBreak: false });
    x += doc.widthOfString(label) + LEGEND.itemGap;
  }
}

/** One chart of the report over the days from `from` (one slot a day), kept whole on one page; an empty one says so, with `emptyReason` when known. */
export function drawChart(w: PdfWriter, chart: ReportChart, from: string, emptyReason: string | null = null): void {
  const height = chartHeight(w, chart, emptyReason);
  w.ensure(height);
  if (w.dry) {
    w.y += height;
    return;
  }
  if (isEmptyChart(chart)) {
    w.text(chartTitle(chart), STYLES.chartTitle);
    drawEmpty(w, Math.max(EMPTY.height, emptyBoxText(w, emptyReason)), emptyReason);
    w.text(chart.caption, STYLES.caption);
    w.y += CHART_BELOW;
    return;
  }
  const { f, marks, legend } = drawingOf(chart, from);
  w.text(chartTitle(chart), STYLES.chartTitle);
  const x0 = PDF_PAGE.margin;
  const y0 = w.y;
  drawAxes(w, f, x0, y0);
  const doc = w.doc;
  doc.save().translate(x0, y0);
  for (const m of marks) {
    if (!m.d) continue;
    doc.addContent(m.d);
    if (m.fill)
      doc
        .fillColor(m.fill)
        .fillOpacity(m.opacity ?? 1)
        .fill();
    else
      doc
        .lineWidth(m.lineWidth ?? 1)
        .lineJoin("round")
        .strokeColor(m.stroke ?? PDF_COLOURS.text)
        .stroke();
  }
  doc.restore();
  w.y = y0 + PLOT.height;
  drawLegend(w, legend, w.y + LEGEND.above);
  w.y += legendHeight(w);
  w.text(chart.caption, STYLES.caption);
  w.y += CHART_BELOW;
}
