import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { sqlAll, sqlValue } from "@/lib/test/sql";
import { AppError } from "@/lib/http/errors";
import { generateRange } from "@/lib/emulator/generator";
import { IMPORT_LIMITS, ringsideExportSchema } from "@/lib/import/ringside";
import { runImport, type RunOptions } from "@/lib/import/run";

const importRingsideExport = (userId: string, body: AsyncIterable<Uint8Array>, opts: RunOptions = {}) =>
  runImport(userId, { type: "file", name: "export.json", body }, opts);

/** A file as the request body delivers it: in chunks of `size` bytes (odd, to split every kind of token). */
async function* chunks(text: string | Buffer, size = 7_777): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const asBody = (file: unknown, size?: number) => chunks(JSON.stringify(file), size);

async function makeUser(email: string) {
  return db.user.create({ data: { email } });
}

function exportFile() {
  const docs = generateRange({ seed: "import-test", userKey: "someone" }, "2026-01-01", "2026-01-31");
  return ringsideExportSchema.parse({
    format: "ringside-export-v1",
    personal_info: { id: "ring-user-1", age: 40, weight: 70.5, height: 1.75, biological_sex: "female", email: null },
    notes: [{ day: "2026-01-05", text: "late dinner", tags: ["alcohol"] }],
    tags: [
      { name: "alcohol", color: null },
      { name: "travel", color: "#ff0000" },
    ],
    collections: { ...docs, not_a_collection: [{ day: "2026-01-01" }] },
  });
}

const count = async (table: string, userId: string) => Number(await sqlValue(`SELECT COUNT(*) AS n FROM ${table} WHERE userId = ?`, userId));

