// An incremental reader of "ringside-export-v1" files: fed the bytes as they arrive, it walks the
// JSON with bounded memory and hands over each small piece (a document, a note, a tag, a
// top-level field) parsed on its own. Nothing holds the whole file: a document is at most
// `maxItemBytes`, and every size and count the file could inflate has a limit. Pure: no I/O.
//
// The file's shape: {"format":…, "personal_info":…, "notes":[…], "tags":[…],
//                    "collections":{"<name>":[<document>, …], …}, <other fields>}

export type ExportScanLimits = {
  /** one document, note or tag, as JSON text */
  maxItemBytes: number;
  /** a top-level field other than notes, tags and collections (format, personal_info, …) */
  maxFieldBytes: number;
  /** any string value */
  maxStringBytes: number;
  /** any object key */
  maxKeyBytes: number;
  /** nesting of arrays and objects */
  maxDepth: number;
  maxCollections: number;
  maxItemsPerCollection: number;
  maxDocuments: number;
  /**
   * Collections with their own bounds (the time series: millions of small samples), counted
   * apart from `maxDocuments`.
   */
  collectionLimits?: Readonly<Record<string, { maxItems: number; maxItemBytes: number }>>;
  maxNotes: number;
  maxTags: number;
};

export type ExportScanEvent =
  | { kind: "field"; key: string; value: unknown }
  | { kind: "note"; value: unknown }
  | { kind: "tag"; value: unknown }
  | { kind: "document"; collection: string; value: unknown };

/** Why a file was refused: `too_large` (a size or count limit: 413), `shape` (not an export: 422), `syntax` (not JSON: 400). */
export class ExportScanError extends Error {
  constructor(
    readonly reason: "too_large" | "shape" | "syntax",
    message: string,
  ) {
    super(message);
    this.name = "ExportScanError";
  }
}

type Role =
  /** the top-level object */
  | "root"
  /** the object under "collections" */
  | "collections"
  /** the array of a collection, notes or tags */
  | "items"
  /** inside a captured value */
  | "inner";

type Frame = {
  type: "object" | "array";
  role: Role;
  /** object: "key" | "colon" | "value" | "comma"; array: "value" | "comma" */
  expect: "key" | "colon" | "value" | "comma";
  empty: boolean;
  /** the current key of an object frame at the skeleton (root, collections) */
  key?: string;
  /** items frame: what its items are */
  list?: { kind: "note" | "tag" | "document"; collection?: string };
};

const table = (bytes: number[]) => {
  const t = new Uint8Array(256);
  for (const b of bytes) t[b] = 1;
  return t;
};
const WS = table([0x20, 0x09, 0x0a, 0x0d]);
const PRIMITIVE_END = table([0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x5d, 0x7d]); // ws , ] }
const decoder = new TextDecoder("utf-8", { fatal: false });

export class ExportScanner {
  private readonly stack: Frame[] = [];
  private rootSeen = false;
  private rootDone = false;
  // string state
  private inString = false;
  private escape = false;
  private stringIsKey = false;
  private stringBytes = 0;
  private keyParts: number[] | null = null;
  // primitive state
  private inPrimitive = false;
  // capture state: the bytes of the value being captured, and the stack depth it started at
  private capture: {
    parts: Uint8Array[];
    bytes: number;
    depth: number;
    limit: number;
    start: number;
    to: ExportScanEvent["kind"];
    key?: string;
    collection?: string;
  } | null = null;
  // counts
  private readonly perCollection = new Map<string, number>();
  private documents = 0;
  private notes = 0;
  private tags = 0;
  private collectionKeys = 0;
  private readonly fields = new Set<string>();
  private events: ExportScanEvent[] = [];

  constructor(private readonly limits: ExportScanLimits) {}

  /** The top-level keys seen so far (to check that `format` and `collections` were there). */
  get seenFields(): ReadonlySet<string> {
    return this.fields;
  }

  get counts() {
    return { documents: this.documents, notes: this.notes, tags: this.tags, collections: this.perCollection.size };
  }

