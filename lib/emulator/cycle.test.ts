// The emulator's menstrual cycles (generator/cycle.ts) and daily_cycle_phases: cycle and phase
// lengths as the published data has them (cycle-facts.md), the luteal nights warmer by about
// 0.3 °C from 1–2 days after ovulation, the lowest heart rate higher and HRV lower there; the
// documents for women only, consistent with the cycle, served only to tokens with the scope,
// the same for the same seed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayToIndex } from "@/lib/days";
import { generatePersonalInfo, type CycleDay } from "./generator";
import { Model } from "./generator/model";
import { ResourceSource, resourcesOfDay } from "./resources";
import type { RunningEmulator } from "./server";
import { validateResponse } from "./openapi";
import { grantedScopes } from "./providers";
import { userIdFor } from "./store";
import { TEST_SEED, TEST_TODAY, call, connect, startTestEmulator, uniqueEmail } from "@/lib/test/emulator-kit";

const FIRST = "2023-01-01";
const LAST = "2025-12-31";

/** Generated people (data keys), split by whether they have a cycle. */
function people(n: number): { women: Model[]; others: Model[] } {
  const women: Model[] = [];
  const others: Model[] = [];
  for (let i = 0; i < n; i++) {
    const m = new Model({ seed: "cycle-test", userKey: `person-${i}` });
    (m.cycleAt(0) ? women : others).push(m);
  }
  return { women, others };
}

/** The cycles whose first day lies in [FIRST, LAST], each once. */
function cyclesOf(m: Model): CycleDay[] {
  const out: CycleDay[] = [];
  for (let idx = dayToIndex(FIRST); idx <= dayToIndex(LAST); idx++) {
    const d = m.cycleAt(idx)!;
    if (d.cycleDay === 1) out.push(d);
  }
  return out;
}

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const sd = (v: number[]) => Math.sqrt(mean(v.map((x) => (x - mean(v)) ** 2)));

describe("the generator's cycles", () => {
  const { women, others } = people(60);

  it("only women up to 50 have cycles", () => {
    expect(women.length).toBeGreaterThanOrEqual(15);
    for (const m of women) expect(m.profile).toMatchObject({ sex: "female" });
    for (const m of women) expect(m.profile.age).toBeLessThanOrEqual(50);
    for (const m of others) expect(m.profile.sex === "male" || m.profile.age > 50).toBe(true);
    for (const m of others) expect(m.cycleAt(dayToIndex(LAST))).toBeNull();
  });

  it("lengths follow the published data: about 29 days, luteal about 12, varying from cycle to cycle", () => {
    const all = women.flatMap(cyclesOf);
    const lengths = all.map((c) => c.length);
    const luteal = all.map((c) => c.length - (c.ovulation - c.start + 1));
    const follicular = all.map((c) => c.ovulation - c.start + 1);
    expect(mean(lengths)).toBeGreaterThan(26.5);
    expect(mean(lengths)).toBeLessThan(31.5);
    expect(mean(luteal)).toBeGreaterThan(11);
    expect(mean(luteal)).toBeLessThan(13.8);
    for (const l of luteal) expect(l >= 7 && l <= 17).toBe(true);
    for (const f of follicular) expect(f >= 8 && f <= 30).toBe(true);
    // a woman's own cycles differ (by the follicular phase more than by the luteal one)
    for (const m of women) {
      const own = cyclesOf(m);
      expect(sd(own.map((c) => c.length))).toBeGreaterThan(1);
      expect(sd(own.map((c) => c.ovulation - c.start))).toBeGreaterThan(sd(own.map((c) => c.start + c.length - c.ovulation)));
    }
    // cycles follow each other without gap or overlap, and each starts with its period
    for (const m of women) {
      const own = cyclesOf(m);
      for (let i = 1; i < own.length; i++) expect(own[i]!.start).toBe(own[i - 1]!.start + own[i - 1]!.length);
      for (const c of own) expect(m.cycleAt(c.start)!.phase).toBe("menstrual");
    }
  });

  it("raises the temperature ≈ 0.3 °C from 1–2 days after ovulation; the lowest heart rate rises and HRV falls in the luteal phase", () => {
    const diffs: Array<{ temp: number; hr: number; hrv: number }> = [];
    for (const m of women.slice(0, 8)) {
      for (const c of cyclesOf(m)) expect([1, 2]).toContain(c.shiftStart - c.ovulation);
      const temp: Record<string, number[]> = { raised: [], before: [] };
      const hr: Record<string, number[]> = { raised: [], before: [] };
      const hrv: Record<string, number[]> = { raised: [], before: [] };
      for (let idx = dayToIndex(FIRST); idx <= dayToIndex(LAST); idx++) {
        const d = m.cycleAt(idx)!;
        if (d.raised === 0.6) continue;
        const k = d.raised === 1 ? "raised" : "before";
        if (m.feverAt(idx) > 0) continue;
        temp[k]!.push(m.tempDev(idx));
        hr[k]!.push(m.rhrNight(idx));
        hrv[k]!.push(Math.log(m.hrvNight(idx)));
      }
      diffs.push({
        temp: mean(temp.raised!) - mean(temp.before!),
        hr: mean(hr.raised!) - mean(hr.before!),
        hrv: mean(hrv.raised!) - mean(hrv.before!),
      });
    }
    const t = mean(diffs.map((d) => d.temp));
    expect(t).toBeGreaterThan(0.22);
    expect(t).toBeLessThan(0.4);
    for (const d of diffs) expect(d.temp).toBeGreaterThan(0.1);
    const h = mean(diffs.map((d) => d.hr));
    expect(h).toBeGreaterThan(1);
    expect(h).toBeLessThan(3);
    expect(mean(diffs.map((d) => d.hrv))).toBeLessThan(-0.02);
  });

  it("is the same for the same seed and person", () => {
    const a = new Model({ seed: "cycle-test", userKey: "person-3" });
    const b = new Model({ seed: "cycle-test", userKey: "person-3" });
    // asked in another order (backwards first), the same days
    for (let idx = dayToIndex(LAST); idx >= dayToIndex(FIRST); idx -= 17) b.cycleAt(idx);
    for (let idx = dayToIndex(FIRST); idx <= dayToIndex(LAST); idx += 5) expect(a.cycleAt(idx)).toEqual(b.cycleAt(idx));
  });
});

