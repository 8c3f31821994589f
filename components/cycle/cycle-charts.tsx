"use client";
import { Bar, BarChart, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CycleResponse } from "@/lib/api/contract-cycle";
import { formatDay } from "@/lib/days";
import { getMetric } from "@/lib/metrics/catalog";
import { displayScale, formatTick, formatValue, type Units } from "@/lib/metrics/format";
import { niceTicks } from "@/components/charts/scale";
import { TOOLTIP_STYLE } from "@/components/charts/tooltip-style";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";
import { ChartFigure, chartFocusClass, CursorHint, LiveReadout, useChartCursor } from "@/components/charts/chart-a11y";
import { PHASE_FILL, PHASE_LABEL, PHASE_SWATCH, phaseRuns } from "@/components/cycle/phase";

const TEMPERATURE = getMetric("readiness.temperature_deviation");
const OVULATION_COLOR = "var(--chart-text)";

type Row = {
  i: number;
  day: string;
  raw: number | null;
  value: number | null;
  phase: CycleResponse["days"][number]["phase"];
  cycleDay: number | null;
  ovulation: boolean;
};

/** The period's days joined: the night's temperature deviation (in the person's units), the phase, the cycle day, ovulation. */
function rowsOf(cycle: CycleResponse, units: Units): Row[] {
  const scale = displayScale(TEMPERATURE, units);
  const temp = new Map(cycle.temperature.map((t) => [t.day, t.value]));
  return cycle.days.map((d, i) => {
    const v = temp.get(d.day) ?? null;
    return { i, day: d.day, raw: v, value: v === null ? null : v * scale.factor + scale.offset, phase: d.phase, cycleDay: d.cycle_day, ovulation: d.ovulation };
  });
}

/**
 * The nights' temperature deviation over the period, each phase's days shaded (menstrual, luteal)
 * and each detected ovulation marked with a dashed line: the biphasic curve the detection reads.
 * Focus it and read the days with the arrow keys; its table lists every day.
 */
