// Alert deliveries claimed by several processes at once (PostgreSQL: separate connections, real
// concurrency) are each taken once: an e-mail or a webhook call is never sent twice.
import { clock } from "@/lib/clock";
import { beforeAll, expect, it } from "vitest";

let alerts: typeof import("@/lib/db/queries/alert-episodes");
let dbMod: typeof import("@/lib/test/prisma");

beforeAll(async () => {
  alerts = await import("@/lib/db/queries/alert-episodes");
  dbMod = await import("@/lib/test/prisma");
  await dbMod.db.user.create({ data: { id: "u-claims", email: "claims@example.test" } });
});

it("forty due deliveries claimed by eight claimers at once, round after round: every one taken exactly once, none before it is due", async () => {
  const due = new Date(clock.now() - 60_000);
  const later = new Date(clock.now() + 3_600_000);
  const base = { userId: "u-claims", channelKind: "webhook", channelLabel: "hook", purpose: "alert", title: "t", body: "b", status: "pending" };
  await dbMod.db.alertDelivery.createMany({ data: Array.from({ length: 40 }, () => ({ ...base, nextAttemptAt: due })) });
  await dbMod.db.alertDelivery.create({ data: { ...base, nextAttemptAt: later } });
  const now = clock.date();
  const lease = new Date(clock.now() + 600_000);
  const taken: Array<{ id: number; attempts: number }> = [];
  for (let round = 0; round < 10; round++) {
    const claims = (await Promise.all(Array.from({ length: 8 }, () => alerts.claimDueDeliveries(now, lease, 10)))).flat();
    if (claims.length === 0) break;
    taken.push(...claims);
  }
  const ids = taken.map((d) => d.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toHaveLength(40);
  expect(taken.every((d) => d.attempts === 1)).toBe(true);
  // nothing left due: one more claim takes nothing (the 41st is not due yet)
  expect(await alerts.claimDueDeliveries(clock.date(), lease, 10)).toEqual([]);
});
