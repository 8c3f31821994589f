import { describe, expect, it } from "vitest";
import { rawDb, verifyPragmas } from "@/lib/db";
import { db } from "@/lib/test/prisma";
import { BUSY_TIMEOUT_MS, PRAGMAS } from "@/lib/db/sqlite.mjs";

// The app's connection and the tests' Prisma client are opened one way (lib/db/sqlite.mjs).
describe("database connections", () => {
  it("give the app's connection and the tests' Prisma client the same settings", async () => {
    const names = PRAGMAS.map((p) => p.split("=")[0]!.trim());
    const raw = Object.fromEntries(names.map((n) => [n, String(rawDb().pragma(n, { simple: true }))]));
    const viaPrisma: Record<string, string> = {};
    for (const n of names) {
      const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(`PRAGMA ${n}`);
      viaPrisma[n] = String(Object.values(rows[0] ?? {})[0]);
    }
    expect(viaPrisma).toEqual(raw);
    expect(raw).toEqual({ journal_mode: "wal", synchronous: "1", foreign_keys: "1" });
    expect(rawDb().pragma("busy_timeout", { simple: true })).toBe(BUSY_TIMEOUT_MS);
    await expect(verifyPragmas()).resolves.toEqual({ journalMode: "wal", busyTimeout: BUSY_TIMEOUT_MS });
  });
});