export function CycleTemperatureChart({ cycle, units }: { cycle: CycleResponse; units: Units }) {
  const rows = rowsOf(cycle, units);
  const scale = displayScale(TEMPERATURE, units);
  const withValue = rows.filter((r) => r.value !== null);
  const ref = useRechartsReady<HTMLDivElement>(withValue.length > 0);
  const { cursor, hintId, focusProps } = useChartCursor(rows.length);
  const label = `Temperature deviation by night, ${formatDay(cycle.from, { withYear: true })} to ${formatDay(cycle.to, { withYear: true })}`;
  if (!withValue.length) return <p className="text-sm text-slate-600 dark:text-slate-300">No nights with a temperature in this period.</p>;
  const values = withValue.map((r) => r.value!);
  const axis = niceTicks(Math.min(...values), Math.max(...values), 4);
  const runs = phaseRuns(rows.map((r) => r.phase));
  const at = cursor !== null ? rows[cursor] : undefined;
  const temp = (r: Row) => (r.raw === null ? "no night" : formatValue(TEMPERATURE, r.raw, units));
  const dayText = (r: Row) =>
    `${formatDay(r.day, { withYear: true })}: ${temp(r)}, ${PHASE_LABEL[r.phase].toLowerCase()} phase` +
    `${r.cycleDay !== null ? `, cycle day ${r.cycleDay}` : ""}${r.ovulation ? ", ovulation detected" : ""}`;
  const ovulations = rows.filter((r) => r.ovulation);
  const tickEvery = Math.max(1, Math.ceil(rows.length / 8));
  return (
    <ChartFigure
      summary={
        `${withValue.length} nights with a temperature; ${ovulations.length} ovulation${ovulations.length === 1 ? "" : "s"} detected` +
        `${ovulations.length ? ` (${ovulations.map((r) => formatDay(r.day)).join(", ")})` : ""}. Shaded: period days and luteal days.`
      }
      table={{
        caption: label,
        columns: [
          { label: "Day" },
          { label: `Temperature deviation (${scale.unit})`, numeric: true },
          { label: "Cycle day", numeric: true },
          { label: "Phase" },
        ],
        rows: () =>
          rows
            .map((r) => ({
              key: r.day,
              cells: [
                formatDay(r.day, { withYear: true }),
                r.value === null ? "—" : temp(r),
                r.cycleDay ?? "—",
                `${PHASE_LABEL[r.phase]}${r.ovulation ? ", ovulation" : ""}`,
              ],
            }))
            .reverse(),
      }}
    >
      <div ref={ref} {...focusProps} role="group" aria-label={label} data-testid="cycle-temperature-chart" className={`h-[240px] w-full ${chartFocusClass}`}>
        <CursorHint id={hintId} />
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            {runs.map((r) => (
              <ReferenceArea
                key={`${r.phase}-${r.start}`}
                x1={r.start - 0.5}
                x2={r.end + 0.5}
                fill={PHASE_FILL[r.phase]!}
                fillOpacity={1}
                ifOverflow="hidden"
              />
            ))}
            <XAxis
              dataKey="i"
              type="number"
              domain={[-0.5, rows.length - 0.5]}
              ticks={rows.filter((r) => r.i % tickEvery === 0).map((r) => r.i)}
              tickFormatter={(i: number) => (rows[i] ? formatDay(rows[i].day, { withWeekday: false }) : "")}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
            />
            <YAxis
              domain={axis.domain}
              ticks={axis.ticks}
              tickFormatter={(v: number) => formatTick(scale, v)}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
              width={48}
            />
            <Tooltip
              {...TOOLTIP_STYLE}
              labelFormatter={(i) => (rows[Number(i)] ? formatDay(rows[Number(i)]!.day, { withYear: true }) : "")}
              formatter={(_v, _n, item) => {
                const r = (item as { payload?: Row }).payload;
                return r ? [`${temp(r)} · ${PHASE_LABEL[r.phase]}${r.cycleDay !== null ? `, day ${r.cycleDay}` : ""}`, "Temperature"] : ["", ""];
              }}
            />
            {ovulations.map((r) => (
              <ReferenceLine key={r.day} x={r.i} stroke={OVULATION_COLOR} strokeDasharray="4 3" data-testid="cycle-ovulation-mark" />
            ))}
            <Line dataKey="value" name="temperature" stroke={PHASE_SWATCH.menstrual} dot={false} strokeWidth={1.75} isAnimationActive={false} connectNulls />
            {at ? <ReferenceLine x={at.i} stroke="var(--chart-cursor)" strokeDasharray="3 3" /> : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <LiveReadout text={at ? dayText(at) : ""} visible />
    </ChartFigure>
  );
}

/** Each known cycle's length in days, oldest first: how regular the cycles are. */
export function CycleLengthsChart({ cycles }: { cycles: CycleResponse["cycles"] }) {
  const rows = cycles.filter((c) => c.length !== null).map((c) => ({ start: c.start, length: c.length! }));
  const ref = useRechartsReady<HTMLDivElement>(rows.length > 0);
  const { cursor, hintId, focusProps } = useChartCursor(rows.length, 3);
  if (!rows.length) return <p className="text-sm text-slate-600 dark:text-slate-300">No complete cycle in this period yet.</p>;
  const lengths = rows.map((r) => r.length);
  const axis = niceTicks(Math.min(20, ...lengths), Math.max(...lengths), 4);
  const mean = lengths.reduce((s, x) => s + x, 0) / lengths.length;
  const at = cursor !== null ? rows[cursor] : undefined;
  const label = "Cycle lengths, by the day each cycle started";
  const summary = `${rows.length} complete cycle${rows.length === 1 ? "" : "s"}: ${Math.min(...lengths)} to ${Math.max(...lengths)} days`;
  return (
    <ChartFigure
      summary={`${summary}, mean ${mean.toFixed(1)} days.`}
      table={{
        caption: label,
        columns: [{ label: "Cycle started" }, { label: "Length (days)", numeric: true }],
        rows: () => rows.map((r) => ({ key: r.start, cells: [formatDay(r.start, { withYear: true }), r.length] })).reverse(),
      }}
    >
      <div ref={ref} {...focusProps} role="group" aria-label={label} data-testid="cycle-lengths-chart" className={`h-[180px] w-full ${chartFocusClass}`}>
        <CursorHint id={hintId} unit="cycle" />
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="start"
              tickFormatter={(d: string) => formatDay(d, { withWeekday: false })}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
            />
            <YAxis domain={axis.domain} ticks={axis.ticks} tick={{ fill: "var(--chart-text)", fontSize: 11 }} stroke="var(--chart-grid)" width={40} />
            <Tooltip
              {...TOOLTIP_STYLE}
              labelFormatter={(d) => `Started ${formatDay(String(d), { withYear: true })}`}
              formatter={(v) => [`${v} days`, "Length"]}
            />
            <ReferenceLine y={mean} stroke="var(--chart-text)" strokeDasharray="4 3" />
            <Bar dataKey="length" fill={PHASE_SWATCH.follicular} isAnimationActive={false} />
            {at ? <ReferenceLine x={at.start} stroke="var(--chart-cursor)" strokeDasharray="3 3" /> : null}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <LiveReadout text={at ? `Cycle started ${formatDay(at.start, { withYear: true })}: ${at.length} days` : ""} visible />
    </ChartFigure>
  );
}
