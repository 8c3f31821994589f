// Prisma's client on the database the process runs on (DATABASE_URL), for tests and seeding
// scripts that write or inspect rows through Prisma's typed models: the process's client
// (lib/db/prisma.ts: on SQLite behind the gate that keeps its transactions apart, on PostgreSQL on
// the process's pool). The app's queries still go through lib/db/sql.ts until the conversion of
// docs/decisions/0031-prisma-client-at-run-time.md; Prisma keeps the schema and the migrations.
import { prisma, type ProcessDb } from "@/lib/db/prisma";

export const db: ProcessDb = prisma();