describe("daily_cycle_phases", () => {
  let emu: RunningEmulator;
  let woman: string;
  let man: string;

  /** An e-mail whose generated person has (or has not) a cycle. */
  function emailWith(cycle: boolean, tag: string): string {
    for (let i = 0; i < 300; i++) {
      const email = uniqueEmail(tag);
      const has = new ResourceSource({ seed: TEST_SEED, userKey: userIdFor(TEST_SEED, email) }).cycle(dayToIndex(TEST_TODAY)) !== null;
      if (has === cycle) return email;
    }
    throw new Error("no such generated person");
  }

  beforeAll(async () => {
    emu = await startTestEmulator({ pageSize: 50, historyDays: 120 });
    woman = emailWith(true, "woman");
    man = emailWith(false, "man");
  });
  afterAll(() => emu.close());

  it("a woman's documents follow her cycle, one a day; a man has none", () => {
    const userKey = userIdFor(TEST_SEED, woman);
    const src = new ResourceSource({ seed: TEST_SEED, userKey });
    for (let k = 0; k < 60; k++) {
      const day = addDays(TEST_TODAY, -k);
      const [doc, ...more] = resourcesOfDay({ seed: TEST_SEED, userKey }, day, 0, TEST_TODAY).daily_cycle_phases;
      const c = src.cycle(dayToIndex(day))!;
      expect(more).toEqual([]);
      const unconfirmed = dayToIndex(day) > c.ovulation && dayToIndex(TEST_TODAY) < c.shiftStart + 2;
      expect(doc).toMatchObject({ day, cycle_day: c.cycleDay, phase: c.phase, predicted: unconfirmed });
      if (c.phase !== "luteal") expect(doc!.predicted).toBe(false);
    }
    expect(generatePersonalInfo({ seed: TEST_SEED, userKey, userId: "", email: "" }).biological_sex).toBe("female");
    expect(resourcesOfDay({ seed: TEST_SEED, userKey: userIdFor(TEST_SEED, man) }, TEST_TODAY).daily_cycle_phases).toEqual([]);
  });

  it("serves them to a token with reproductive_cycle, valid against the declared model; 403 without", async () => {
    // the newer provider's name grants the same scope
    expect(grantedScopes("developer", ["extapi:reproductive_cycle"])).toEqual(["reproductive_cycle"]);
    const granted = await connect(emu.url, undefined, { email: woman });
    const list = await call(emu.url, `/v2/usercollection/daily_cycle_phases?start_date=${addDays(TEST_TODAY, -30)}&end_date=${TEST_TODAY}`, {
      token: granted.access_token,
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(31);
    expect(validateResponse("/v2/usercollection/daily_cycle_phases", "get", 200, list.body, { typedOnly: true })).toEqual({ ok: true });
    const one = await call(emu.url, `/v2/usercollection/daily_cycle_phases/${list.body.data[0].id}`, { token: granted.access_token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.data[0]);

    const without = await connect(emu.url, undefined, { email: woman, scope: "daily email", grant: "daily email" });
    const refused = await call(emu.url, "/v2/usercollection/daily_cycle_phases", { token: without.access_token });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain("reproductive_cycle");

    const men = await connect(emu.url, undefined, { email: man });
    const none = await call(emu.url, "/v2/usercollection/daily_cycle_phases", { token: men.access_token });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [], next_token: null });
  });
});