  /** Feeds the next bytes; returns the pieces completed by them. */
  write(chunk: Uint8Array): ExportScanEvent[] {
    this.events = [];
    let i = 0;
    const n = chunk.length;
    if (this.capture) this.capture.start = 0;
    while (i < n) {
      const b = chunk[i]!;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === 0x5c) this.escape = true;
        else if (b === 0x22) {
          this.inString = false;
          this.endString(chunk, i);
          i++;
          continue;
        }
        this.stringBytes++;
        if (this.stringIsKey) {
          if (this.stringBytes > this.limits.maxKeyBytes)
            throw new ExportScanError("too_large", `An object key is longer than ${this.limits.maxKeyBytes} bytes.`);
          this.keyParts?.push(b);
        } else if (this.stringBytes > this.limits.maxStringBytes) {
          throw new ExportScanError("too_large", `A string is longer than ${this.limits.maxStringBytes} bytes.`);
        }
        if (b < 0x20) throw new ExportScanError("syntax", "A string contains a control character.");
        i++;
        continue;
      }
      if (this.inPrimitive) {
        if (!PRIMITIVE_END[b]) {
          if (++this.stringBytes > 64) throw new ExportScanError("syntax", "A value is not valid JSON.");
          i++;
          continue;
        }
        this.inPrimitive = false;
        this.endValue(chunk, i); // the delimiter is not part of the value: handled below
      }
      if (WS[b]) {
        i++;
        continue;
      }
      if (this.rootDone) throw new ExportScanError("syntax", "There is more after the end of the JSON document.");
      const top = this.stack.at(-1);
      switch (b) {
        case 0x22: // "
          if (top?.type === "object" && top.expect === "key") {
            this.inString = true;
            this.stringIsKey = true;
            this.stringBytes = 0;
            this.escape = false;
            this.keyParts = top.role === "root" || top.role === "collections" ? [] : null;
          } else {
            this.startValue(chunk, i);
            this.inString = true;
            this.stringIsKey = false;
            this.stringBytes = 0;
            this.escape = false;
          }
          break;
        case 0x7b: // {
        case 0x5b: // [
          this.startValue(chunk, i);
          this.push(b === 0x7b ? "object" : "array");
          break;
        case 0x7d: // }
        case 0x5d: {
          // ]
          const type = b === 0x7d ? "object" : "array";
          if (!top || top.type !== type) throw new ExportScanError("syntax", "The JSON's brackets do not match.");
          if (type === "object" && !(top.expect === "comma" || (top.expect === "key" && top.empty)))
            throw new ExportScanError("syntax", "An object is not valid JSON.");
          if (type === "array" && !(top.expect === "comma" || (top.expect === "value" && top.empty)))
            throw new ExportScanError("syntax", "An array is not valid JSON.");
          this.stack.pop();
          this.endValue(chunk, i + 1);
          break;
        }
        case 0x3a: // :
          if (!top || top.type !== "object" || top.expect !== "colon") throw new ExportScanError("syntax", "Unexpected ':'.");
          top.expect = "value";
          break;
        case 0x2c: // ,
          if (!top || top.expect !== "comma") throw new ExportScanError("syntax", "Unexpected ','.");
          top.expect = top.type === "object" ? "key" : "value";
          break;
        default:
          // a number, true, false or null (checked by JSON.parse of the captured value)
          if (!((b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x74 || b === 0x66 || b === 0x6e))
            throw new ExportScanError("syntax", "The body is not valid JSON.");
          this.startValue(chunk, i);
          this.inPrimitive = true;
          this.stringBytes = 1;
      }
      i++;
    }
    if (this.capture) {
      const part = chunk.subarray(this.capture.start);
      this.addCaptured(part);
    }
    return this.events;
  }

  /** The end of the input: returns the last pieces; throws when the JSON is incomplete. */
  end(): ExportScanEvent[] {
    this.events = [];
    if (this.inPrimitive) {
      this.inPrimitive = false;
      this.endValue(new Uint8Array(0), 0);
    }
    if (!this.rootSeen) throw new ExportScanError("syntax", "The body is empty.");
    if (this.inString || this.stack.length > 0 || !this.rootDone) throw new ExportScanError("syntax", "The JSON ends too early.");
    return this.events;
  }

  private push(type: "object" | "array"): void {
    if (this.stack.length >= this.limits.maxDepth) throw new ExportScanError("too_large", `The JSON is nested deeper than ${this.limits.maxDepth} levels.`);
    const parent = this.stack.at(-1);
    let role: Role = "inner";
    let list: Frame["list"];
    if (!parent) {
      if (type !== "object") throw new ExportScanError("shape", "The file is not a Ringside export (not a JSON object).");
      role = "root";
    } else if (parent.role === "root" && !this.capture) {
      if (parent.key === "collections") {
        if (type !== "object") throw new ExportScanError("shape", "`collections` must be an object of arrays.");
        role = "collections";
      } else {
        // notes / tags (checked in startValue)
        role = "items";
        list = { kind: parent.key === "notes" ? "note" : "tag" };
      }
    } else if (parent.role === "collections" && !this.capture) {
      if (type !== "array") throw new ExportScanError("shape", `The collection \`${parent.key}\` must be an array of documents.`);
      role = "items";
      list = { kind: "document", collection: parent.key };
    }
    this.stack.push({ type, role, expect: type === "object" ? "key" : "value", empty: true, list });
  }

  /** A value begins at chunk[i]: counted, and captured when it is one of the file's pieces. */
  private startValue(chunk: Uint8Array, i: number): void {
    const top = this.stack.at(-1);
    if (!top) {
      if (this.rootSeen) throw new ExportScanError("syntax", "There is more after the end of the JSON document.");
      this.rootSeen = true;
      if (chunk[i] !== 0x7b) throw new ExportScanError("shape", "The file is not a Ringside export (not a JSON object).");
      return;
    }
    if (top.expect !== "value") throw new ExportScanError("syntax", "A value is in the wrong place.");
    top.expect = "comma";
    top.empty = false;
    if (this.capture) return;
    if (top.role === "root") {
      const key = top.key!;
      if (key === "collections") {
        if (chunk[i] !== 0x7b) throw new ExportScanError("shape", "`collections` must be an object of arrays.");
        return;
      }
      if (key === "notes" || key === "tags") {
        if (chunk[i] !== 0x5b) throw new ExportScanError("shape", `\`${key}\` must be an array.`);
        return;
      }
      this.beginCapture(i, { to: "field", key, limit: this.limits.maxFieldBytes });
      return;
    }
    if (top.role === "collections") {
      if (chunk[i] !== 0x5b) throw new ExportScanError("shape", `The collection \`${top.key}\` must be an array of documents.`);
      return;
    }
    if (top.role === "items" && top.list) {
      const { kind, collection } = top.list;
      let itemLimit = this.limits.maxItemBytes;
      if (kind === "document") {
        const n = (this.perCollection.get(collection!) ?? 0) + 1;
        const own = this.ownLimits(collection!);
        if (own) {
          if (n > own.maxItems) throw new ExportScanError("too_large", `The collection \`${collection}\` has more than ${own.maxItems} samples.`);
          itemLimit = own.maxItemBytes;
        } else {
          if (n > this.limits.maxItemsPerCollection)
            throw new ExportScanError("too_large", `The collection \`${collection}\` has more than ${this.limits.maxItemsPerCollection} documents.`);
          if (++this.documents > this.limits.maxDocuments)
            throw new ExportScanError("too_large", `The file has more than ${this.limits.maxDocuments} documents.`);
        }
        this.perCollection.set(collection!, n);
      } else if (kind === "note" && ++this.notes > this.limits.maxNotes) {
        throw new ExportScanError("too_large", `The file has more than ${this.limits.maxNotes} notes.`);
      } else if (kind === "tag" && ++this.tags > this.limits.maxTags) {
        throw new ExportScanError("too_large", `The file has more than ${this.limits.maxTags} tags.`);
      }
      this.beginCapture(i, { to: kind, collection, limit: itemLimit });
    }
  }

  private ownLimits(collection: string): { maxItems: number; maxItemBytes: number } | undefined {
    const limits = this.limits.collectionLimits;
    return limits && Object.prototype.hasOwnProperty.call(limits, collection) ? limits[collection] : undefined;
  }

  private beginCapture(start: number, c: { to: ExportScanEvent["kind"]; key?: string; collection?: string; limit: number }): void {
    this.capture = { parts: [], bytes: 0, depth: this.stack.length, start, ...c };
  }

  private addCaptured(part: Uint8Array): void {
    const c = this.capture!;
    c.bytes += part.length;
    if (c.bytes > c.limit) {
      const what = c.to === "field" ? `The field \`${c.key}\`` : c.to === "document" ? `A document of \`${c.collection}\`` : `A ${c.to}`;
      throw new ExportScanError("too_large", `${what} is larger than ${c.limit} bytes.`);
    }
    // Copied: the caller may reuse its chunk.
    c.parts.push(part.slice());
  }

  /** A value ended just before chunk[end]; if it was the captured piece, parse and hand it over. */
  private endValue(chunk: Uint8Array, end: number): void {
    if (this.stack.length === 0) {
      this.rootDone = true;
      return;
    }
    const c = this.capture;
    if (!c || this.stack.length !== c.depth) return;
    this.addCaptured(chunk.subarray(c.start, end));
    this.capture = null;
    const text = c.parts.length === 1 ? decoder.decode(c.parts[0]) : decoder.decode(Buffer.concat(c.parts));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ExportScanError("syntax", "The body is not valid JSON.");
    }
    if (c.to === "field") {
      this.fields.add(c.key!);
      this.events.push({ kind: "field", key: c.key!, value });
    } else if (c.to === "document") this.events.push({ kind: "document", collection: c.collection!, value });
    else this.events.push({ kind: c.to, value } as ExportScanEvent);
  }

  private endString(chunk: Uint8Array, i: number): void {
    const top = this.stack.at(-1)!;
    if (this.stringIsKey) {
      this.stringIsKey = false;
      top.expect = "colon";
      top.empty = false;
      if (this.keyParts) {
        let key: string;
        try {
          key = JSON.parse(`"${decoder.decode(Uint8Array.from(this.keyParts))}"`) as string;
        } catch {
          throw new ExportScanError("syntax", "An object key is not valid JSON.");
        }
        this.keyParts = null;
        top.key = key;
        if (top.role === "root") {
          if (key === "collections" || key === "notes" || key === "tags") this.fields.add(key);
        } else if (top.role === "collections" && !this.perCollection.has(key)) {
          if (++this.collectionKeys > this.limits.maxCollections)
            throw new ExportScanError("too_large", `The file has more than ${this.limits.maxCollections} collections.`);
          this.perCollection.set(key, 0);
        }
      }
      return;
    }
    this.endValue(chunk, i + 1);
  }
}
