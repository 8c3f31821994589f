// Vitest global setup: one private PostgreSQL server for the whole run (lib/test/postgres-server.mjs),
// stopped and deleted afterwards. Test files that need PostgreSQL take a database of their own
// on it (lib/test/postgres.ts). RINGSIDE_TEST_POSTGRES_URL points the run at a server that is
// already running instead.
import type { TestProject } from "vitest/node";
import { findPostgresBinDir, startPostgresServer } from "@/lib/test/postgres-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** the test server's superuser URL; "" when no PostgreSQL is installed */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.RINGSIDE_TEST_POSTGRES_URL;
  if (given) {
    project.provide("postgresUrl", given);
    return;
  }
  if (!findPostgresBinDir()) {
    project.provide("postgresUrl", "");
    return;
  }
  const server = await startPostgresServer();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
