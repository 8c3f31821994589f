// No import circle between files: every .ts, .tsx and .mjs file of the repository (tests and their
// support included), every import of it resolved as TypeScript resolves it (`@/` paths and relative
// ones), type-only imports included (`import type`, `export type … from`, `typeof import("…")`,
// JSDoc's `import("…")` in .mjs files), dynamic imports too. ESLint's import/no-cycle skips type-only
// imports, hence this walk; it parses each file once (a few seconds for the whole repository).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
/** Built, generated, installed or run-time data: not source. */
const SKIP = new Set(["node_modules", ".next", ".git", ".build", ".data", "test-results", "generated", "results"]);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const rel = dir === "." ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) sourceFiles(rel, out);
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile).config, ts.sys, ROOT);

/** Every module specifier of a file: imports and exports from, dynamic imports, import types (JSDoc ones too). */
function specifiers(file: string, text = fs.readFileSync(path.join(ROOT, file), "utf8")): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    for (const doc of (node as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The repository's files each file imports. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of specifiers(file)) {
      const resolved = ts.resolveModuleName(spec, path.join(ROOT, file), config.options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.relative(ROOT, resolved.resolvedFileName).split(path.sep).join("/");
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The import circles: one shortest cycle (a → … → a) per strongly connected group of files. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iteratively (the graph is a few thousand files)
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.i < edges.length) {
        const to = edges[top.i++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== top.node);
        if (group.length > 1 || (graph.get(top.node) ?? []).includes(top.node)) groups.push(group.sort());
      }
    }
  }
  return groups.map((group) => shortestCycle(graph, group)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, group: readonly string[]): string[] {
  const inGroup = new Set(group);
  const start = group[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!inGroup.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = from.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!from.has(to)) {
        from.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...group, start];
}

describe("import circles", () => {
  it("reads every kind of import, type-only and JSDoc ones included, and finds a circle through them", () => {
    const ts_ = [
      `import { a } from "@/lib/a";`,
      `import type { B } from "./b";`,
      `import { type C } from "../c";`,
      `export type { D } from "@/lib/d";`,
      `export * from "./e";`,
      `type F = typeof import("@/lib/f");`,
      `const g = () => import("./g.mjs");`,
    ].join("\n");
    expect(specifiers("lib/x.ts", ts_)).toEqual(["@/lib/a", "./b", "../c", "@/lib/d", "./e", "@/lib/f", "./g.mjs"]);
    const mjs = `// @ts-check\n/** @param {import("./h.mjs").H} h @returns {import('@/lib/i').I} */\nexport function j(h) { return h; }\n`;
    expect(specifiers("lib/x.mjs", mjs)).toEqual(["./h.mjs", "@/lib/i"]);
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.mjs", "d.ts"]],
      ["c.mjs", ["a.ts"]],
      ["d.ts", []],
      ["e.ts", ["a.ts", "e.ts"]],
    ]);
    expect(circles(graph)).toEqual([
      ["a.ts", "b.ts", "c.mjs", "a.ts"],
      ["e.ts", "e.ts"],
    ]);
  });

  it("has none between the repository's files", { timeout: 120_000 }, () => {
    const files = ["app", "components", "lib", "e2e", "prisma"].flatMap((d) => sourceFiles(d)).concat(rootFiles());
    const graph = importGraph(files);
    // the walk sees `@/` paths, relative ones and type-only imports (else it would find nothing)
    expect(graph.get("lib/metrics/catalog.ts")).toContain("lib/metrics/catalog-data.ts");
    expect(graph.get("lib/server/start.mjs")).toContain("lib/env.mjs");
    expect(graph.get("lib/metrics/catalog-data.ts")).toContain("lib/metrics/catalog-types.ts");
    expect(circles(graph).map((c) => c.join(" → "))).toEqual([]);
  });
});

function rootFiles(): string[] {
  return fs.readdirSync(ROOT).filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.endsWith(".d.ts"));
}
