// The PDF's look: A4, the built-in Helvetica (./text.ts), dark text on white, one accent for the
// 7-day mean, a pale band for the normal range. Colours print in grey as well: the daily values
// are a thin grey line, the mean a thick dark one, the range a light area. Sizes in points.

export const PDF_COLOURS = {
  text: "#1f2328",
  muted: "#57606a",
  rule: "#d0d7de",
  daily: "#8c959f",
  mean: "#0b5cad",
  band: "#9ec5ee",
  stages: { deep: "#0b3d91", rem: "#4f8fdc", light: "#a9c8ef", awake: "#e6a23c" },
  bedtime: "#6639ba",
  wake: "#1a7f37",
} as const;

/** A4 in points, and the page's margins (the bottom one leaves room for the footer): the charts' width follows from them. */
export const PDF_PAGE = { width: 595.28, height: 841.89, margin: 40, bottom: 50, footer: 22 } as const;
export const PDF_CONTENT_WIDTH = PDF_PAGE.width - 2 * PDF_PAGE.margin;

export const PDF_FONT = { regular: "Helvetica", bold: "Helvetica-Bold" } as const;

/** A run of text's look: font size, bold or not, colour, and the space above and below it. */
export type TextStyle = { size: number; bold?: boolean; colour?: string; above?: number; below?: number; lineGap?: number };

export const STYLES = {
  body: { size: 9 },
  title: { size: 18, bold: true, below: 4 },
  subtitle: { size: 10, colour: PDF_COLOURS.muted, below: 2 },
  h2: { size: 13, bold: true, above: 10, below: 4 },
  h3: { size: 10.5, bold: true, above: 8, below: 3 },
  ref: { size: 7.5, colour: PDF_COLOURS.muted, below: 4 },
  link: { size: 7.5, colour: PDF_COLOURS.mean, below: 4 },
  paragraph: { size: 9, below: 4, lineGap: 3 },
  muted: { size: 9, colour: PDF_COLOURS.muted },
  headCell: { size: 8, bold: true },
  cell: { size: 9, lineGap: 1 },
  chartTitle: { size: 9.5, bold: true, below: 2 },
  caption: { size: 8, colour: PDF_COLOURS.muted, above: 2 },
  legend: { size: 7.5, colour: PDF_COLOURS.muted },
  footer: { size: 7, colour: PDF_COLOURS.muted },
  notice: { size: 10, bold: true, above: 4, below: 2 },
  empty: { size: 9, bold: true },
} as const satisfies Record<string, TextStyle>;

/** A table's rows: the padding above and below each row's text, and the rules' widths. */
export const TABLE = { padding: 3, cellGap: 4, rule: 0.5, headRule: 0.8, below: 6 } as const;
/** A key and its value: the key's column. */
export const KEY_WIDTH = 150;
