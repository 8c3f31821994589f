import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit, integration and conformance tests. Run from the repo root:
//   npx vitest run --config lib/vitest.config.ts
export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    alias: { "server-only": path.resolve("node_modules/server-only/empty.js") },
  },
  test: {
    root: path.resolve("."),
    environment: "node",
    include: ["{lib,components,app,e2e,prisma}/**/*.test.{ts,tsx}"],
    exclude: ["node_modules/**", "lib/generated/**", "e2e/**/*.spec.ts", "e2e/chaos/**"],
    setupFiles: [path.resolve("lib/test/setup.ts")],
    globalSetup: [path.resolve("lib/test/postgres-global-setup.ts")],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    env: { NODE_ENV: "test", LOG_LEVEL: "warn" },
    // next-auth imports "next/server" without an extension (next has no exports map), which
    // Node's ESM resolver rejects; inlining lets Vite resolve it (lib/auth/sign-in-flow.test.ts).
    server: { deps: { inline: ["next-auth"] } },
  },
});
