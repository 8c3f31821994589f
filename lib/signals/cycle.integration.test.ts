// The cycle end to end on the real (temporary) database: a synthetic woman's nights imported
// through Ringside's own import (the bench's file, e2e/bench/cycle-measure.ts), her period starts
// logged and tracking turned on through the entries service, then read back through
// GET /api/v1/signals (cycle_adjusted on every row, a correction said on luteal nights) and
// getCycle (phases, ovulations, a prediction), and the temperature's normal range on a chart.
// With tracking off, nothing is corrected and no row carries a cycle field.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { addDays } from "@/lib/days";
import type { SignalsResponse } from "@/lib/services/signals";
import { makePeople } from "../../e2e/bench/cycle-people";
import { exportOf } from "../../e2e/bench/cycle-measure";

const USER = "u-cycle-signals";
const session = vi.hoisted(() => ({ user: { id: "u-cycle-signals", email: "cycle@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({ requireUser: async () => session.user, currentUser: async () => session.user }));

const woman = makePeople({ seed: "cycle-integration", women: 1, men: 0, days: 400, first: "2025-01-01", illnessesPerYear: 0 })[0]!;
const LAST = addDays(woman.first, woman.days - 1);
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let token = "";

async function readSignals(from: string, to: string): Promise<SignalsResponse> {
  const { GET } = await import("@/app/api/v1/signals/route");
  const res = await (GET as unknown as Handler)(
    new Request(`http://localhost/api/v1/signals?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${token}` } }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as SignalsResponse;
}

const earlyWarnings = (s: SignalsResponse) => s.days.flatMap((d) => d.signals.flatMap((x) => (x.kind === "early_warning" ? [{ day: d.day, ...x }] : [])));

beforeAll(async () => {
  const { db } = await import("@/lib/test/prisma");
  await db.user.create({ data: { id: USER, email: "cycle@example.test", role: "owner" } });
  const { createApiToken } = await import("@/lib/services/api-tokens");
  token = (await createApiToken(USER, { name: "cycle", kinds: DATA_KINDS })).token;
  const { POST } = await import("@/app/api/import/route");
  const res = await (POST as unknown as Handler)(
    new Request("http://localhost/api/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: exportOf(woman, "integration"),
    }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
  const { logCycleEntry, saveCycleSettings } = await import("@/lib/services/cycle-entries");
  await saveCycleSettings(USER, { tracking: true });
  for (const s of woman.periodStarts) await logCycleEntry(USER, { day: addDays(woman.first, s), kind: "period_start" });
});

describe("a woman who tracks her cycle", () => {
  it("early-warning rows say cycle_adjusted, and luteal nights say the correction", async () => {
    const rows = earlyWarnings(await readSignals(addDays(LAST, -89), LAST));
    expect(rows).toHaveLength(90);
    expect(rows.every((r) => typeof r.cycle_adjusted === "boolean")).toBe(true);
    const adjusted = rows.filter((r) => r.cycle_adjusted);
    expect(adjusted.length).toBeGreaterThan(80);
    expect(adjusted.some((r) => r.cycle_correction?.startsWith("Luteal night: your usual luteal change (temperature +"))).toBe(true);
    expect(rows.filter((r) => !r.cycle_adjusted).every((r) => r.cycle_correction === undefined)).toBe(true);
  });

  it("getCycle: phases, ovulations found, a prediction from her own cycles", async () => {
    const { getCycle } = await import("@/lib/services/cycle");
    const c = await getCycle({ userId: USER, from: addDays(LAST, -119), to: LAST });
    expect(c.status).toBe("ok");
    expect(c.days).toHaveLength(120);
    expect([...new Set(c.days.map((d) => d.phase))]).toEqual(expect.arrayContaining(["menstrual", "follicular", "luteal"]));
    expect(c.days.filter((d) => d.ovulation).length).toBeGreaterThanOrEqual(3);
    expect(c.prediction).not.toBeNull();
    expect(c.temperature).toHaveLength(120);
  });

  it("someone tracking without a period start known is told so, and gets no made-up phase", async () => {
    const { db } = await import("@/lib/test/prisma");
    await db.user.create({ data: { id: "u-cycle-new", email: "cycle-new@example.test", role: "member" } });
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings("u-cycle-new", { tracking: true });
    const { getCycle, getCycleToday } = await import("@/lib/services/cycle");
    const c = await getCycle({ userId: "u-cycle-new", from: "2025-03-01", to: "2025-03-31" });
    expect(c).toMatchObject({ status: "insufficient_data", message: "Log a period start to see your cycle days.", prediction: null });
    expect(c.days.every((d) => d.phase === "unknown" && d.cycle_day === null && !d.ovulation)).toBe(true);
    expect(await getCycleToday("u-cycle-new")).toMatchObject({ cycle_day: null, phase: "unknown", next_period: null });
    await expect(getCycle({ userId: "u-cycle-new", from: "2025-03-31", to: "2025-03-01" })).rejects.toMatchObject({ status: 422 });
  });

  it("with tracking off: nothing is corrected, and the cycle says so", async () => {
    const { getMetricSeries } = await import("@/lib/services/metrics");
    const { getMetric } = await import("@/lib/metrics/catalog");
    const chart = async () => {
      const series = await getMetricSeries({ userId: USER, metric: getMetric("readiness.temperature_deviation"), from: addDays(LAST, -59), to: LAST });
      return series.kind === "numeric" ? series.normal : undefined;
    };
    const aware = await chart();
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings(USER, { tracking: false });
    const plain = await chart();
    // the cycle-aware band steps up and down with the phase; the plain one does not
    const spread = (xs: Array<number | null> | undefined) => Math.max(...xs!.map((v) => v ?? -Infinity)) - Math.min(...xs!.map((v) => v ?? Infinity));
    expect(spread(aware?.low)).toBeGreaterThan(spread(plain?.low) + 0.1);
    // while she does not track, no reader gets a cycle field, not even her own token with the cycle kind
    const rows = earlyWarnings(await readSignals(addDays(LAST, -29), LAST));
    expect(rows.every((r) => !("cycle_adjusted" in r) && !("cycle_correction" in r))).toBe(true);
    const { getCycle } = await import("@/lib/services/cycle");
    expect(await getCycle({ userId: USER, from: addDays(LAST, -29), to: LAST })).toMatchObject({ status: "off", days: [], temperature: [] });
    await saveCycleSettings(USER, { tracking: true, hormonalContraception: true });
    expect(earlyWarnings(await readSignals(addDays(LAST, -29), LAST)).every((r) => r.cycle_adjusted === false)).toBe(true);
    expect((await getCycle({ userId: USER, from: addDays(LAST, -29), to: LAST })).status).toBe("not_applicable");
  });
});
