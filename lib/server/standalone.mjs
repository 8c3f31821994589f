// @ts-check
// Next's standalone output needs the static assets and public/ beside its server.js.
import fs from "node:fs";
import path from "node:path";
import { buildDir, standaloneDir } from "./build-dir.mjs";

/** Copies the build's static/ and public/ into its standalone folder (idempotent). */
export function prepareStandalone(/** @type {string} */ root) {
  const dist = buildDir();
  const standalone = standaloneDir(root);
  /** @type {Array<[string, string]>} */
  const pairs = [
    [path.join(root, dist, "static"), path.join(standalone, dist, "static")],
    [path.join(root, "public"), path.join(standalone, "public")],
    [path.join(root, "prisma/migrations"), path.join(standalone, "prisma/migrations")],
  ];
  for (const [from, to] of pairs) {
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, to, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) prepareStandalone(process.cwd());