describe("importRingsideExport", () => {
  it("stores every document of the file for the importing person, with notes and tags", async () => {
    const user = await makeUser("import-a@example.test");
    const file = exportFile();
    const result = await importRingsideExport(user.id, asBody(file));
    for (const [collection, docs] of Object.entries(file.collections)) {
      if (collection === "not_a_collection") continue;
      expect(result.documents[collection], collection).toBe(docs.length);
    }
    expect(result.ignoredCollections).toEqual(["not_a_collection"]);
    expect(await count("daily_sleep", user.id)).toBe(file.collections.daily_sleep!.length);
    expect(await count("sleep_period", user.id)).toBe(file.collections.sleep!.length);
    expect(result.tags).toBe(2);
    expect(result.notes?.new).toBe(1);
    const note = await sqlValue("SELECT text FROM day_note WHERE userId = ? AND day = '2026-01-05'", user.id);
    expect(note).toBe("late dinner");
    const info = (await sqlAll("SELECT age, ringUserId FROM personal_info WHERE userId = ?", user.id))[0];
    expect(info).toEqual({ age: 40, ringUserId: "ring-user-1" });
  });

  it("is idempotent: importing the same file twice changes nothing", async () => {
    const user = await makeUser("import-b@example.test");
    const file = exportFile();
    await importRingsideExport(user.id, asBody(file));
    const before = await sqlAll("SELECT documentId, day, score, raw FROM daily_readiness WHERE userId = ? ORDER BY day", user.id);
    await importRingsideExport(user.id, asBody(file));
    const after = await sqlAll("SELECT documentId, day, score, raw FROM daily_readiness WHERE userId = ? ORDER BY day", user.id);
    expect(after).toEqual(before);
    expect(await count("tag", user.id)).toBe(2);
  });

  it("keeps an invalid document aside instead of storing or dropping it", async () => {
    const user = await makeUser("import-c@example.test");
    const file = exportFile();
    file.collections.daily_stress = [{ id: "bad-1", day: "not a day", stress_high: "lots" }];
    const result = await importRingsideExport(user.id, asBody(file));
    expect(result.documents.daily_stress).toBe(0);
    expect(result.rejected).toBe(1);
    expect(await count("rejected_document", user.id)).toBe(1);
  });

  it("imports the time series' samples into their days: a sample twice is stored once, a bad one is set aside", async () => {
    const user = await makeUser("import-series@example.test");
    const hr = [
      { bpm: 68, source: "sleep", timestamp: "2026-01-05T00:00:14+00:00", timestamp_unix: Date.parse("2026-01-05T00:00:14Z") },
      { bpm: 71, source: "awake", timestamp: "2026-01-05T08:00:00+00:00", timestamp_unix: Date.parse("2026-01-05T08:00:00Z") },
      { bpm: 71, source: "awake", timestamp: "2026-01-05T08:00:00+00:00", timestamp_unix: Date.parse("2026-01-05T08:00:00Z") },
      { bpm: 90, source: "workout", timestamp: "2026-01-06T07:00:05+00:00", timestamp_unix: Date.parse("2026-01-06T07:00:05Z") },
      { bpm: "n/a", source: "awake", timestamp: "2026-01-06T08:00:00+00:00" },
    ];
    const battery = [
      { charging: false, in_charger: false, level: 23, timestamp: "2026-01-05T00:03:49+00:00", timestamp_unix: Date.parse("2026-01-05T00:03:49Z") },
    ];
    const result = await importRingsideExport(
      user.id,
      asBody({ format: "ringside-export-v1", collections: { heartrate: hr, ring_battery_level: battery } }, 101),
    );
    expect(result).toMatchObject({ documents: { heartrate: 4, ring_battery_level: 1 }, rejected: 1, ignoredCollections: [] });
    const rows = await sqlAll("SELECT day, count FROM heart_rate WHERE userId = ? ORDER BY day", user.id);
    expect(rows).toEqual([
      { day: "2026-01-05", count: 2 },
      { day: "2026-01-06", count: 1 },
    ]);
    // importing it again changes nothing
    await importRingsideExport(user.id, asBody({ format: "ringside-export-v1", collections: { heartrate: hr } }));
    expect(Number(await sqlValue("SELECT SUM(count) FROM heart_rate WHERE userId = ?", user.id))).toBe(3);
  });

  it("rejects a file that is not a Ringside export", () => {
    expect(ringsideExportSchema.safeParse({ format: "something-else", collections: {} }).success).toBe(false);
    expect(ringsideExportSchema.safeParse({ format: "ringside-export-v1" }).success).toBe(false);
  });

  it("reads the file in any chunking: one byte at a time gives the same result", async () => {
    const user = await makeUser("import-d@example.test");
    const docs = generateRange({ seed: "import-test", userKey: "tiny" }, "2026-01-01", "2026-01-02");
    const file = { format: "ringside-export-v1", notes: [{ day: "2026-01-01", text: 'a "quoted" \\ note \u00e9', tags: ["x"] }], tags: [], collections: docs };
    const result = await importRingsideExport(user.id, asBody(file, 1));
    expect(result.notes?.new).toBe(1);
    expect(result.documents.daily_sleep).toBe(docs.daily_sleep!.length);
    expect(await sqlValue("SELECT text FROM day_note WHERE userId = ?", user.id)).toBe('a "quoted" \\ note é');
  });
});

