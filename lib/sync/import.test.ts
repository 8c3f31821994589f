import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { rawDb } from "@/lib/db";
import { generateRange } from "@/lib/emulator/fixtures";
import { importRingsideExport, ringsideExportSchema } from "@/lib/sync/import";

async function makeUser(email: string) {
  return db.user.create({ data: { email } });
}

function exportFile() {
  const docs = generateRange({ seed: "import-test", userKey: "someone" }, "2026-01-01", "2026-01-31");
  return ringsideExportSchema.parse({
    format: "ringside-export-v1",
    personal_info: { id: "ring-user-1", age: 40, weight: 70.5, height: 1.75, biological_sex: "female", email: null },
    notes: [{ day: "2026-01-05", text: "late dinner", tags: ["alcohol"] }],
    tags: [{ name: "alcohol", color: null }, { name: "travel", color: "#ff0000" }],
    collections: { ...docs, not_a_collection: [{ day: "2026-01-01" }] },
  });
}

const count = (table: string, userId: string) =>
  (rawDb().prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE userId = ?`).get(userId) as { n: number }).n;

describe("importRingsideExport", () => {
  it("stores every document of the file for the importing person, with notes and tags", async () => {
    const user = await makeUser("import-a@example.test");
    const file = exportFile();
    const result = await importRingsideExport(user.id, file);
    for (const [collection, docs] of Object.entries(file.collections)) {
      if (collection === "not_a_collection") continue;
      expect(result.documents[collection], collection).toBe(docs.length);
    }
    expect(result.ignoredCollections).toEqual(["not_a_collection"]);
    expect(count("daily_sleep", user.id)).toBe(file.collections.daily_sleep!.length);
    expect(count("sleep_period", user.id)).toBe(file.collections.sleep!.length);
    expect(result.tags).toBe(2);
    expect(result.notes).toBe(1);
    const note = rawDb().prepare("SELECT text FROM day_note WHERE userId = ? AND day = '2026-01-05'").pluck().get(user.id);
    expect(note).toBe("late dinner");
    const info = rawDb().prepare("SELECT age, ringUserId FROM personal_info WHERE userId = ?").get(user.id);
    expect(info).toEqual({ age: 40, ringUserId: "ring-user-1" });
  });

  it("is idempotent: importing the same file twice changes nothing", async () => {
    const user = await makeUser("import-b@example.test");
    const file = exportFile();
    await importRingsideExport(user.id, file);
    const before = rawDb().prepare("SELECT documentId, day, score, raw FROM daily_readiness WHERE userId = ? ORDER BY day").all(user.id);
    await importRingsideExport(user.id, file);
    const after = rawDb().prepare("SELECT documentId, day, score, raw FROM daily_readiness WHERE userId = ? ORDER BY day").all(user.id);
    expect(after).toEqual(before);
    expect(count("tag", user.id)).toBe(2);
  });

  it("keeps an invalid document aside instead of storing or dropping it", async () => {
    const user = await makeUser("import-c@example.test");
    const file = exportFile();
    file.collections.daily_stress = [{ id: "bad-1", day: "not a day", stress_high: "lots" }];
    const result = await importRingsideExport(user.id, file);
    expect(result.documents.daily_stress).toBe(0);
    expect(result.rejected).toBe(1);
    expect(count("rejected_document", user.id)).toBe(1);
  });

  it("rejects a file that is not a Ringside export", () => {
    expect(ringsideExportSchema.safeParse({ format: "something-else", collections: {} }).success).toBe(false);
    expect(ringsideExportSchema.safeParse({ format: "ringside-export-v1" }).success).toBe(false);
  });
});
