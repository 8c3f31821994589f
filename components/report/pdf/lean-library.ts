// How pdfkit loads for the report (./render.ts). pdfkit imports fontkit, the font file parser,
// and png-js, the PNG decoder, when it loads, though the report uses neither: its text is set in
// the PDF's built-in Helvetica, which pdfkit measures from its own metrics, and it holds no
// image. This process's module loader answers those two imports with modules of the same
// exports (an embedded font or an image then fails with a clear message); measured in
// docs/performance.md#report-pdf. Node.js without module.registerHooks (before 22.15 and 23.5)
// loads them as before.
import module from "node:module";
import type { PdfDocumentClass } from "./document";

const unused = (what: string) => `const none = () => { throw new Error('the report ${what}'); };`;
const STUBS: Record<string, string> = {
  fontkit: `${unused("embeds no font file")} exports.create = none; exports.open = none;`,
  "png-js": `${unused("holds no image")} module.exports = none;`,
};
const PREFIX = "ringside-lean:";

let hooked = false;
function leanLibrary(): void {
  if (hooked || typeof module.registerHooks !== "function") return;
  hooked = true;
  module.registerHooks({
    resolve: (specifier, context, next) =>
      Object.hasOwn(STUBS, specifier) ? { url: `${PREFIX}${specifier}`, format: "commonjs", shortCircuit: true } : next(specifier, context),
    load: (url, context, next) =>
      url.startsWith(PREFIX) ? { format: "commonjs", source: STUBS[url.slice(PREFIX.length)]!, shortCircuit: true } : next(url, context),
  });
}

/**
 * pdfkit's document class, loaded once after the stubs are in place (imported, not statically:
 * a bundler hoists a static import above any code).
 */
export async function loadPdfKit(): Promise<PdfDocumentClass> {
  leanLibrary();
  const { default: PDFDocument } = await import("pdfkit");
  return PDFDocument;
}
