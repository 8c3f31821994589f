/**
 * The look of every Recharts tooltip. Its lines are written in the tooltip's own colour: Recharts
 * colours them with their series' colour by default, and a series colour on the tooltip's
 * background can fall under WCAG's 4.5:1 (the sleep indigo on white: 4.46).
 */
export const TOOLTIP_STYLE = {
  isAnimationActive: false,
  contentStyle: { background: "var(--tooltip-bg)", color: "var(--tooltip-text)", borderRadius: 8, border: "1px solid var(--chart-grid)", fontSize: 12 },
  labelStyle: { color: "var(--tooltip-text)", fontWeight: 600 },
  itemStyle: { color: "var(--tooltip-text)" },
} as const;
