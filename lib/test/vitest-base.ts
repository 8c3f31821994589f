// What every Vitest configuration of the repo shares (lib/vitest.config.ts, e2e/chaos/vitest.config.ts):
// the path aliases, and a test process per file that resolves the app's modules the way Next does.
import path from "node:path";
import type { InlineConfig } from "vitest/node";

export const resolve = {
  tsconfigPaths: true,
  alias: { "server-only": path.resolve("node_modules/server-only/empty.js") },
};

export const baseTest: InlineConfig = {
  root: path.resolve("."),
  environment: "node",
  pool: "forks",
  // next-auth imports "next/server" without an extension (next has no exports map), which
  // Node's ESM resolver rejects; inlining lets Vite resolve it (lib/auth/sign-in-flow.test.ts).
  server: { deps: { inline: ["next-auth"] } },
};
