// Makes the upgrade fixture of a commit from the PostgreSQL groundwork on (cbc7f35, fdb7c16,
// 10738da, and later ones), run inside a checkout of that commit by e2e/upgrade/make-fixture.mjs,
// on SQLite or (UPGRADE_DATABASE=postgresql) on the run's private PostgreSQL server. Its own code
// does everything: the emulator of that commit serves a year, its sync engine stores it, its
// services write notes, tags, preferences, alerts, tokens and what else its schema has, and its
// queries read back what the manifest records. What a commit does not have is looked for and left
// out (the file of the service, or its export), so one maker serves every commit since.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";

const out = process.env.UPGRADE_FIXTURE_OUT!;
const manifestLib = process.env.UPGRADE_MANIFEST_LIB!;
const commit = process.env.UPGRADE_COMMIT!;
const postgres = process.env.UPGRADE_DATABASE === "postgresql";
const TODAY = "2026-03-15";
const FROM = "2025-03-15";
const has = (file: string) => fs.existsSync(path.resolve(file));
// Modules by a path that varies across commits: the first that exists.
const importFirst = async (...files: string[]): Promise<any> => {
  const file = files.find((f) => has(f));
  if (!file) throw new Error(`none of ${files.join(", ")} in this commit`);
  return import(path.resolve(file));
};

// On PostgreSQL, the file's own database on the run's private server, migrated by this commit's
// migrator (what its lib/test/setup-postgres.ts does for the files of its "postgres" project).
let databaseUrl = process.env.DATABASE_URL!;
if (postgres) {
  const { createPostgresDatabase } = await import("@/lib/test/postgres-server.mjs");
  const { applyPendingPostgresMigrations } = await import("@/lib/db/migrate-postgres.mjs");
  ({ url: databaseUrl } = await createPostgresDatabase(inject("postgresUrl" as never) as string, "fixture"));
  await applyPendingPostgresMigrations(databaseUrl, path.resolve("prisma/postgresql/migrations"));
  process.env.DATABASE_URL = databaseUrl;
}

let close: (() => Promise<void>) | undefined;
afterAll(async () => close?.());

