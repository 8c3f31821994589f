// The PDF's look: A4, the built-in Helvetica (components/report/pdf/text.ts), dark text on white,
// one accent for the 7-day mean, a pale band for the normal range. Colours print in grey as well:
// the daily values are a thin grey line, the mean a thick dark one, the range a light area.
import { StyleSheet } from "@react-pdf/renderer";

export const PDF_COLOURS = {
  text: "#1f2328",
  muted: "#57606a",
  rule: "#d0d7de",
  daily: "#8c959f",
  mean: "#0b5cad",
  band: "#9ec5ee",
  watch: "#9a6700",
  likely: "#cf222e",
  stages: { deep: "#0b3d91", rem: "#4f8fdc", light: "#a9c8ef", awake: "#e6a23c" },
  bedtime: "#6639ba",
  wake: "#1a7f37",
} as const;

/** A4 in points, and the page's margins: the charts' width follows from them. */
export const PDF_PAGE = { width: 595.28, height: 841.89, margin: 40 } as const;
export const PDF_CONTENT_WIDTH = PDF_PAGE.width - 2 * PDF_PAGE.margin;

export const styles = StyleSheet.create({
  page: {
    paddingTop: PDF_PAGE.margin,
    paddingBottom: PDF_PAGE.margin + 10,
    paddingHorizontal: PDF_PAGE.margin,
    fontFamily: "Helvetica",
    fontSize: 9,
    // no lineHeight here: inherited by the footer, it hides the page number (a render-prop text)
    color: PDF_COLOURS.text,
  },
  title: { fontSize: 18, fontFamily: "Helvetica-Bold", marginBottom: 4 },
  subtitle: { fontSize: 10, color: PDF_COLOURS.muted, marginBottom: 2 },
  h2: { fontSize: 13, fontFamily: "Helvetica-Bold", marginTop: 10, marginBottom: 4 },
  h3: { fontSize: 10.5, fontFamily: "Helvetica-Bold", marginTop: 8, marginBottom: 3 },
  ref: { fontSize: 7.5, color: PDF_COLOURS.muted, marginBottom: 4 },
  link: { color: PDF_COLOURS.mean, textDecoration: "none" },
  paragraph: { marginBottom: 4, lineHeight: 1.35 },
  muted: { color: PDF_COLOURS.muted },
  bold: { fontFamily: "Helvetica-Bold" },
  table: { borderTopWidth: 0.5, borderTopColor: PDF_COLOURS.rule, marginBottom: 6 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: PDF_COLOURS.rule, paddingVertical: 2.5 },
  headRow: { flexDirection: "row", borderBottomWidth: 0.8, borderBottomColor: PDF_COLOURS.muted, paddingVertical: 2.5 },
  cell: { paddingRight: 4 },
  headCell: { paddingRight: 4, fontFamily: "Helvetica-Bold", fontSize: 8 },
  chart: { marginBottom: 10 },
  chartTitle: { fontSize: 9.5, fontFamily: "Helvetica-Bold", marginBottom: 2 },
  caption: { fontSize: 8, color: PDF_COLOURS.muted, marginTop: 2 },
  legend: { flexDirection: "row", flexWrap: "wrap", marginTop: 2 },
  legendItem: { flexDirection: "row", alignItems: "center", marginRight: 10, fontSize: 7.5, color: PDF_COLOURS.muted },
  swatch: { width: 10, height: 5, marginRight: 3 },
  footer: {
    position: "absolute",
    bottom: 22,
    left: PDF_PAGE.margin,
    right: PDF_PAGE.margin,
    flexDirection: "row",
    justifyContent: "space-between",
    fontSize: 7,
    color: PDF_COLOURS.muted,
  },
  keyValue: { flexDirection: "row", marginBottom: 1.5 },
  key: { width: 150, color: PDF_COLOURS.muted },
});
