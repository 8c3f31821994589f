// The report's page layout on a pdfkit document: a cursor that goes down the page, and the
// blocks the report is made of (a line of text, a key and its value, a table, a link to the
// docs). Every block first checks the height left on the page and starts a new page when it does
// not fit, so nothing is cut across a page; a table that does not fit goes on over the next
// page with its heading row again. pdfkit itself never breaks a page here: its bottom margin is
// the page's edge (./document.ts), the report's own bottom (PDF_PAGE.bottom) is kept by `fits`.
//
// A writer runs twice over the same document (./document.ts): a dry run that only measures
// (it counts the pages and draws nothing), then the real one, which writes each page's footer
// ("Page n of m") as it leaves the page. So pdfkit never has to keep the pages open until the
// end (its bufferPages), and each page is written out and let go as soon as it is full.
import { PDF_COLOURS, PDF_CONTENT_WIDTH, PDF_FONT, PDF_PAGE, STYLES, TABLE, KEY_WIDTH, type TextStyle } from "./styles";
import { pdfText } from "./text";

/** A table's column: its heading, its share of the content width, and how its cells align. */
export type Column = { head: string; width: number; align?: "left" | "right" };

/** Where a run of text goes and how: left edge and width (the content's by default), alignment, a link. */
type Place = { x?: number; width?: number; align?: "left" | "right" | "center"; link?: string; keepWith?: number };

/** A writer's run: a dry one measures only; a real one draws, with every page's footer. */
type Run = { dry: true } | { dry: false; pages: number; footer: string };

