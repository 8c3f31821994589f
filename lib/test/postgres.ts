// A PostgreSQL database of the test file's own, on the run's private server
// (lib/test/postgres-global-setup.ts). Fails with one clear line when there is no server: the
// PostgreSQL suites are never skipped silently.
import { inject } from "vitest";
import { createPostgresDatabase } from "@/lib/test/postgres-server.mjs";

export async function postgresTestDatabase(prefix = "t"): Promise<{ name: string; url: string }> {
  const serverUrl = inject("postgresUrl");
  if (!serverUrl) throw new Error("No PostgreSQL server for the tests: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR.");
  return createPostgresDatabase(serverUrl, prefix);
}
