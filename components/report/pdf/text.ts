// Text as the PDF's built-in Helvetica can set it. The standard fonts of PDF (no font file is
// embedded or downloaded) encode WinAnsi (Windows-1252): Latin-1 and a few typographic signs.
// Anything else (the minus sign Ringside's formatting uses, ≤, arrows, subscripts, other
// scripts in a person's notes) would come out as stray glyphs, so each string the document
// shows passes through pdfText: a known sign becomes its plain equivalent, an accented letter
// outside the set loses its accent, and what is left becomes "?".

/** The characters of Windows-1252 above Latin-1's control range that the standard fonts can set. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Signs Ringside writes that Windows-1252 lacks, and what stands for them. */
const PLAIN: Readonly<Record<string, string>> = {
  "\u2212": "-", // minus sign
  "\u2264": "<=",
  "\u2265": ">=",
  "\u2192": "->",
  "\u2190": "<-",
  "\u2248": "~",
  "\u2009": " ", // thin space
  "\u202f": " ", // narrow no-break space
  "\u2011": "-", // non-breaking hyphen
  "\u2010": "-",
  "\u2022": "•",
  "\u2080": "0",
  "\u2081": "1",
  "\u2082": "2",
  "\u2083": "3",
  "\u0141": "L", // Ł and ł have no decomposition
  "\u0142": "l",
};

const settable = (ch: string): boolean => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || c === 0x0a || WIN_ANSI_EXTRA.has(ch);
};

/** `s` as Helvetica can set it (see above). */
export function pdfText(s: string): string {
  let out = "";
  for (const ch of s) {
    if (settable(ch)) out += ch;
    else if (PLAIN[ch] !== undefined) out += PLAIN[ch];
    else if (ch === "\t" || ch === "\r") out += " ";
    else {
      const bare = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += bare && [...bare].every(settable) ? bare : "?";
    }
  }
  return out;
}