describe("importRingsideExport: refused files store nothing", () => {
  const stored = async (userId: string) =>
    (await Promise.all(["daily_sleep", "daily_activity", "rejected_document", "day_note", "tag"].map((t) => count(t, userId)))).reduce((n, c) => n + c, 0);

  async function refused(body: AsyncIterable<Uint8Array>): Promise<{ code: string; status: number; stored: number }> {
    const user = await makeUser(`import-refused-${Math.random().toString(36).slice(2)}@example.test`);
    try {
      await importRingsideExport(user.id, body);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      const e = err as AppError;
      return { code: e.code, status: e.status, stored: await stored(user.id) };
    }
    throw new Error("the import was not refused");
  }

  it("a collection with more items than allowed → 413, after reading only a little of it", async () => {
    let sent = 0;
    async function* endless() {
      yield Buffer.from('{"format":"ringside-export-v1","collections":{"x":[{}');
      for (let i = 0; i < 100_000; i++) {
        const part = Buffer.from(",{}".repeat(10_000));
        sent += part.length;
        yield part;
      }
      yield Buffer.from("]}}");
    }
    expect(await refused(endless())).toEqual({ code: "payload_too_large", status: 413, stored: 0 });
    // 200,000 items of 3 bytes: refused after about 600 kB, not after the 3 GB offered.
    expect(sent).toBeLessThan(IMPORT_LIMITS.maxItemsPerCollection * 3 + 60_000);
  });

  it("a document, a string or a key over its limit, too many collections, too deep → 413", async () => {
    const doc = { id: "a", day: "2026-01-01", blob: "x".repeat(IMPORT_LIMITS.maxStringBytes + 1) };
    expect((await refused(asBody({ format: "ringside-export-v1", collections: { daily_sleep: [doc] } }))).status).toBe(413);
    const wide = { id: "a", day: "2026-01-01", list: Array.from({ length: 30_000 }, () => "abcdefghij") };
    expect((await refused(asBody({ format: "ringside-export-v1", collections: { daily_sleep: [wide] } }))).status).toBe(413);
    expect((await refused(asBody({ format: "ringside-export-v1", collections: { ["k".repeat(IMPORT_LIMITS.maxKeyBytes + 1)]: [] } }))).status).toBe(413);
    const many = Object.fromEntries(Array.from({ length: IMPORT_LIMITS.maxCollections + 1 }, (_, i) => [`c${i}`, []]));
    expect((await refused(asBody({ format: "ringside-export-v1", collections: many }))).status).toBe(413);
    const deep = `{"format":"ringside-export-v1","collections":{"daily_sleep":[${"[".repeat(5_000)}${"]".repeat(5_000)}]}}`;
    expect((await refused(chunks(deep))).status).toBe(413);
  });

  it("not an export → 422; a bad note or tag → 422 even after valid documents; not JSON → 400", async () => {
    const docs = generateRange({ seed: "import-test", userKey: "late-bad" }, "2026-01-01", "2026-01-10");
    expect(await refused(asBody({ format: "something-else", collections: docs }))).toEqual({ code: "unprocessable_entity", status: 422, stored: 0 });
    expect((await refused(asBody({ format: "ringside-export-v1" }))).status).toBe(422);
    expect((await refused(asBody([1, 2, 3]))).status).toBe(422);
    expect((await refused(asBody({ format: "ringside-export-v1", collections: { daily_sleep: {} } }))).status).toBe(422);
    // The bad note comes after every document: still nothing of the file is stored.
    const late = JSON.stringify({ format: "ringside-export-v1", collections: docs }).slice(0, -1) + ',"notes":[{"day":"9999-12-31","text":"x","tags":[]}]}';
    expect(await refused(chunks(late))).toEqual({ code: "unprocessable_entity", status: 422, stored: 0 });
    expect(await refused(asBody({ format: "ringside-export-v1", tags: [{ name: "" }], collections: {} }))).toEqual({
      code: "unprocessable_entity",
      status: 422,
      stored: 0,
    });
    expect((await refused(chunks('{"format":"ringside-export-v1","collections":{"daily_sleep":[{"id":"a",}]}}'))).status).toBe(400);
    expect((await refused(chunks('{"format":"ringside-export-v1","collections":{}} trailing'))).status).toBe(400);
    expect((await refused(chunks('{"format":"ringside-export-v1","collections":{}'))).status).toBe(400);
    expect((await refused(chunks(""))).status).toBe(400);
  });

  it("leaves no spooled file behind, imported or refused", async () => {
    const dir = process.env.DATA_DIR!;
    const user = await makeUser("import-spool@example.test");
    await importRingsideExport(user.id, asBody({ format: "ringside-export-v1", collections: {} }));
    await importRingsideExport(user.id, chunks("{")).catch(() => undefined);
    expect(fs.existsSync(`${dir}/imports`) ? fs.readdirSync(`${dir}/imports`) : []).toEqual([]);
  });
});
