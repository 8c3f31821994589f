import path from "node:path";
import { defineConfig } from "prisma/config";

// Offline: the Prisma CLI talks to our wasm-backed stand-in instead of downloading the
// native schema engine (see prisma/schema-engine.mjs and the README's Architecture section).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve("prisma/schema-engine.mjs");

const dataDir = process.env.DATA_DIR ?? "./data";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? `file:${dataDir}/ringside.db` },
});