it("makes the fixture", { timeout: 900_000 }, async () => {
  const { MANIFEST_FORMAT, columnChecksums, documentChecksum, secretChecksum, seriesChecksums } = (await import(
    manifestLib
  )) as typeof import("../manifest.mjs");
  const kit = await importFirst("lib/test/sync-kit.ts");
  const t = await kit.startSyncTestEnv({ historyDays: 366, today: TODAY, pageSize: 100 });
  close = () => t.close();
  // a woman of the emulator's seed with cycles (where the emulator has them: her daily_cycle_phases)
  const person = await kit.connectPerson(t, { email: "upgrade-fixture-4@ringside.test" });
  const { SyncEngine } = await import("@/lib/sync/engine");
  const engine = new SyncEngine();
  await engine.snapshotPersonalInfo(person.userId);
  const outcomes = await engine.backfillUser(person.userId);
  expect(outcomes.filter((o: { result: string }) => o.result !== "done")).toEqual([]);

  // what a person sets: preferences, notes and tags on days, a tag's colour
  const { db } = await import("@/lib/test/prisma");
  const { updatePreferences } = await import("@/lib/db/queries/preferences");
  const notes = await import("@/lib/db/queries/notes");
  await updatePreferences(person.userId, { units: "imperial", theme: "dark" });
  const noteDays = ["2025-04-02", "2025-06-21", "2025-09-09", "2025-12-24", "2026-02-28", "2026-03-14"];
  for (const [i, day] of noteDays.entries())
    await notes.setDayNote({
      userId: person.userId,
      day,
      text: i === 3 ? "" : `Note ${i + 1}: late dinner, "quotes" and ünïcode ✓`,
      tags: i % 2 ? ["late dinner", "travel"] : ["alcohol"],
    });
  const alcohol = (await notes.listTags(person.userId)).find((x: { name: string }) => x.name === "alcohol")!;
  await notes.updateTagFields({ userId: person.userId, id: alcohol.id, color: "#c0392b" });
  // the explained signals' settings, where the schema has them
  if (has("lib/db/queries/signal-settings.ts")) {
    const s = await import(path.resolve("lib/db/queries/signal-settings.ts"));
    await s.updateSignalSettings(person.userId, { sleepNeedMinutes: 465, freeDays: [6, 7] });
  }
  // a signed-in browser, and an invitation not yet used
  const session = { sessionToken: "upgrade-fixture-session-token", userId: person.userId, expires: new Date("2099-01-01T00:00:00Z") };
  await db.session.create({ data: session });
  const { createInvite } = await import("@/lib/db/queries/invites");
  await createInvite({ createdById: person.userId, tokenHash: secretChecksum("upgrade-fixture-invite"), expiresAt: new Date("2099-01-01T00:00:00Z") });

  // personal access tokens: one with every kind (the upgrade test reads with it), one narrow
  const { DATA_KINDS } = await import("@/lib/auth/api-scopes");
  const tokens = await import("@/lib/services/api-tokens");
  const expiry = has("lib/db/queries/api-tokens.ts") && /expiresAt/.test(fs.readFileSync("lib/db/queries/api-tokens.ts", "utf8"));
  const reader = await tokens.createApiToken(person.userId, { name: "Upgrade reader", kinds: DATA_KINDS, ...(expiry ? { expires: null } : {}) });
  await tokens.createApiToken(person.userId, { name: "Sleep only", kinds: ["daily_sleep", "notes"], ...(expiry ? { expires: 365 } : {}) });

  // alerts: the person's settings, two rules (one switched off), an ntfy channel with a token and a webhook
  const alerts = await importFirst("lib/services/alerts.ts", "lib/alerts/service.ts");
  const settingsInput: Record<string, unknown> = { includeValues: true, timeZone: "Europe/Berlin" };
  if (/quiet/i.test(fs.readFileSync(path.resolve(has("lib/alerts/schemas.ts") ? "lib/alerts/schemas.ts" : "lib/alerts/catalog.ts"), "utf8"))) {
    settingsInput.quietFrom = "22:00";
    settingsInput.quietTo = "07:00";
  }
  await alerts.saveAlertSettings(person.userId, settingsInput, "https://ringside.example.net");
  await alerts.addAlertRule(person.userId, { kind: "metric_out_of_range", params: { metric: "sleep.score", side: "below", days: 3 } });
  await alerts.addAlertRule(person.userId, { kind: "weekly_digest", params: { weekday: 1, hour: 8 } });
  await alerts.addAlertChannel(person.userId, { kind: "ntfy", label: "Phone", url: "https://ntfy.example.net/ringside-fixture", token: "tk_upgradefixture" });
  const webhook = await alerts.addAlertChannel(person.userId, { kind: "webhook", label: "Home", url: "https://hooks.example.net/ringside" });
  const aq = await importFirst("lib/db/queries/alerts.ts", "lib/alerts/queries.ts");
  const rules = await aq.listAlertRules(person.userId);
  await alerts.setAlertRuleEnabled(person.userId, rules.find((r: { kind: string }) => r.kind === "weekly_digest")!.id, false);

  // the cycle (entries and settings) and a report link, where the schema has them
  let cycle: unknown = null;
  if (has("lib/services/cycle-entries.ts")) {
    const c = await import(path.resolve("lib/services/cycle-entries.ts"));
    await c.saveCycleSettings(person.userId, { tracking: true, hormonalContraception: false, pregnant: false });
    for (const [day, kind] of [
      ["2026-01-04", "period_start"],
      ["2026-01-08", "period_end"],
      ["2026-02-01", "period_start"],
      ["2026-03-01", "period_start"],
    ])
      await c.logCycleEntry(person.userId, { day, kind });
    const entries = await c.listCycleEntriesFor(person.userId, FROM, TODAY);
    const settings = await c.getCycleSettings(person.userId);
    cycle = {
      settings: { tracking: settings.tracking, hormonalContraception: settings.hormonalContraception, pregnant: settings.pregnant },
      entries: entries.map((e: { day: string; kind: string }) => ({ day: e.day, kind: e.kind })),
    };
  }
  let reportLinks: unknown[] = [];
  if (has("lib/schemas/report-links.ts")) {
    const { createReportLinkInputSchema } = await import(path.resolve("lib/schemas/report-links.ts"));
    const { createReportLink } = await import(path.resolve("lib/services/report-links.ts"));
    const input = createReportLinkInputSchema.parse({
      query: "from=2026-01-01&to=2026-03-14&compare=previous&sections=summary,charts",
      expiresDays: 30,
      label: "For the doctor",
    });
    const link = await createReportLink(person.userId, input);
    reportLinks = [{ id: link.summary.id, secretChecksum: secretChecksum(link.secret) }];
  }

  // the manifest, read back by this commit's own queries
  const { RING_COLLECTIONS, SERIES_COLLECTIONS, sampleSpecOf, tableOf } = await import("@/lib/resources");
  const { sqlAll } = await import("@/lib/test/sql");
  const { listRawDocuments } = await import("@/lib/db/queries/ring-documents");
  const { readSampleDays } = await import("@/lib/db/queries/time-series");
  const { decryptToken } = await import("@/lib/ring/tokens");
  const collections: Record<string, { count: number; documents: Array<[string, string, string]>; columns: Record<string, [number, string]> }> = {};
  for (const c of RING_COLLECTIONS) {
    const docs = await listRawDocuments(c, person.userId);
    const rows = (await sqlAll(`SELECT * FROM "${tableOf(c)}" WHERE "userId" = ?`, person.userId)) as Array<Record<string, unknown>>;
    collections[c] = {
      count: docs.length,
      documents: docs.map((d: { documentId: string | null; day: string; raw: string }) => [d.documentId ?? d.day, d.day, documentChecksum(JSON.parse(d.raw))]),
      columns: columnChecksums(rows.map((row) => ({ key: String(row.documentId ?? row.day), row }))),
    };
  }
  const series: Record<string, { count: number; days: Record<string, [number, string]> }> = {};
  for (const c of SERIES_COLLECTIONS) {
    const names = sampleSpecOf(c).fields.map((f: { name: string }) => f.name);
    const samples = (await readSampleDays({ collection: c, userId: person.userId, fromDay: "2000-01-01", toDay: "2099-12-31" })).flatMap(
      (d: { columns: { t: Float64Array; fields: Record<string, unknown[]> } }) =>
        [...d.columns.t].map((t, i) => ({ t, fields: Object.fromEntries(names.map((n: string) => [n, d.columns.fields[n]?.[i] ?? null])) })),
    );
    series[c] = { count: samples.length, days: seriesChecksums(samples) };
  }
  const info = await db.personalInfo.findFirst({ where: { userId: person.userId } });
  const user = await db.user.findUnique({ where: { id: person.userId } });
  const account = await db.account.findFirst({ where: { userId: person.userId } });
  const tokenRows = await db.apiToken.findMany({ where: { userId: person.userId }, orderBy: { name: "asc" } });
  const settings = await aq.getAlertSettings(person.userId);
  const channels = await aq.listAlertChannels(person.userId);
  const manifest = {
    format: MANIFEST_FORMAT,
    made: { commit, database: postgres ? "postgresql" : "sqlite", node: process.version, today: TODAY, range: [FROM, TODAY] },
    keys: { TOKEN_ENCRYPTION_KEY: process.env.TOKEN_ENCRYPTION_KEY },
    person: {
      userId: user.id,
      email: user.email,
      ringUserId: user.ringUserId,
      role: user.role,
      units: user.units,
      theme: user.theme,
      ...(user.sleepNeedMin === undefined ? {} : { sleepNeedMin: user.sleepNeedMin, freeDays: user.freeDays }),
    },
    session: { token: session.sessionToken, expires: session.expires.toISOString() },
    account: {
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      scope: account.scope,
      status: account.status,
      accessToken: secretChecksum(decryptToken(account.access_token)),
      refreshToken: secretChecksum(decryptToken(account.refresh_token)),
    },
    apiToken: { token: reader.token },
    apiTokens: tokenRows.map((r: { name: string; prefix: string; tokenHash: string; kinds: string; expiresAt?: Date | null }) => ({
      name: r.name,
      prefix: r.prefix,
      tokenHash: r.tokenHash,
      kinds: JSON.parse(r.kinds),
      ...(r.expiresAt === undefined ? {} : { expiresAt: r.expiresAt?.toISOString() ?? null }),
    })),
    personalInfo: documentChecksum(JSON.parse(info.raw)),
    collections,
    series,
    notes: (await notes.listDayNotes({ userId: person.userId, from: FROM, to: TODAY })).map(
      (n: { day: string; text: string; tags: Array<{ name: string }> }) => ({
        day: n.day,
        text: n.text,
        tags: n.tags.map((x) => x.name),
      }),
    ),
    tags: (await notes.listTags(person.userId)).map((x: { name: string; color: string | null; days: number }) => ({
      name: x.name,
      color: x.color,
      days: x.days,
    })),
    invites: [{ tokenHash: secretChecksum("upgrade-fixture-invite") }],
    alerts: {
      settings: {
        includeValues: settings.includeValues,
        timeZone: settings.timeZone,
        quietHours: settings.quietHours ?? null,
      },
      rules: (await aq.listAlertRules(person.userId)).map((r: { id: string; kind: string; enabled: boolean; params: unknown }) => ({
        id: r.id,
        kind: r.kind,
        enabled: r.enabled,
        params: r.params,
      })),
      channels: channels.map((c: { id: string; kind: string; label: string; url: string | null; enabled: boolean; secret: string | null }) => ({
        id: c.id,
        kind: c.kind,
        label: c.label,
        url: c.url,
        enabled: c.enabled,
        secret: c.secret ? secretChecksum(decryptToken(c.secret)) : null,
      })),
      webhookSecret: webhook.secret ? secretChecksum(webhook.secret) : null,
    },
    cycle,
    reportLinks,
  };
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify(manifest));
  if (postgres) {
    const { findPostgresBinDir } = await import("@/lib/test/postgres-server.mjs");
    execFileSync(path.join(findPostgresBinDir(), "pg_dump"), [
      "--inserts",
      "--rows-per-insert=100",
      "--no-owner",
      "--no-privileges",
      "-f",
      path.join(out, "dump.sql"),
      databaseUrl,
    ]);
  } else {
    const { rawDb } = await import("@/lib/db");
    rawDb().prepare("VACUUM INTO ?").run(path.join(out, "ringside.db"));
  }
});
