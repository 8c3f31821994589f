// The app's attack surface, read from the source tree so that nothing new is forgotten:
// every route handler (app/**/route.ts) with its exported methods, and every server action
// ("use server" files) with its exported functions — checked against the production build's
// server-reference manifest, whose ids are how a browser (or an attacker) calls them.
import fs from "node:fs";
import path from "node:path";
import { buildDir } from "../../../lib/server/build-dir.mjs";

const ROOT = path.resolve(".");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? walk(p) : [p];
  });
}

/** "app/(auth)/invite/[secret]/route.ts" → "/invite/[secret]" (route groups dropped). */
export function routePathOf(file: string): string {
  const rel = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
  return "/" + rel.filter((s) => !(s.startsWith("(") && s.endsWith(")"))).join("/");
}

/** Every "METHOD /path" the app serves from a route handler. */
export function listRouteHandlers(): string[] {
  const out: string[] = [];
  for (const file of walk(path.join(ROOT, "app")).filter((f) => /\/route\.(ts|tsx|js|mjs)$/.test(f))) {
    const src = fs.readFileSync(file, "utf8");
    const methods = new Set<string>();
    for (const m of METHODS) {
      if (new RegExp(`export\\s+(const|let|var|async\\s+function|function)\\s+${m}\\b`).test(src)) methods.add(m);
    }
    for (const d of src.matchAll(/export\s+const\s*\{([^}]*)\}\s*=/g)) {
      for (const name of d[1]!.split(",").map((s) =>
        s
          .trim()
          .split(/\s*:\s*/)
          .pop()!,
      ))
        if ((METHODS as readonly string[]).includes(name)) methods.add(name);
    }
    for (const m of methods) out.push(`${m} ${routePathOf(file)}`);
  }
  return out.sort();
}

/** Every exported function of every "use server" file: "app/(app)/settings/actions-connection.ts#disconnectRing". */
export function listServerActions(): string[] {
  const out: string[] = [];
  for (const dir of ["app", "components", "lib"]) {
    for (const file of walk(path.join(ROOT, dir)).filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))) {
      const src = fs.readFileSync(file, "utf8");
      const fileLevel = /^\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/\s*)*["']use server["']/.test(src);
      const rel = path.relative(ROOT, file);
      if (fileLevel) {
        for (const m of src.matchAll(/export\s+(?:async\s+)?function\s+([A-Za-z0-9_]+)/g)) out.push(`${rel}#${m[1]}`);
        for (const m of src.matchAll(/export\s+const\s+([A-Za-z0-9_]+)\s*=\s*(?:async|\w+\()/g)) out.push(`${rel}#${m[1]}`);
      } else if (/["']use server["']/.test(src)) {
        // Inline server actions inside a component or module: list them by name, they need a case too.
        for (const m of src.matchAll(/(?:async\s+function\s+([A-Za-z0-9_]+)|const\s+([A-Za-z0-9_]+)\s*=\s*async)[^{]*\{\s*["']use server["']/g))
          out.push(`${rel}#${m[1] ?? m[2]}`);
      }
    }
  }
  return out.sort();
}

export type ManifestAction = { id: string; file: string; name: string; pages: string[] };

/** The built server actions (from the build's server/server-reference-manifest.json). */
export function builtServerActions(): ManifestAction[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, buildDir(), "server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string; workers: Record<string, unknown> }>;
  };
  return Object.entries(manifest.node).map(([id, v]) => ({
    id,
    file: v.filename ?? "",
    name: v.exportedName ?? "",
    pages: Object.keys(v.workers).map((w) => w.replace(/^app/, "").replace(/\/page$/, "") || "/"),
  }));
}

/** "/(app)/settings" → "/settings"; dynamic pages get a sample value. */
export function pagePath(worker: string): string {
  const p = worker
    .split("/")
    .filter((s) => !(s.startsWith("(") && s.endsWith(")")))
    .join("/");
  return (p || "/").replace(/\[day\]/, "2026-01-01").replace(/\[section\]/, "account") || "/";
}

/** Every page of the app (each app/.../page.tsx) as a path; dynamic segments get a sample value. */
export function listPages(): string[] {
  return walk(path.join(ROOT, "app"))
    .filter((f) => /\/page\.(tsx|ts|jsx|js)$/.test(f))
    .map((f) => pagePath(path.relative(path.join(ROOT, "app"), path.dirname(f)).split(path.sep).join("/")))
    .map((p) => (p.startsWith("/") ? p : `/${p}`))
    .sort();
}
