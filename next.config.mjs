// Validates the environment first: a bad variable fails `next build` and `next start`.
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_SERVER } from "next/constants.js";
import { assertRunnableEnv, env } from "./lib/env.mjs";
import { HSTS_HEADER, REPORT_LINK_HEADERS, securityHeaders } from "./lib/security-headers.mjs";
import { buildDir } from "./lib/server/build-dir.mjs";

const testBuild = process.env.RINGSIDE_TEST_BUILD === "1";

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: "standalone",
  // The build's folder: .next, or another (the test suite builds once into its own, so a demo
  // running from .next in the same checkout is never disturbed).
  distDir: buildDir(),
  // The import route reads and writes files under DATA_DIR at run time; the file tracer cannot
  // tell which, so it takes in the whole checkout (the sources, the docs, the root package.json
  // with its "type": "module", which broke the standalone server). It needs none of them; the
  // build's own folder (.next, e2e/.build, e2e/bench/.build) is not among these patterns.
  // the docs pages (the signals' methods, the report's figures) read their docs/*.md when they first render
  // the report's PDF: pdfkit stays in node_modules (serverExternalPackages below), where
  // components/report/pdf/lean-library.ts can stub two of its imports; it loads the built-in fonts' metrics through a require of its own
  // (`#standard-fonts/Helvetica`), which the tracer may not follow; the standalone build carries
  // them (one node_modules for every route)
  outputFileTracingIncludes: {
    "/docs/signals": ["./docs/signals.md"],
    "/docs/report": ["./docs/report.md"],
    "/api/report": ["./node_modules/pdfkit/js/standard-fonts/*.cjs"],
  },
  serverExternalPackages: ["pdfkit"],
  outputFileTracingExcludes: {
    "/api/import": [
      "*.{md,json,ts,mjs,yaml}",
      "Dockerfile",
      "{app,components,docs,lib,prisma,public,data}/**",
      "e2e/*.{ts,mjs}",
      "e2e/{bench,chaos,conformance,fixtures,support}/*.{ts,mjs}",
      "e2e/{chaos,conformance,fixtures,support}/**",
      "e2e/{.data,test-results}/**",
      "e2e/bench/{.data,results}/**",
    ],
  },

  // Route modules load when first asked for, not all at start: the MCP server, the OpenAPI
  // document, the import and the e-mail code stay out of memory until someone uses them
  // (about 10 MB less after start, measured in docs/performance.md#memory).
  experimental: { preloadEntriesOnStart: false, ...(testBuild ? { turbopackFileSystemCacheForBuild: false } : {}) },
  poweredByHeader: false,
  typedRoutes: false,
  // The test suite's build (RINGSIDE_TEST_BUILD=1, e2e/run-all.mjs) skips two things it does not
  // need: the type check, which the suite's hygiene runner does once beside it (tsc --noEmit,
  // about 45 s of a 2-core machine), and Turbopack's build cache, which it would write (12 s) into
  // a folder the next run deletes first. Every other build checks the types and keeps its cache.
  typescript: { ignoreBuildErrors: testBuild },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders(process.env.NODE_ENV === "production") },
      // a report's share link: no index, no referrer, no cache (after the rule above: these win)
      { source: "/r/:path*", headers: REPORT_LINK_HEADERS },
      // HSTS behind an https reverse proxy (X-Forwarded-Proto), on every answer (static files
      // and the webhook receiver included); without that header proxy.ts decides per request.
      { source: "/:path*", has: [{ type: "header", key: "x-forwarded-proto", value: "https(?:\\s*,.*)?" }], headers: [HSTS_HEADER] },
    ];
  },
};

/** @param {string} phase */
export default function config(phase) {
  // A server (`next start`, `next dev`) refuses to start without what it needs at run time
  // (a real client secret outside demo mode); a build does not need it.
  if (phase === PHASE_PRODUCTION_SERVER || phase === PHASE_DEVELOPMENT_SERVER) assertRunnableEnv(env);
  return nextConfig;
}
