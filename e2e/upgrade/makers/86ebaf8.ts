// Makes the upgrade fixture of commit 86ebaf8 (the first schema: 20261122022300_init), run inside a
// checkout of that commit by e2e/upgrade/make-fixture.mjs. Its own code does everything: the
// emulator of that commit serves a year, its sync engine stores it, its queries write the notes,
// tags and preferences, and read back what the manifest records. No heart rate, alerts or tokens
// yet at this schema.
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { connectPerson, startSyncTestEnv, type SyncTestEnv } from "@/lib/sync/test-kit";

const out = process.env.UPGRADE_FIXTURE_OUT!;
const manifestLib = process.env.UPGRADE_MANIFEST_LIB!;
const TODAY = "2026-03-15";
const FROM = "2025-03-15";

let t: SyncTestEnv;
afterAll(async () => t?.close());

it("makes the fixture", { timeout: 600_000 }, async () => {
  const { MANIFEST_FORMAT, columnChecksums, documentChecksum, secretChecksum } = (await import(manifestLib)) as typeof import("../manifest.mjs");
  t = await startSyncTestEnv({ historyDays: 366, today: TODAY, pageSize: 100 });
  const person = await connectPerson(t, { email: "upgrade-fixture@ringside.test" });
  const { SyncEngine } = await import("@/lib/sync/engine");
  const engine = new SyncEngine();
  await engine.snapshotPersonalInfo(person.userId);
  const outcomes = await engine.backfillUser(person.userId);
  expect(outcomes.filter((o) => o.result !== "done")).toEqual([]);

  // what a person sets: preferences, notes and tags on days, a tag's colour
  const { db } = await import("@/lib/db");
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
  const alcohol = (await notes.listTags(person.userId)).find((x) => x.name === "alcohol")!;
  await notes.updateTagFields({ id: alcohol.id, color: "#c0392b" });
  // a signed-in browser, and an invitation not yet used
  const session = await db.session.create({
    data: { sessionToken: "upgrade-fixture-session-token", userId: person.userId, expires: new Date("2099-01-01T00:00:00Z") },
  });
  const { createInvite } = await import("@/lib/db/queries/invites");
  await createInvite({ createdById: person.userId, tokenHash: secretChecksum("upgrade-fixture-invite"), expiresAt: new Date("2099-01-01T00:00:00Z") });

  // the manifest, read back by this commit's own queries
  const { RING_COLLECTIONS, tableOf } = await import("@/lib/resources");
  const { listRawDocuments } = await import("@/lib/db/queries/ring-documents");
  const { decryptToken } = await import("@/lib/ring/tokens");
  const { rawDb } = await import("@/lib/db");
  const collections: Record<string, { count: number; documents: Array<[string, string, string]>; columns: Record<string, [number, string]> }> = {};
  for (const c of RING_COLLECTIONS) {
    const docs = listRawDocuments(c, person.userId);
    const rows = rawDb()
      .prepare(`SELECT * FROM "${tableOf(c)}" WHERE "userId" = ?`)
      .all(person.userId) as Array<Record<string, unknown>>;
    collections[c] = {
      count: docs.length,
      documents: docs.map((d) => [d.documentId ?? d.day, d.day, documentChecksum(JSON.parse(d.raw))]),
      columns: columnChecksums(rows.map((row) => ({ key: String(row.documentId ?? row.day), row }))),
    };
  }
  const info = rawDb().prepare("SELECT raw FROM personal_info WHERE userId = ?").get(person.userId) as { raw: string };
  const user = (await db.user.findUnique({ where: { id: person.userId } }))!;
  const account = (await db.account.findFirst({ where: { userId: person.userId } }))!;
  const manifest = {
    format: MANIFEST_FORMAT,
    made: { commit: "86ebaf8", database: "sqlite", node: process.version, today: TODAY, range: [FROM, TODAY] },
    keys: { TOKEN_ENCRYPTION_KEY: process.env.TOKEN_ENCRYPTION_KEY },
    person: { userId: user.id, email: user.email, ringUserId: user.ringUserId, role: user.role, units: user.units, theme: user.theme },
    session: { token: session.sessionToken, expires: session.expires.toISOString() },
    account: {
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      scope: account.scope,
      status: account.status,
      accessToken: secretChecksum(decryptToken(account.access_token!)),
      refreshToken: secretChecksum(decryptToken(account.refresh_token!)),
    },
    apiToken: null,
    personalInfo: documentChecksum(JSON.parse(info.raw)),
    collections,
    series: {},
    notes: (await notes.listDayNotes({ userId: person.userId, from: FROM, to: TODAY })).map((n) => ({
      day: n.day,
      text: n.text,
      tags: n.tags.map((x) => x.name),
    })),
    tags: (await notes.listTags(person.userId)).map((x) => ({ name: x.name, color: x.color, days: x.days })),
    invites: [{ tokenHash: secretChecksum("upgrade-fixture-invite") }],
  };
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify(manifest));
  rawDb().prepare("VACUUM INTO ?").run(path.join(out, "ringside.db"));
});
