// The upgrade fixtures (e2e/upgrade/fixtures/<database>-<commit date>-<commit>/): databases made
// by older commits of Ringside (e2e/upgrade/make-fixture.mjs), each with the manifest of what it
// holds. Here: listing them, and a working copy of one to upgrade (a SQLite file in a data
// directory, or a PostgreSQL database restored from the dump on the run's private server).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { createPostgresDatabase } from "@/lib/test/postgres-server.mjs";
import { MANIFEST_FORMAT } from "@/e2e/upgrade/manifest.mjs";

export type Database = "sqlite" | "postgresql";

/** [document id (the day where a document has none), its day, its checksum] */
export type ManifestDocument = [string, string, string];

/** What a fixture holds, as the commit that made it read it back (e2e/upgrade/makers/). */
export type Manifest = {
  format: number;
  made: { commit: string; database: Database; today: string; range: [string, string]; migrations: string[]; maker: string; recipe: string };
  keys: { TOKEN_ENCRYPTION_KEY: string };
  person: {
    userId: string;
    email: string;
    ringUserId: string;
    role: string;
    units: string;
    theme: string;
    sleepNeedMin?: number | null;
    freeDays?: string | null;
  };
  session: { token: string; expires: string };
  account: { provider: string; providerAccountId: string; scope: string; status: string; accessToken: string; refreshToken: string };
  /** the token the read API is read with (null before the schema had tokens) */
  apiToken: { token: string } | null;
  apiTokens?: Array<{ name: string; prefix: string; tokenHash: string; kinds: string[]; expiresAt?: string | null }>;
  personalInfo: string;
  /** by collection: its documents, and each typed column's [values, checksum] (e2e/upgrade/manifest.mjs, columnChecksums) */
  collections: Record<string, { count: number; documents: ManifestDocument[]; columns: Record<string, [number, string]> }>;
  /** by collection: samples in all, and each UTC day's [count, checksum] */
  series: Record<string, { count: number; days: Record<string, [number, string]> }>;
  notes: Array<{ day: string; text: string; tags: string[] }>;
  tags: Array<{ name: string; color: string | null; days: number }>;
  invites: Array<{ tokenHash: string }>;
  alerts?: {
    /** quiet hours: minutes of the day, from and to (null before the schema had them, or none set) */
    settings: { includeValues: boolean; timeZone: string; quietHours: { from: number; to: number } | null };
    rules: Array<{ id: string; kind: string; enabled: boolean; params: unknown }>;
    channels: Array<{ id: string; kind: string; label: string; url: string | null; enabled: boolean; secret: string | null }>;
  };
  cycle?: { settings: Record<string, unknown>; entries: Array<{ day: string; kind: string }> } | null;
  reportLinks?: Array<{ id: string; secretChecksum: string }>;
};

export type Fixture = { name: string; dir: string; database: Database; manifest: Manifest };

export const FIXTURES_DIR = path.resolve("e2e/upgrade/fixtures");

const unbrotli = (file: string) => zlib.brotliDecompressSync(fs.readFileSync(file));

/** The fixtures of one database, oldest commit first. */
export function listFixtures(database: Database): Fixture[] {
  return fs
    .readdirSync(FIXTURES_DIR)
    .filter((name) => name.startsWith(`${database}-`))
    .sort()
    .map((name) => {
      const dir = path.join(FIXTURES_DIR, name);
      const manifest = JSON.parse(unbrotli(path.join(dir, "manifest.json.br")).toString("utf8")) as Manifest;
      if (manifest.format !== MANIFEST_FORMAT) throw new Error(`${name}: manifest format ${manifest.format}, expected ${MANIFEST_FORMAT}`);
      return { name, dir, database, manifest };
    });
}

/** The fixture's SQLite file, copied into `dataDir` as ringside.db (its path). */
export function copySqliteFixture(fixture: Fixture, dataDir: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, "ringside.db");
  fs.writeFileSync(file, unbrotli(path.join(fixture.dir, "ringside.db.br")), { mode: 0o600 });
  return file;
}

/** The fixture's dump restored into a new database on the server (its URL). */
export async function restorePostgresFixture(fixture: Fixture, serverUrl: string): Promise<string> {
  const { url } = await createPostgresDatabase(serverUrl, "upgrade");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // plain SQL (pg_dump --inserts, psql's meta-commands taken out when it was made): one simple query
    await client.query(unbrotli(path.join(fixture.dir, "dump.sql.br")).toString("utf8"));
  } finally {
    await client.end();
  }
  return url;
}