export class PdfWriter {
  /** The cursor: where the next block starts, in points from the page's top. */
  y: number = PDF_PAGE.margin;
  /** The page the cursor is on, from 1. */
  page = 1;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly run: Run,
  ) {}

  /** Whether this run only measures (nothing is drawn). */
  get dry(): boolean {
    return this.run.dry;
  }

  /** The lowest a block may reach on a page. */
  static readonly BOTTOM = PDF_PAGE.height - PDF_PAGE.bottom;

  /** Whether `height` more points fit on this page. */
  fits(height: number): boolean {
    return this.y + height <= PdfWriter.BOTTOM;
  }

  newPage(): void {
    if (!this.run.dry) {
      this.footer();
      this.doc.addPage();
    }
    this.page++;
    this.y = PDF_PAGE.margin;
  }

  /** The last page's footer (a real run's end). */
  finish(): void {
    if (!this.run.dry) this.footer();
  }

  /** The page's footer: the title with "not a diagnosis", and "Page n of m". */
  private footer(): void {
    if (this.run.dry) return;
    const y = PDF_PAGE.height - PDF_PAGE.footer - STYLES.footer.size;
    const half = PDF_CONTENT_WIDTH / 2;
    this.textAt(`${this.run.footer} · not a diagnosis`, STYLES.footer, PDF_PAGE.margin, y, { width: half });
    this.textAt(`Page ${this.page} of ${this.run.pages}`, STYLES.footer, PDF_PAGE.margin + half, y, { width: half, align: "right" });
  }

  /** A new page unless `height` fits on this one (a block taller than a page starts on a page of its own). */
  ensure(height: number): void {
    if (!this.fits(height) && this.y > PDF_PAGE.margin) this.newPage();
  }

  /** Sets the font, size and colour of `style`. */
  use(style: TextStyle): PDFKit.PDFDocument {
    return this.doc
      .font(style.bold ? PDF_FONT.bold : PDF_FONT.regular)
      .fontSize(style.size)
      .fillColor(style.colour ?? PDF_COLOURS.text);
  }

  /**
   * The height `text` takes in `style` over `width` points, its spaces above and below excluded.
   * Only the font and size are set: a colour is an operator written into the page at once, which
   * measuring (and the whole dry run) must not leave behind.
   */
  heightOf(text: string, style: TextStyle, width = PDF_CONTENT_WIDTH): number {
    this.doc.font(style.bold ? PDF_FONT.bold : PDF_FONT.regular).fontSize(style.size);
    return this.doc.heightOfString(pdfText(text), { width, lineGap: style.lineGap ?? 0 });
  }

  /** The height a line of text takes as a block, its spaces above and below included. */
  blockHeight(text: string, style: TextStyle, width = PDF_CONTENT_WIDTH): number {
    return (style.above ?? 0) + this.heightOf(text, style, width) + (style.below ?? 0);
  }

  /** Draws `text` at (x, y) without moving the cursor. */
  textAt(text: string, style: TextStyle, x: number, y: number, place: Omit<Place, "x" | "keepWith"> = {}): void {
    if (this.run.dry) return;
    this.use(style).text(pdfText(text), x, y, {
      width: place.width,
      align: place.align,
      lineGap: style.lineGap ?? 0,
      ...(place.link ? { link: place.link, underline: false } : {}),
    });
  }

  /** A block of text below the cursor (on a new page when it, and `keepWith` points after it, do not fit). */
  text(text: string, style: TextStyle = STYLES.body, place: Place = {}): void {
    const width = place.width ?? PDF_CONTENT_WIDTH;
    const height = this.heightOf(text, style, width);
    this.ensure((style.above ?? 0) + height + (style.below ?? 0) + (place.keepWith ?? 0));
    this.y += style.above ?? 0;
    this.textAt(text, style, place.x ?? PDF_PAGE.margin, this.y, { ...place, width });
    this.y += height + (style.below ?? 0);
  }

  /** A horizontal rule across the content at the cursor. */
  rule(width: number, colour: string): void {
    if (this.run.dry) return;
    this.doc
      .moveTo(PDF_PAGE.margin, this.y)
      .lineTo(PDF_PAGE.margin + PDF_CONTENT_WIDTH, this.y)
      .lineWidth(width)
      .strokeColor(colour)
      .stroke();
  }

  /** The height of a key and its value on one row. */
  keyValueHeight(key: string, value: string): number {
    return Math.max(this.heightOf(key, STYLES.muted, KEY_WIDTH - TABLE.cellGap), this.heightOf(value, STYLES.body, PDF_CONTENT_WIDTH - KEY_WIDTH)) + 1.5;
  }

  /** A key (muted, in its column) and its value on one row. */
  keyValue(key: string, value: string): void {
    const height = this.keyValueHeight(key, value);
    this.ensure(height);
    this.textAt(key, STYLES.muted, PDF_PAGE.margin, this.y, { width: KEY_WIDTH - TABLE.cellGap });
    this.textAt(value, STYLES.body, PDF_PAGE.margin + KEY_WIDTH, this.y, { width: PDF_CONTENT_WIDTH - KEY_WIDTH });
    this.y += height;
  }

  private rowHeight(cells: readonly string[], columns: readonly Column[], style: TextStyle): number {
    const heights = cells.map((c, j) => this.heightOf(c, style, columns[j]!.width * PDF_CONTENT_WIDTH - TABLE.cellGap));
    return Math.max(...heights) + 2 * TABLE.padding;
  }

  private row(cells: readonly string[], columns: readonly Column[], style: TextStyle, height: number): void {
    let x = PDF_PAGE.margin;
    cells.forEach((c, j) => {
      const width = columns[j]!.width * PDF_CONTENT_WIDTH;
      this.textAt(c, style, x, this.y + TABLE.padding, { width: width - TABLE.cellGap, align: columns[j]!.align ?? "left" });
      x += width;
    });
    this.y += height;
  }

  /** `text` cut into pieces of at most `maxHeight` each over `width`: after a list's commas, else at spaces. */
  private pieces(text: string, width: number, maxHeight: number): string[] {
    const out: string[] = [];
    let piece = "";
    const items = text.split(/(?<=,) /);
    for (const word of items.length > 1 ? items : text.split(" ")) {
      const longer = piece ? `${piece} ${word}` : word;
      if (piece && this.heightOf(longer, STYLES.cell, width) > maxHeight) {
        out.push(piece);
        piece = word;
      } else piece = longer;
    }
    return [...out, piece];
  }

  /** A row taller than a page (a tag on every day of a year) as several rows, each cell's text going on in the next. */
  private fitRow(cells: readonly string[], columns: readonly Column[], maxHeight: number): Array<readonly string[]> {
    if (this.rowHeight(cells, columns, STYLES.cell) <= maxHeight) return [cells];
    const split = cells.map((c, j) => this.pieces(c, columns[j]!.width * PDF_CONTENT_WIDTH - TABLE.cellGap, maxHeight - 2 * TABLE.padding));
    return Array.from({ length: Math.max(...split.map((p) => p.length)) }, (_, k) => split.map((p) => p[k] ?? ""));
  }

  /** A table: a heading row (again at the top of each page it goes on to), then one row per entry, each kept whole on a page. */
  table(columns: readonly Column[], entries: ReadonlyArray<readonly string[]>): void {
    const heads = columns.map((c) => c.head);
    const headHeight = this.rowHeight(heads, columns, STYLES.headCell);
    // a row fits below the heading row on an empty page
    const rows = entries.flatMap((r) => this.fitRow(r, columns, PdfWriter.BOTTOM - PDF_PAGE.margin - headHeight - 2 * TABLE.rule));
    const head = () => {
      this.rule(TABLE.rule, PDF_COLOURS.rule);
      this.row(heads, columns, STYLES.headCell, headHeight);
      this.rule(TABLE.headRule, PDF_COLOURS.muted);
    };
    this.ensure(headHeight + (rows[0] ? this.rowHeight(rows[0], columns, STYLES.cell) : 0));
    head();
    for (const r of rows) {
      const height = this.rowHeight(r, columns, STYLES.cell);
      if (!this.fits(height)) {
        this.newPage();
        head();
      }
      this.row(r, columns, STYLES.cell, height);
      this.rule(TABLE.rule, PDF_COLOURS.rule);
    }
    this.y += TABLE.below;
  }
}
