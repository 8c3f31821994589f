// The documentation holds together: the README stays a manual of at most 300 lines, every
// relative link in it, in CONTRIBUTING.md, in docs/ and in the folders' README pointers leads to
// a file of the repository, every #anchor names a heading of its page (GitHub's slugs, through
// github-slugger, GitHub's own algorithm), no page cites an issue number or a path outside the
// repository, and no page's prose holds a dated run log (a date, a commit id, "in this run"). The checker is tested first on pages made up here, so it can be seen to fail.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const README_MAX_LINES = 300;

type Page = { file: string; text: string };
type Link = { target: string; line: number };

/** The page's lines outside fenced code blocks (``` or ~~~), with their line numbers: as written, and with inline code blanked. */
function proseLines(text: string): Array<{ raw: string; text: string; line: number }> {
  const out: Array<{ raw: string; text: string; line: number }> = [];
  let fence: string | null = null;
  text.split("\n").forEach((raw, i) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
    if (fence) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && raw.trim() === open[1]) fence = null;
      return;
    }
    if (open) {
      fence = open[1]!;
      return;
    }
    out.push({ raw, text: raw.replace(/(`+)[\s\S]*?\1/g, (m) => " ".repeat(m.length)), line: i + 1 });
  });
  return out;
}

/** Inline links and images `[text](target "title")` and reference definitions `[id]: target`. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  for (const { text: line, line: n } of proseLines(text)) {
    for (const m of line.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+("[^"]*"|'[^']*'))?\s*\)/g)) {
      links.push({ target: m[1]!.replace(/^<|>$/g, ""), line: n });
    }
    const def = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (def) links.push({ target: def[1]!.replace(/^<|>$/g, ""), line: n });
  }
  return links;
}

/** A heading's text as GitHub renders it before slugging: code, links, emphasis and tags reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/\*\*?([^*]+)\*\*?/g, "$1")
    .trim();
}

/** The anchors of a page's headings (ATX and setext), duplicates numbered as GitHub numbers them. */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const lines = proseLines(text);
  lines.forEach(({ raw: line, line: n }, i) => {
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    const next = lines[i + 1];
    const setext = next && next.line === n + 1 && /^ {0,3}(=+|-+)\s*$/.test(next.text) && line.trim() !== "" && !/^\s*([-*+]|\d+[.)])\s/.test(line);
    if (atx) anchors.add(slugger.slug(headingText(atx[1]!)));
    else if (setext) anchors.add(slugger.slug(headingText(line)));
  });
  return anchors;
}

/**
 * Every broken relative link of the pages, as "file:line: target (reason)". `exists` says whether
 * a repository path (relative to the root, `/`-separated) exists; `read` gives a Markdown page's text.
 */
function brokenLinks(pages: Page[], exists: (p: string) => boolean, read: (p: string) => string | null): string[] {
  const anchorCache = new Map<string, Set<string> | null>();
  const anchors = (file: string) => {
    if (!anchorCache.has(file)) {
      const text = read(file);
      anchorCache.set(file, text === null ? null : anchorsOf(text));
    }
    return anchorCache.get(file)!;
  };
  const problems: string[] = [];
  for (const page of pages) {
    for (const { target, line } of linksOf(page.text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // http:, mailto: …
      const hash = target.indexOf("#");
      const rawPath = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const where = `${page.file}:${line}: ${target}`;
      let file = page.file;
      if (rawPath !== "") {
        const decoded = decodeURIComponent(rawPath);
        file = path.posix.normalize(decoded.startsWith("/") ? decoded.slice(1) : path.posix.join(path.posix.dirname(page.file), decoded));
        if (file.startsWith("../") || file === "..") {
          problems.push(`${where} (outside the repository)`);
          continue;
        }
        file = file.replace(/\/$/, "");
        if (!exists(file)) {
          problems.push(`${where} (no such file)`);
          continue;
        }
      }
      if (anchor === null) continue;
      if (!file.endsWith(".md")) {
        problems.push(`${where} (an anchor into a file that is not Markdown)`);
        continue;
      }
      const found = anchors(file);
      if (!found || !found.has(anchor)) problems.push(`${where} (no heading with this anchor)`);
    }
  }
  return problems;
}

/** Lines that cite an issue number, or a path outside the repository. */
function outsideReferences(page: Page): string[] {
  const found: string[] = [];
  page.text.split("\n").forEach((line, i) => {
    if (/\bissue\s+#?\d+|\bissues\s+#\d+/i.test(line)) found.push(`${page.file}:${i + 1}: cites an issue number`);
    if (/\.\.\/shared\b|(^|[\s`(])\/work\/|\bTOOLCHAIN\.md\b|\bHOUSE-STYLE\.md\b/.test(line)) {
      found.push(`${page.file}:${i + 1}: refers to a file outside the repository`);
    }
  });
  return found;
}

const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December";
/** What marks a dated run log in prose: a calendar date (ISO, or with a month's name), a commit id, a run named by when or where it ran. */
const RUN_LOG_MARKS: Array<[RegExp, string]> = [
  [/\b(?:19|20)\d\d-\d\d-\d\d\b/, "a date"],
  [new RegExp(`\\b\\d{1,2} (?:${MONTHS})\\b|\\b(?:${MONTHS}) (?:\\d{1,2}, )?\\d{4}\\b`), "a date"],
  [/\bcommits? [0-9a-f]{7,40}\b/i, "a commit id"],
  [/\bfresh-clone runs?\b|\bin this run\b|\bthe run before\b/i, "a run's narrative"],
];

/**
 * Lines whose prose (outside code) dates a run: the docs hold current figures, and a decision's reasons live in its
 * record, so a date, a commit id or "in this run" in prose is a run log. Dates as values (a default, an example) are code.
 */
