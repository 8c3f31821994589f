// @ts-check
// Next's standalone output needs the static assets and public/ beside its server.js.
import fs from "node:fs";
import path from "node:path";
import { buildDir, standaloneDir } from "./build-dir.mjs";

/**
 * Copies the build's static/ and public/ into its standalone folder (idempotent). Every start
 * runs it while other servers of the same build may be serving these files (the test suite's
 * app while its fault suite starts others): a file already there unchanged is left alone, and a
 * new or changed one is written beside it and renamed into place, so a reader never sees a file
 * half written (an overwrite in place once served a framework chunk cut short, and the page
 * never hydrated).
 */
export function prepareStandalone(/** @type {string} */ root) {
  const dist = buildDir();
  const standalone = standaloneDir(root);
  /** @type {Array<[string, string]>} */
  const pairs = [
    [path.join(root, dist, "static"), path.join(standalone, dist, "static")],
    [path.join(root, "public"), path.join(standalone, "public")],
    [path.join(root, "prisma/migrations"), path.join(standalone, "prisma/migrations")],
  ];
  for (const [from, to] of pairs) if (fs.existsSync(from)) copyTree(from, to);
}

/** Copies the files of `from` into `to` that are missing there or differ in size or time; each by write-then-rename. */
export function copyTree(/** @type {string} */ from, /** @type {string} */ to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) {
      copyTree(src, dst);
      continue;
    }
    if (!entry.isFile()) continue;
    const s = fs.statSync(src);
    const d = fs.statSync(dst, { throwIfNoEntry: false });
    if (d && d.isFile() && d.size === s.size && Math.abs(d.mtimeMs - s.mtimeMs) < 1) continue;
    const tmp = `${dst}.${process.pid}.tmp`;
    try {
      fs.copyFileSync(src, tmp);
      fs.utimesSync(tmp, s.atime, s.mtime);
      fs.renameSync(tmp, dst);
    } catch (err) {
      // a copy that failed (a full disk) leaves no half file behind, and the start stops with it
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) prepareStandalone(process.cwd());
