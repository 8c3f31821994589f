// How the PDF library loads, on whichever thread renders (./render.tsx, ./render-worker.tsx).
// Two of @react-pdf/renderer's imports are never used by the report, and together they cost
// about 13 MB of V8 heap and 14 MB of RSS when imported (docs/performance.md#report-pdf):
// - the English hyphenation patterns (@react-pdf/hyphenate/en-us), built into a trie at import:
//   the report never hyphenates (its hyphenation callback below keeps every word whole);
// - fontkit, the font file parser: the report sets its text in the PDF's built-in Helvetica,
//   which pdfkit measures from its own metrics, and embeds no font file.
// This thread's module loader answers those two imports with modules of the same exports (a
// request for an embedded font then fails with a clear message). Node.js without
// module.registerHooks (before 22.15 and 23.5) loads them as before.
import module from "node:module";

const STUBS: Record<string, { format: "module" | "commonjs"; source: string }> = {
  "@react-pdf/hyphenate/en-us": {
    format: "module",
    source: "export const patterns = []; export const syllables = (word) => [word]; export const hyphenate = (word) => word;",
  },
  fontkit: {
    format: "commonjs",
    source: "const none = () => { throw new Error('the report embeds no font file'); }; exports.create = none; exports.open = none;",
  },
};
const PREFIX = "ringside-lean:";

let hooked = false;
function leanLibrary(): void {
  if (hooked || typeof module.registerHooks !== "function") return;
  hooked = true;
  module.registerHooks({
    resolve: (specifier, context, next) =>
      Object.hasOwn(STUBS, specifier) ? { url: `${PREFIX}${specifier}`, format: STUBS[specifier]!.format, shortCircuit: true } : next(specifier, context),
    load: (url, context, next) => (url.startsWith(PREFIX) ? { ...STUBS[url.slice(PREFIX.length)]!, shortCircuit: true } : next(url, context)),
  });
}

/**
 * The renderer and the report's document, loaded once per thread after the stubs are in place
 * (imported, not statically: a bundler hoists a static import above any code).
 */
export async function loadPdfRenderer() {
  leanLibrary();
  const [{ Font, renderToBuffer }, { ReportDocument }] = await Promise.all([import("@react-pdf/renderer"), import("./report-document")]);
  // Words are never hyphenated: a figure or a name stays whole, for the eye and for text extraction.
  Font.registerHyphenationCallback((word) => [word]);
  return { renderToBuffer, ReportDocument };
}
