#!/usr/bin/env node
// @ts-check
// Makes an upgrade fixture by running an older commit of Ringside (docs/testing.md, "Upgrade
// fixtures"; CONTRIBUTING.md, "Change the database schema"):
//
//   node e2e/upgrade/make-fixture.mjs <commit> <sqlite|postgresql> [--node-dir <dir>] [--keep-checkout]
//   node e2e/upgrade/make-fixture.mjs --show e2e/upgrade/fixtures/<name>
//
// 1. a checkout of the commit outside the repository (git worktree, in the temp folder), with
//    its own `npm install` (--node-dir puts that folder's node and npm first on PATH: a commit
//    that pins better-sqlite3 12 needs Node.js 20 or 22);
// 2. its maker (e2e/upgrade/makers/<commit>.ts, else makers/since-postgresql.ts) copied into
//    it as a test file and run with the commit's own Vitest: its emulator serves a year, its
//    sync stores it, its services add notes, tags, alerts, tokens, cycle entries, and it writes
//    the database (SQLite: VACUUM INTO; PostgreSQL: pg_dump, plain SQL with INSERTs) and the
//    manifest of what it holds, read back by its own queries;
// 3. both compressed (brotli) into e2e/upgrade/fixtures/<database>-<commit date>-<commit>/.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

/** @param {Buffer | string} data */
function brotli(data) {
  return zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: typeof data === "string" ? Buffer.byteLength(data) : data.length,
    },
  });
}

/** @param {string[]} args @param {string} [cwd] */
const git = (args, cwd = root) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

function show(/** @type {string} */ dir) {
  const m = JSON.parse(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "manifest.json.br"))).toString("utf8"));
  const summary = {
    made: m.made,
    person: m.person,
    collections: Object.fromEntries(Object.entries(m.collections).map(([c, v]) => [c, /** @type {{ count: number }} */ (v).count])),
    series: Object.fromEntries(
      Object.entries(m.series).map(([c, v]) => [
        c,
        { samples: /** @type {{ count: number }} */ (v).count, days: Object.keys(/** @type {{ days: object }} */ (v).days).length },
      ]),
    ),
    notes: m.notes.length,
    tags: m.tags,
    apiTokens: (m.apiTokens ?? []).map((/** @type {{ name: string }} */ t) => t.name),
    alerts: m.alerts ? { rules: m.alerts.rules.length, channels: m.alerts.channels.length } : null,
    cycle: m.cycle ? m.cycle.entries.length : null,
    reportLinks: m.reportLinks?.length ?? 0,
  };
  console.log(JSON.stringify(summary, null, 2));
}

function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--show") return show(path.resolve(args[1] ?? ""));
  const [commitArg, database] = args;
  if (!commitArg || (database !== "sqlite" && database !== "postgresql")) {
    console.error("Usage: node e2e/upgrade/make-fixture.mjs <commit> <sqlite|postgresql> [--node-dir <dir>] [--keep-checkout]");
    process.exit(1);
  }
  const nodeDirAt = args.indexOf("--node-dir");
  const nodeDir = nodeDirAt > 0 ? path.resolve(args[nodeDirAt + 1] ?? "") : null;
  const sha = git(["rev-parse", "--verify", `${commitArg}^{commit}`]);
  const short = sha.slice(0, 7);
  const date = git(["show", "-s", "--format=%cd", "--date=format:%Y%m%d", sha]);
  const env = { ...process.env, ...(nodeDir ? { PATH: `${nodeDir}${path.delimiter}${process.env.PATH}` } : {}) };

  const tree = path.join(os.tmpdir(), `ringside-fixture-${short}`);
  if (!fs.existsSync(tree)) git(["worktree", "add", "--detach", tree, sha]);
  if (!fs.existsSync(path.join(tree, "node_modules"))) {
    const r = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: tree, env, stdio: "inherit" });
    if (r.status !== 0) throw new Error(`npm install failed in ${tree}`);
  }
  const own = path.join(here, "makers", `${short}.ts`);
  const maker = fs.existsSync(own) ? own : path.join(here, "makers", "since-postgresql.ts");
  if (maker !== own && !fs.existsSync(path.join(tree, "prisma/postgresql"))) throw new Error(`no maker for ${short}: write e2e/upgrade/makers/${short}.ts`);
  if (database === "postgresql" && !fs.existsSync(path.join(tree, "prisma/postgresql"))) throw new Error(`${short} has no PostgreSQL support`);
  const test = path.join(tree, "lib", "upgrade-fixture-maker.test.ts");
  fs.copyFileSync(maker, test);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-fixture-out-"));
  try {
    const projects = /projects:/.test(fs.readFileSync(path.join(tree, "lib/vitest.config.ts"), "utf8"));
    const r = spawnSync(
      "npx",
      ["vitest", "run", "--config", "lib/vitest.config.ts", ...(projects ? ["--project", "sqlite"] : []), "lib/upgrade-fixture-maker.test.ts"],
      {
        cwd: tree,
        stdio: "inherit",
        env: { ...env, UPGRADE_FIXTURE_OUT: out, UPGRADE_MANIFEST_LIB: path.join(here, "manifest.mjs"), UPGRADE_COMMIT: short, UPGRADE_DATABASE: database },
      },
    );
    if (r.status !== 0) throw new Error(`the maker failed in ${tree}`);
    const migrationsDir = path.join(tree, database === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations");
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"));
    manifest.made = {
      ...manifest.made,
      commit: sha,
      migrations: fs
        .readdirSync(migrationsDir)
        .filter((n) => fs.existsSync(path.join(migrationsDir, n, "migration.sql")))
        .sort(),
      maker: path.relative(root, maker),
      recipe: `node e2e/upgrade/make-fixture.mjs ${short} ${database}${nodeDir ? ` --node-dir ${nodeDir}` : ""}`,
    };
    const target = path.join(here, "fixtures", `${database}-${date}-${short}`);
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target, { recursive: true });
    if (database === "postgresql") {
      // psql's \restrict / \unrestrict (pg_dump 15.14 and later) are not SQL: the test restores with a plain client
      const sql = fs.readFileSync(path.join(out, "dump.sql"), "utf8").replace(/^\\(un)?restrict .*\n/gm, "");
      fs.writeFileSync(path.join(target, "dump.sql.br"), brotli(sql));
    } else {
      fs.writeFileSync(path.join(target, "ringside.db.br"), brotli(fs.readFileSync(path.join(out, "ringside.db"))));
    }
    fs.writeFileSync(path.join(target, "manifest.json.br"), brotli(JSON.stringify(manifest)));
    for (const f of fs.readdirSync(target)) console.log(`${path.relative(root, path.join(target, f))}: ${fs.statSync(path.join(target, f)).size} bytes`);
  } finally {
    fs.rmSync(test, { force: true });
    fs.rmSync(out, { recursive: true, force: true });
    if (args.includes("--keep-checkout")) console.log(`checkout kept: ${tree}`);
    else git(["worktree", "remove", "--force", tree]);
  }
}

main();