function datedRunLogs(page: Page): string[] {
  const found: string[] = [];
  for (const { text, line } of proseLines(page.text)) {
    const mark = RUN_LOG_MARKS.find(([re]) => re.test(text));
    if (mark) found.push(`${page.file}:${line}: ${mark[1]}`);
  }
  return found;
}

function lineCount(text: string): number {
  return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}

/** The repository's documentation: the README, CONTRIBUTING.md, docs/**, and the folders' README pointers. */
function repositoryPages(): Page[] {
  const files = ["README.md", "CONTRIBUTING.md", "lib/README.md", "lib/emulator/README.md"];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) files.push(rel);
    }
  };
  walk("docs");
  return files.filter((f) => fs.existsSync(path.join(ROOT, f))).map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }));
}

const inRepo = (p: string) => fs.existsSync(path.join(ROOT, p));
const readRepo = (p: string) => (inRepo(p) && fs.statSync(path.join(ROOT, p)).isFile() ? fs.readFileSync(path.join(ROOT, p), "utf8") : null);

describe("the link checker", () => {
  const pages: Record<string, string> = {
    "docs/a.md": "# Page A\n\n## Setting it up\n\n## Setting it up\n\n### `RING_OAUTH_ISSUER` and discovery\n\nThe *Sync* page\n---------------\n",
    "docs/b.md": [
      "# B",
      "[good](a.md#setting-it-up) [second](a.md#setting-it-up-1) [code](a.md#ring_oauth_issuer-and-discovery)",
      "[setext](a.md#the-sync-page) [self](#b) [root](/README.md) ![img](../README.md)",
      "[missing file](c.md) [missing anchor](a.md#setting-up) [out](../../x.md) [self missing](#nope)",
      "[web](https://example.net/x#y) [mail](mailto:a@b.test) `[in code](nowhere.md)`",
      "```",
      "[in a fence](nowhere.md)",
      "```",
      "[ref]: a.md#no-such-heading",
    ].join("\n"),
    "README.md": "# R\n",
  };
  const exists = (p: string) => p in pages || p === "docs";
  const read = (p: string) => pages[p] ?? null;

  it("finds missing files, missing anchors and links out of the repository, and nothing else", () => {
    expect(brokenLinks([{ file: "docs/b.md", text: pages["docs/b.md"]! }], exists, read)).toEqual([
      "docs/b.md:4: c.md (no such file)",
      "docs/b.md:4: a.md#setting-up (no heading with this anchor)",
      "docs/b.md:4: ../../x.md (outside the repository)",
      "docs/b.md:4: #nope (no heading with this anchor)",
      "docs/b.md:9: a.md#no-such-heading (no heading with this anchor)",
    ]);
  });

  it("slugs headings as GitHub does: punctuation dropped, code kept, duplicates numbered, setext headings too", () => {
    expect([...anchorsOf(pages["docs/a.md"]!)]).toEqual(["page-a", "setting-it-up", "setting-it-up-1", "ring_oauth_issuer-and-discovery", "the-sync-page"]);
    expect([...anchorsOf("## Control API (`/_emulator/…`, JSON in and out)\n## Sync and webhooks: how Ringside keeps your data\n")]).toEqual([
      "control-api-_emulator-json-in-and-out",
      "sync-and-webhooks-how-ringside-keeps-your-data",
    ]);
  });

  it("finds dated run logs in prose, and not dates written as code", () => {
    const page = {
      file: "docs/x.md",
      text: [
        "On 2026-11-26 the bench ran.",
        "One run on 25 November 2026 on two cores.",
        "The code before (commit 81f40fa) was slower.",
        "Seen once in the fresh-clone runs; 11.6 ms in this run.",
        "The default is `2015-01-01`; days lie between `2000-01-01` and `2099-12-31`.",
        "```",
        "pg_restore ringside-2026-11-24.dump",
        "```",
        "A run of the bench takes two minutes; May the tests pass.",
      ].join("\n"),
    };
    expect(datedRunLogs(page)).toEqual(["docs/x.md:1: a date", "docs/x.md:2: a date", "docs/x.md:3: a commit id", "docs/x.md:4: a run's narrative"]);
  });

  it("finds citations of issues and of paths outside the repository", () => {
    const page = {
      file: "docs/x.md",
      text: "Fixed in issue 11.\nSee ../shared/ARCHITECTURE.md.\nThe issue is time zones; the emulator issues 2 tokens.\nAs in issues #17 and #18.\n",
    };
    expect(outsideReferences(page)).toEqual([
      "docs/x.md:1: cites an issue number",
      "docs/x.md:2: refers to a file outside the repository",
      "docs/x.md:4: cites an issue number",
    ]);
  });
});

describe("the repository's documentation", () => {
  const pages = repositoryPages();

  it("covers the README, CONTRIBUTING.md and the docs/ pages", () => {
    const files = pages.map((p) => p.file);
    expect(files).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/architecture.md", "docs/configuration.md"]));
    expect(files.filter((f) => f.startsWith("docs/")).length).toBeGreaterThanOrEqual(10);
  });

  it(`keeps the README to ${README_MAX_LINES} lines or fewer`, () => {
    expect(lineCount(pages.find((p) => p.file === "README.md")!.text)).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("has no broken relative link or anchor", () => {
    expect(brokenLinks(pages, inRepo, readRepo)).toEqual([]);
  });

  it("holds no dated run log: current figures only, reasons in docs/decisions", () => {
    expect(pages.flatMap(datedRunLogs)).toEqual([]);
  });

  it("cites no issue number and no file outside the repository", () => {
    expect(pages.flatMap(outsideReferences)).toEqual([]);
  });
});
