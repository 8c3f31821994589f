// People with generated ring history in the test database, written through the sync engine's
// own mapping and upserts (as a backfill would), for tests of the read API and the MCP server.
import { clock } from "@/lib/clock";
import { sqlRun } from "@/lib/test/sql";
import { generateRange, COLLECTIONS as FIXTURE_COLLECTIONS, type RingDocument } from "@/lib/emulator/generator";

export type SeededPerson = { userId: string; docs: Record<string, RingDocument[]> };

export async function seedPerson(opts: { userId: string; seed: string; from: string; to: string }): Promise<SeededPerson> {
  const { mapDocument } = await import("@/lib/sync/map");
  const { ingestDocuments } = await import("@/lib/db/ingest/documents");
  const now = clock.date().toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
    opts.userId,
    `${opts.userId}@example.test`,
    now,
    now,
  );
  const docs = generateRange({ seed: opts.seed, userKey: opts.userId }, opts.from, opts.to);
  for (const c of FIXTURE_COLLECTIONS) {
    const rows = docs[c].map((d) => mapDocument(c, d, opts.userId, now)).flatMap((r) => (r.ok ? [r.row] : []));
    await ingestDocuments({ collection: c, userId: opts.userId, rows });
  }
  return { userId: opts.userId, docs };
}
