// The webhook inbox's contract, held to both databases: SQLite (the test file's own database)
// and PostgreSQL (a database of this file's own on the run's private server).
import { clock } from "@/lib/clock";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookEventStore, type WebhookEventRow, type WebhookEventStore } from "@/lib/db/queries/webhook-events";
import type { ProcessDb } from "@/lib/db/prisma";
import { useMigratedPostgres } from "@/lib/test/postgres";
import { db, pgClient } from "@/lib/test/prisma";

const pg = useMigratedPostgres("inbox");

type Backend = {
  name: string;
  store: () => WebhookEventStore;
  clear: () => Promise<void>;
  all: () => Promise<WebhookEventRow[]>;
  age: (ms: number) => Promise<void>;
};

function backend(name: string, client: () => ProcessDb): Backend {
  return {
    name,
    store: () => webhookEventStore(client()),
    clear: async () => void (await client().webhookEvent.deleteMany()),
    all: () => client().webhookEvent.findMany({ orderBy: { id: "asc" } }),
    age: async (ms) => void (await client().webhookEvent.updateMany({ data: { receivedAt: new Date(clock.now() - ms) } })),
  };
}

let pgDb: ProcessDb | undefined;
const backends: Backend[] = [backend("sqlite", () => db), backend("postgresql", () => (pgDb ??= pgClient(pg.pool)))];

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
    const before = clock.now();
    expect(await inbox.record(event(1))).toBe(true);
    expect(await inbox.record(event(1, { objectId: "other" }))).toBe(false);
    const rows = await b.all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ dedupeKey: "key-1", objectId: "doc-1", status: "queued", processedAt: null, error: null });
    expect(rows[0]!.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(rows[0]!.receivedAt.getTime()).toBeLessThanOrEqual(clock.now());
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
