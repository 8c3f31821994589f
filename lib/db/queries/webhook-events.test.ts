// The webhook inbox's contract, held to both databases: SQLite (the test file's own database)
// and PostgreSQL (a database of this file's own on the run's private server).
import { clock } from "@/lib/clock";
import { beforeEach, describe, expect, it } from "vitest";
import { rawDb } from "@/lib/db";
import { webhookEventStore, type WebhookEventRow, type WebhookEventStore } from "@/lib/db/queries/webhook-events";
import { postgresDatabase, sqliteDatabase } from "@/lib/db/sql";
import { useMigratedPostgres } from "@/lib/test/postgres";

const pg = useMigratedPostgres("inbox");

type Backend = {
  name: string;
  store: () => WebhookEventStore;
  clear: () => Promise<void>;
  all: () => Promise<WebhookEventRow[]>;
  age: (ms: number) => Promise<void>;
};

const backends: Backend[] = [
  {
    name: "sqlite",
    store: () => webhookEventStore(sqliteDatabase()),
    clear: async () => void rawDb().prepare("DELETE FROM webhook_event").run(),
    all: async () => rawDb().prepare("SELECT * FROM webhook_event ORDER BY id").all() as WebhookEventRow[],
    age: async (ms) =>
      void rawDb()
        .prepare("UPDATE webhook_event SET receivedAt = ?")
        .run(new Date(clock.now() - ms).toISOString().replace("Z", "+00:00")),
  },
  {
    name: "postgresql",
    store: () => webhookEventStore(postgresDatabase(pg.pool())),
    clear: async () => void (await pg.pool().query("DELETE FROM webhook_event")),
    all: async () => (await pg.pool().query<WebhookEventRow>("SELECT * FROM webhook_event ORDER BY id")).rows,
    age: async (ms) => void (await pg.pool().query(`UPDATE webhook_event SET "receivedAt" = $1`, [new Date(clock.now() - ms).toISOString()])),
  },
];

const event = (n: number, over: Partial<WebhookEventRow> = {}) => ({
  dedupeKey: `key-${n}`,
  ringUserId: "ring-u",
  dataType: "daily_sleep",
  eventType: "create",
  objectId: `doc-${n}`,
  eventTime: null,
  ...over,
});

describe.each(backends)("webhook inbox on $name", (b) => {
  let inbox: WebhookEventStore;
  beforeEach(async () => {
    inbox = b.store();
    await b.clear();
  });

  it("records a notification once: the duplicate is acknowledged and changes nothing", async () => {
    expect(await inbox.record(event(1))).toBe(true);
    expect(await inbox.record(event(1, { objectId: "other" }))).toBe(false);
    const rows = await b.all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ dedupeKey: "key-1", objectId: "doc-1", status: "queued", processedAt: null, error: null });
    expect(Number.isNaN(Date.parse(rows[0]!.receivedAt))).toBe(false);
  });

  it("lists queued notifications oldest first from a watermark, without excluded ones; settles one or many", async () => {
    for (let i = 1; i <= 6; i++) await inbox.record(event(i));
    const ids = (await b.all()).map((r) => r.id);
    expect((await inbox.listQueued(3)).map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect((await inbox.listQueued(10, [ids[1]!], ids[1]!)).map((r) => r.id)).toEqual(ids.slice(2));
    await inbox.mark(ids[0]!, "applied");
    await inbox.mark(ids[2]!, "failed", "e".repeat(900));
    await inbox.markMany(
      [
        { id: ids[3]!, reason: "unknown user" },
        { id: ids[4]!, reason: "data type not stored" },
      ],
      "ignored",
    );
    await inbox.markMany([], "ignored");
    const rows = await b.all();
    expect(rows.map((r) => r.status)).toEqual(["applied", "queued", "failed", "ignored", "ignored", "queued"]);
    expect(rows[2]!.error).toHaveLength(500);
    expect(rows[4]!.error).toBe("data type not stored");
    expect(rows.filter((r) => r.status !== "queued").every((r) => r.processedAt !== null)).toBe(true);
    expect(await inbox.watermark()).toEqual({ firstQueuedId: ids[1], maxId: ids[5] });
    expect(await inbox.watermark(ids[2])).toEqual({ firstQueuedId: ids[5], maxId: ids[5] });
    await inbox.markMany(
      [
        { id: ids[1]!, reason: "" },
        { id: ids[5]!, reason: "" },
      ],
      "applied",
    );
    expect(await inbox.watermark()).toEqual({ firstQueuedId: null, maxId: ids[5] });
  });

  it("an empty inbox has no watermark; pruning forgets only old processed notifications", async () => {
    expect(await inbox.watermark()).toEqual({ firstQueuedId: null, maxId: 0 });
    for (let i = 1; i <= 3; i++) await inbox.record(event(i));
    const ids = (await b.all()).map((r) => r.id);
    await inbox.mark(ids[0]!, "applied");
    await inbox.mark(ids[1]!, "ignored");
    expect(await inbox.prune(clock.now() - 60_000)).toBe(0);
    await b.age(40 * 86_400_000);
    expect(await inbox.prune(clock.now() - 30 * 86_400_000)).toBe(2);
    expect((await b.all()).map((r) => r.status)).toEqual(["queued"]);
  });
});
