"use client";
// What every chart gives people who cannot see it, in one place: the keyboard cursor (arrow
// keys, Home, End, Escape), the polite live region that reads the value under it, the
// "Show as table" disclosure with a real <table>, the figure that ties a chart to its text
// summary, and SVG fill patterns so that colour is never the only thing telling series apart.
// The table itself is components/charts/chart-table.tsx (its own module: server-drawn charts
// use it without the rest of this one).
import { useId, useState, type KeyboardEvent, type ReactNode } from "react";
import { ChartTable, type ChartTableProps } from "@/components/charts/chart-table";

/**
 * Where the cursor goes for a key: ←/→ one step (Shift: `bigStep`), Home/End the ends, Escape
 * away (null). The first arrow press lands on the last point. `undefined`: not a cursor key.
 */
export function nextCursor(key: string, shift: boolean, cursor: number | null, n: number, bigStep = 7): number | null | undefined {
  if (n <= 0) return undefined;
  const step = shift ? bigStep : 1;
  switch (key) {
    case "ArrowRight":
      return cursor === null ? n - 1 : Math.min(n - 1, cursor + step);
    case "ArrowLeft":
      return cursor === null ? n - 1 : Math.max(0, cursor - step);
    case "Home":
      return 0;
    case "End":
      return n - 1;
    case "Escape":
      return null;
    default:
      return undefined;
  }
}

/** A keydown handler that moves a cursor held elsewhere (the Trends panels share one). */
export function cursorKeyHandler(cursor: number | null, n: number, onCursor: (i: number | null) => void, bigStep?: number) {
  return (e: KeyboardEvent) => {
    const next = nextCursor(e.key, e.shiftKey, cursor, n, bigStep);
    if (next === undefined) return;
    e.preventDefault();
    onCursor(next);
  };
}

/** A chart's own cursor: its index, a setter, and the props that make its box a keyboard stop. */
export function useChartCursor(n: number, bigStep?: number) {
  const [cursor, setCursor] = useState<number | null>(null);
  const at = cursor !== null && cursor < n ? cursor : null;
  const hintId = useId();
  return {
    cursor: at,
    setCursor,
    hintId,
    focusProps: {
      tabIndex: 0,
      "aria-describedby": hintId,
      onKeyDown: cursorKeyHandler(at, n, setCursor, bigStep),
      onBlur: () => setCursor(null),
    },
  };
}

/** Tells what the keys do (pointed to by the chart box's aria-describedby). */
export function CursorHint({ id, unit = "day" }: { id: string; unit?: string }) {
  return (
    <p id={id} className="sr-only">
      Use the left and right arrow keys to read the values {unit} by {unit}, Home and End for the first and last.
    </p>
  );
}

/**
 * Reads the value under the cursor to screen readers, politely (never interrupting). `visible`
 * also shows it (charts whose own tooltip follows only the mouse), on a line kept for it.
 */
export function LiveReadout({ text, visible }: { text: string; visible?: boolean }) {
  return (
    <p
      className={visible ? "min-h-[1.25rem] text-xs font-medium tabular-nums text-slate-700 dark:text-slate-200" : "sr-only"}
      aria-live="polite"
      data-testid="chart-live"
    >
      {text}
    </p>
  );
}

/** Marker shapes that tell a chart's series apart without colour (with the legend's glyphs). */
export const MARKER_SHAPES = ["circle", "square", "triangle", "diamond", "cross", "wye", "star"] as const;
export type MarkerShape = (typeof MARKER_SHAPES)[number];

/** A legend's small drawing of a marker shape, in a colour. */
export function MarkerGlyph({ shape, color }: { shape: MarkerShape; color: string }) {
  const paths: Record<MarkerShape, ReactNode> = {
    circle: <circle cx={5} cy={5} r={4} />,
    square: <rect x={1.5} y={1.5} width={7} height={7} />,
    triangle: <path d="M5 0.8L9.3 8.8H0.7Z" />,
    diamond: <path d="M5 0.5L9.5 5L5 9.5L0.5 5Z" />,
    cross: <path d="M3.5 0.5h3v3h3v3h-3v3h-3v-3h-3v-3h3Z" />,
    wye: <path d="M5 5.5V9.8M5 5.5L1 1.5M5 5.5L9 1.5" stroke={color} strokeWidth={2.4} fill="none" />,
    star: <path d="M5 0.3l1.4 3.1 3.4.3-2.6 2.2.8 3.3L5 7.4 2 9.2l.8-3.3L.2 3.7l3.4-.3Z" />,
  };
  return (
    <svg aria-hidden width={10} height={10} viewBox="0 0 10 10" fill={color} className="shrink-0">
      {paths[shape]}
    </svg>
  );
}

/** Tailwind classes of a focusable chart box: the same visible ring as every other control. */
export const chartFocusClass = "rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/** A chart with its short summary (range, latest, change) under it, and its table. */
export function ChartFigure({
  summary,
  table,
  children,
  className,
  summaryTestId,
  busy,
}: {
  summary: ReactNode;
  table?: ChartTableProps;
  children: ReactNode;
  className?: string;
  summaryTestId?: string;
  /** new data on its way (aria-busy) */
  busy?: boolean;
}) {
  return (
    <figure className={className ?? "m-0"} aria-busy={busy || undefined}>
      {children}
      <figcaption className="mt-1.5 text-xs leading-relaxed text-slate-600 dark:text-slate-400" data-testid={summaryTestId}>
        {summary}
      </figcaption>
      {table ? <ChartTable {...table} /> : null}
    </figure>
  );
}

/**
 * Fill patterns that tell series apart without colour: solid, stripes one way, dots, stripes
 * the other way, cross-hatch, horizontal lines (then again). `patternFill(id, i)` is the fill.
 */
const PATTERNS: ReadonlyArray<(color: string) => ReactNode> = [
  () => null,
  (c) => <path d="M0 6L6 0M-1 1L1 -1M5 7L7 5" stroke={c} strokeWidth={1.6} />,
  (c) => <circle cx={3} cy={3} r={1.3} fill={c} />,
  (c) => <path d="M0 0L6 6M-1 5L1 7M5 -1L7 1" stroke={c} strokeWidth={1.6} />,
  (c) => <path d="M0 3H6M3 0V6" stroke={c} strokeWidth={1.2} />,
  (c) => <path d="M0 1.5H6M0 4.5H6" stroke={c} strokeWidth={1.2} />,
];

export function patternFill(prefix: string, i: number): string {
  return `url(#${prefix}-${i})`;
}

/**
 * SVG <defs> of one pattern per colour (the i-th colour gets the i-th pattern): the colour as
 * background, the pattern drawn over it in `ink`. `prefix` keeps ids unique on the page (useId).
 */
export function PatternDefs({ prefix, colors, ink = "var(--pattern-ink)" }: { prefix: string; colors: readonly string[]; ink?: string }) {
  // its own empty <svg>: url(#id) reaches it from any chart on the page, whatever draws the chart
  return (
    <svg aria-hidden width={0} height={0} className="absolute">
      <defs>
        {colors.map((color, i) => (
          <pattern key={i} id={`${prefix}-${i}`} width={6} height={6} patternUnits="userSpaceOnUse">
            <rect width={6} height={6} fill={color} />
            {PATTERNS[i % PATTERNS.length]!(ink)}
          </pattern>
        ))}
      </defs>
    </svg>
  );
}
