// Runs after lib/test/setup.ts for the test files of the "postgres" project (lib/vitest.config.ts):
// the same file, its own PostgreSQL database on the run's private server (migrated the way
// `npm start` migrates), so the same integration suite runs against both databases.
import { inject } from "vitest";
import { applyPendingPostgresMigrations } from "@/lib/db/migrate-postgres.mjs";
import { createPostgresDatabase } from "@/lib/test/postgres-server.mjs";
import { POSTGRES_MIGRATIONS_DIR } from "@/prisma/generate-models";

const serverUrl = inject("postgresUrl");
if (!serverUrl) throw new Error("No PostgreSQL server for the tests: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR.");
const { url } = await createPostgresDatabase(serverUrl, "it");
await applyPendingPostgresMigrations(url, POSTGRES_MIGRATIONS_DIR);
process.env.DATABASE_URL = url;
