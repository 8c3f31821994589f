// Which days "have data" (a report's count, the calendar's states and bounds) come from the ring's
// own collections, never from the cycle's phases: a reader without the cycle kind must read the
// same before and after a person starts tracking (chaos 15 caught a report's count of days with
// data rising by the one day that had only a phase).
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { getDaysWithDocuments, getDocumentDayBounds } from "@/lib/db/queries/ring-data";

const USER = "u-days-with-data";

afterEach(async () => {
  await db.user.deleteMany({ where: { id: USER } });
  await db.dailyReadiness.deleteMany({ where: { userId: USER } });
  await db.dailyCyclePhases.deleteMany({ where: { userId: USER } });
});

describe("days with data", () => {
  it("counts the ring's collections' days and not a day that has only a cycle phase, nor a phase past the newest document", async () => {
    await db.user.create({ data: { id: USER, email: "days@example.test" } });
    for (const day of ["2026-03-01", "2026-03-03"])
      await db.dailyReadiness.create({ data: { userId: USER, documentId: `r-${day}`, day, score: 80, raw: "{}" } });
    for (const day of ["2026-02-27", "2026-03-02", "2026-03-03", "2026-03-05"])
      await db.dailyCyclePhases.create({ data: { userId: USER, documentId: `c-${day}`, day, cycle_day: 1, phase: "follicular", raw: "{}" } });

    const days = await getDaysWithDocuments({ userId: USER, from: "2026-02-20", to: "2026-03-10" });
    expect([...days].sort()).toEqual(["2026-03-01", "2026-03-03"]);
    expect(await getDocumentDayBounds(USER)).toEqual({ oldest: "2026-03-01", newest: "2026-03-03" });
  });
});
