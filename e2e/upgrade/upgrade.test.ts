// The upgrade suite: every fixture database made by an older Ringside (e2e/upgrade/fixtures/,
// made by e2e/upgrade/make-fixture.mjs) is upgraded the way `npm start` upgrades
// (lib/db/upgrade.mjs: the applied migrations checked, a backup, the migrations, foreign keys),
// then read through today's app and held, row by row, to the manifest its maker wrote: every
// document, sample and typed column through the export, a third of the days' documents and heart
// rate, every count, the notes, tags and cycle through the read API with the fixture's token, and
// the session, tokens, alerts and settings through today's services (e2e/upgrade/verify.ts).
// On SQLite in the "sqlite" project, on PostgreSQL (the dumps) in the "postgres" one
// (lib/vitest.config.ts, BOTH_DATABASES).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { copySqliteFixture, listFixtures, restorePostgresFixture, type Fixture } from "@/e2e/upgrade/fixtures";
import { loadApp, unloadApp } from "@/e2e/upgrade/app";
import { checkExport, checkReadApi, checkSettings, type App } from "@/e2e/upgrade/verify";
import { readMigrations } from "@/lib/db/migrate.mjs";
import { upgradePostgres, upgradeSqlite } from "@/lib/db/upgrade.mjs";

// The person the export is downloaded as: the fixture's session, looked up as Auth.js looks it up.
const signedIn = vi.hoisted(() => ({ token: "" }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => {
    const { ringsideAdapter } = await import("@/lib/services/auth/adapter");
    const { findUser } = await import("@/lib/db/queries/users");
    const found = await ringsideAdapter().getSessionAndUser?.(signedIn.token);
    const user = found ? await findUser(found.session.userId) : null;
    if (!user) throw new Error("the fixture's session is gone");
    return { id: user.id, email: user.email, role: user.role === "owner" ? "owner" : "member" };
  },
}));

const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
const fixtures = listFixtures(postgres ? "postgresql" : "sqlite");
const migrationsDir = path.resolve(postgres ? "prisma/postgresql/migrations" : "prisma/migrations");
const today = readMigrations(migrationsDir).map((m) => m.name);
const baseDir = process.env.DATA_DIR!;

/** A token with every data kind, made by today's Settings → API. */
async function readerToken(userId: string): Promise<string> {
  const { createApiToken } = await import("@/lib/services/api-tokens");
  const { DATA_KINDS } = await import("@/lib/auth/api-scopes");
  return (await createApiToken(userId, { name: "Upgrade reader", kinds: DATA_KINDS, expires: null })).token;
}

it("has fixtures: the first schema, one from the middle and the current one", () => {
  expect(fixtures.length).toBeGreaterThanOrEqual(3);
  // the newest fixture was made with every migration of some earlier commit; the oldest with the first
  expect(fixtures[0]!.manifest.made.migrations).toEqual(today.slice(0, 1));
});

describe.each(fixtures.map((f) => [f.name, f] as const))("%s", (_name, fixture: Fixture) => {
  const m = fixture.manifest;
  let app: App;
  let token: string;

  beforeAll(async () => {
    const dataDir = path.join(baseDir, fixture.name);
    let url: string;
    if (postgres) {
      url = await restorePostgresFixture(fixture, inject("postgresUrl"));
      expect(await upgradePostgres({ url, migrationsDir })).toEqual(today.filter((n) => !m.made.migrations.includes(n)));
    } else {
      const file = copySqliteFixture(fixture, dataDir);
      const upgraded = await upgradeSqlite({ file, migrationsDir, backupDir: path.join(dataDir, "backups"), keepBackups: 3 });
      expect(upgraded.applied).toEqual(today.filter((n) => !m.made.migrations.includes(n)));
      expect(upgraded.backup === null).toBe(upgraded.applied.length === 0);
      url = `file:${file}`;
    }
    // the process as npm start leaves it for the server: this database, the fixture's key
    Object.assign(process.env, { DATABASE_URL: url, DATA_DIR: dataDir, TOKEN_ENCRYPTION_KEY: m.keys.TOKEN_ENCRYPTION_KEY, API_RATE_LIMIT: "100000" });
    signedIn.token = m.session.token;
    app = await loadApp();
    // a fixture from before personal access tokens gets one from today's Settings → API
    token = m.apiToken?.token ?? (await readerToken(m.person.userId));
  });
  afterAll(async () => {
    await unloadApp();
    fs.rmSync(path.join(baseDir, fixture.name), { recursive: true, force: true });
  });

  it("documents and heart rate of a third of the days, every count, note, tag and cycle entry through the read API", async () => {
    expect((await checkReadApi(app, m, token)).slice(0, 20)).toEqual([]);
  });

  it("every document, sample and typed column of every collection through the export", async () => {
    expect((await checkExport(app, m)).slice(0, 20)).toEqual([]);
  });

  it("the person's session, ring tokens, API tokens, alerts, invites, links and settings", async () => {
    expect((await checkSettings(app, m)).slice(0, 20)).toEqual([]);
  });
});
