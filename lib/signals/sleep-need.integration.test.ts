// The sleep need end to end on the real (temporary) database: planted people (the bench's own,
// e2e/bench/sleep-need-people.ts) imported through Ringside's own import (POST /api/import with a
// "ringside-export-v1" file), their need read back through the read API with a personal access
// token (GET /api/v1/signals): the need found near the planted one, with its range and its source
// in words; a person whose nights never reach the plateau reads "at least" and a debt that is a
// lower bound; a person's own setting comes first.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { addDays } from "@/lib/days";
import { sleepDebtAt } from "@/lib/signals/sleep-debt";
import { sleepNeedAt } from "@/lib/signals/sleep-need";
import type { SleepDebtSignal } from "@/lib/signals/signal-days";
import type { SignalsResponse } from "@/lib/services/signals";
import { makeSleepNeedPerson, sleepNeedBenchPeople, sleepNeedExport, type SleepNeedPerson } from "../../e2e/bench/sleep-need-people";
import { mulberry32, Rng, seedOf } from "../../e2e/bench/cycle-people";

const session = vi.hoisted(() => ({ user: { id: "", email: "", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({ requireUser: async () => session.user, currentUser: async () => session.user }));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const H = 3600;

const bench = sleepNeedBenchPeople();
const people: Record<string, SleepNeedPerson> = {
  plateau: bench.find((p) => p.variant === "plateau")!,
  rising: bench.find((p) => p.variant === "rising")!,
  // need 9 h; work nights an hour short, free nights 40 minutes short (± 35): every night short, never the plateau
  short: makeSleepNeedPerson(new Rng(mulberry32(seedOf("integration-always-short"))), {
    key: "short",
    variant: "plateau",
    first: bench[0]!.first,
    days: bench[0]!.days,
    needS: 9 * H,
    shortMin: 60,
    longMin: -40,
  }),
};
const tokens: Record<string, string> = {};

async function importAs(userId: string, file: unknown): Promise<{ status: number; rejected: number }> {
  session.user = { id: userId, email: `${userId}@example.test`, role: "owner" };
  const { POST } = await import("@/app/api/import/route");
  const res = await (POST as unknown as Handler)(
    new Request("http://localhost/api/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify(file),
    }),
    { params: Promise.resolve({}) },
  );
  const body = (await res.json()) as { rejected: number };
  return { status: res.status, rejected: body.rejected };
}

/** The sleep-debt row of the person's last day, read through GET /api/v1/signals. */
async function lastRow(key: string, p: SleepNeedPerson): Promise<SleepDebtSignal> {
  const last = addDays(p.first, p.days - 1);
  const { GET } = await import("@/app/api/v1/signals/route");
  const res = await (GET as unknown as Handler)(
    new Request(`http://localhost/api/v1/signals?from=${last}&to=${last}`, { headers: { authorization: `Bearer ${tokens[key]}` } }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as SignalsResponse;
  const row = body.days.at(-1)!.signals.find((s): s is SleepDebtSignal => s.kind === "sleep_debt");
  expect(row).toBeDefined();
  return row!;
}

beforeAll(async () => {
  const { db } = await import("@/lib/test/prisma");
  const { createApiToken } = await import("@/lib/services/api-tokens");
  for (const key of [...Object.keys(people), "setting"]) {
    const id = `u-need-${key}`;
    await db.user.create({ data: { id, email: `${id}@example.test`, role: "owner" } });
    tokens[key] = (await createApiToken(id, { name: "sleep need", kinds: DATA_KINDS })).token;
  }
  for (const [key, p] of Object.entries(people)) expect(await importAs(`u-need-${key}`, sleepNeedExport(p))).toEqual({ status: 200, rejected: 0 });
  expect(await importAs("u-need-setting", sleepNeedExport(people.plateau!))).toEqual({ status: 200, rejected: 0 });
  const { saveSignalSettings } = await import("@/lib/services/signals");
  await saveSignalSettings("u-need-setting", { sleepNeedMinutes: 450 });
});

describe("the sleep need of planted people, imported and read back from /api/v1/signals", () => {
  for (const key of ["plateau", "rising"] as const) {
    it(`${key}: the need within 30 minutes of the planted one, its range and "estimated from N nights"; the debt against it`, async () => {
      const p = people[key]!;
      const row = await lastRow(key, p);
      const i = p.days - 1;
      const need = sleepNeedAt(p.sleep, p.readiness, i, null);
      // what the pure functions give on the same nights, as the row rounds it
      expect(row.baseline).toEqual({
        needH: Math.round((need.seconds / H) * 100) / 100,
        needSource: "estimated",
        needNights: need.nights,
        needRange: { lowH: Math.round((need.range!.low / H) * 100) / 100, highH: Math.round((need.range!.high / H) * 100) / 100 },
        needAtLeast: false,
        needSourceText: `estimated from ${need.nights} nights`,
      });
      expect(need.nights).toBeGreaterThanOrEqual(80);
      expect(Math.abs(row.baseline.needH * H - p.needS)).toBeLessThanOrEqual(30 * 60);
      expect(row.baseline.needRange!.lowH).toBeLessThanOrEqual(row.baseline.needH);
      expect(row.baseline.needRange!.highH).toBeGreaterThanOrEqual(row.baseline.needH);
      expect(row.value).toBe(Math.round((sleepDebtAt(p.sleep, i, need.seconds).seconds! / H) * 100) / 100);
    });
  }

  it("nights that never reach the plateau: at least the longest well-rested night, and the debt a lower bound", async () => {
    const p = people.short!;
    const row = await lastRow("short", p);
    expect(row.baseline).toMatchObject({ needSource: "estimated", needAtLeast: true, needRange: { highH: 10 } });
    expect(row.baseline.needSourceText).toMatch(/^estimated from \d+ nights$/);
    expect(row.baseline.needH).toBeLessThanOrEqual(9);
    expect(row.baseline.needRange!.lowH).toBe(row.baseline.needH);
    expect(row.value!).toBeLessThanOrEqual(sleepDebtAt(p.sleep, p.days - 1, p.needS).seconds! / H);
  });

  it("the person's own setting comes first: no range, the source says so", async () => {
    const row = await lastRow("setting", people.plateau!);
    expect(row.baseline).toEqual({ needH: 7.5, needSource: "setting", needNights: 0, needRange: null, needAtLeast: false, needSourceText: "your setting" });
  });
});
