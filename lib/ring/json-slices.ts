import "server-only";

// The exact text of each element of a list response's top-level "data" array. Ringside keeps
// every document's raw JSON; slicing it out of the response (already proven valid by
// JSON.parse) stores the bytes the service sent and saves re-serialising thousands of large
// documents during a backfill. Any surprise → null, and the caller re-serialises instead.

const QUOTE = 34;
/** the characters that open or close a string, an object or an array */
const STRUCTURAL = /["{}[\]]/g;
const BACKSLASH = 92;

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string starting at `i` (text[i] is the opening quote). */
function endOfString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just past the JSON value starting at `i`. */
function endOfValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return endOfString(text, i);
  if (c === 123 /* { */ || c === 91 /* [ */) {
    // Jump from one structural character to the next (a native regex scan, not a loop over
    // every digit of a document's long time series).
    let depth = 0;
    STRUCTURAL.lastIndex = i;
    for (let m = STRUCTURAL.exec(text); m; m = STRUCTURAL.exec(text)) {
      const j = m.index;
      const d = text.charCodeAt(j);
      if (d === QUOTE) {
        const end = endOfString(text, j);
        if (end < 0) return -1;
        STRUCTURAL.lastIndex = end;
        continue;
      }
      if (d === 123 || d === 91) depth++;
      else if (--depth === 0) return j + 1;
    }
    return -1;
  }
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 44 /* , */ || d === 125 || d === 93 || isWs(d)) break;
    j++;
  }
  return j;
}

/** Raw text of each element of the top-level `data` array, or null when it cannot be told. */
export function sliceDataArray(text: string): string[] | null {
  let i = skipWs(text, 0);
  if (text.charCodeAt(i) !== 123) return null;
  i = skipWs(text, i + 1);
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const keyEnd = endOfString(text, i);
    if (keyEnd < 0) return null;
    const key = text.slice(i + 1, keyEnd - 1);
    i = skipWs(text, keyEnd);
    if (text.charCodeAt(i) !== 58 /* : */) return null;
    i = skipWs(text, i + 1);
    if (key === "data") {
      if (text.charCodeAt(i) !== 91) return null;
      const out: string[] = [];
      let j = skipWs(text, i + 1);
      if (text.charCodeAt(j) === 93) return out;
      for (;;) {
        const end = endOfValue(text, j);
        if (end < 0) return null;
        out.push(text.slice(j, end));
        j = skipWs(text, end);
        const d = text.charCodeAt(j);
        if (d === 93) return out;
        if (d !== 44) return null;
        j = skipWs(text, j + 1);
      }
    }
    const end = endOfValue(text, i);
    if (end < 0) return null;
    i = skipWs(text, end);
    if (text.charCodeAt(i) !== 44) return null;
    i = skipWs(text, i + 1);
  }
  return null;
}
