// The early_warning rule: its condition, its words and its digest line (pure), and the worker
// delivering it once per episode on an in-memory store with a manual clock.
import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { AlertWorker } from "@/lib/alerts/worker";
import { ManualClock, MemoryAlertStore, quietFacts, recordingSenders } from "@/lib/test/alert-kit";
import { alertRuleInputSchema, describeRule } from "@/lib/alerts/kinds";
import { buildDigestFacts } from "@/lib/alerts/digest";
import { digestMessage } from "@/lib/alerts/kinds/weekly-digest";
import type { RuleEnv } from "@/lib/alerts/kinds/define";
import type { EarlyWarningNightFact } from "@/lib/alerts/facts";
import {
  digestEarlyWarning,
  digestEarlyWarningLine,
  earlyWarning,
  earlyWarningMessage,
  evaluateEarlyWarningRule,
  nightFactOf,
} from "@/lib/alerts/kinds/early-warning";

const TODAY = "2026-03-10";
const ctx = { includeValues: false, units: "metric" as const, timeZone: "UTC", linkBase: "https://ring.example" };
const moved: EarlyWarningNightFact["moved"] = [
  { marker: "temperature_deviation", delta: 1.02, value: 1.05, baseline: 0.03 },
  { marker: "resting_heart_rate", delta: 7, value: 62, baseline: 55 },
  { marker: "hrv", delta: -0.3, value: 35, baseline: 50 },
];
const night = (day: string, level: EarlyWarningNightFact["level"], muted = false): EarlyWarningNightFact => ({
  day,
  level,
  muted,
  moved: level === "none" ? [] : moved,
});

describe("the early_warning rule", () => {
  it("is active while the newest night is at the rule's level; unknown without a recent night", () => {
    expect(evaluateEarlyWarningRule({ level: "likely" }, [night("2026-03-09", "none"), night(TODAY, "likely")], TODAY)).toMatchObject({
      state: "active",
      key: "early_warning",
      facts: { day: TODAY, level: "likely" },
    });
    expect(evaluateEarlyWarningRule({ level: "likely" }, [night(TODAY, "watch")], TODAY)).toEqual({ state: "inactive" });
    expect(evaluateEarlyWarningRule({ level: "watch" }, [night(TODAY, "watch")], TODAY).state).toBe("active");
    // a night without a level (no baseline yet) is passed over; nothing recent: unknown
    expect(evaluateEarlyWarningRule({ level: "likely" }, [night("2026-03-09", "likely"), night(TODAY, null)], TODAY).state).toBe("active");
    expect(evaluateEarlyWarningRule({ level: "likely" }, [night("2026-03-07", "likely")], TODAY)).toEqual({ state: "unknown" });
    expect(evaluateEarlyWarningRule({ level: "likely" }, [], TODAY)).toEqual({ state: "unknown" });
    // rest mode mutes it
    expect(evaluateEarlyWarningRule({ level: "likely" }, [night(TODAY, "likely", true)], TODAY)).toEqual({ state: "inactive" });
  });

  it("is a rule kind with a level, described in Settings", () => {
    expect(alertRuleInputSchema.safeParse({ kind: "early_warning", params: { level: "likely" } }).success).toBe(true);
    expect(alertRuleInputSchema.safeParse({ kind: "early_warning", params: { level: "certain" } }).success).toBe(false);
    expect(describeRule("early_warning", { level: "watch" })).toBe("Early warning: watch or likely");
  });

  it("says which markers moved and that it is not a diagnosis; numbers only with include values", () => {
    const facts = { day: TODAY, level: "likely" as const, moved };
    const plain = earlyWarningMessage(facts, ctx);
    expect(plain.title).toBe("Early warning: your body may be fighting something");
    expect(plain.body).toContain("temperature, resting heart rate, hrv");
    expect(plain.body).toContain("This is not a diagnosis.");
    expect(plain.body).toContain("https://ring.example/docs/signals#early-warning");
    expect(plain.body).not.toMatch(/\d+ bpm|°C/);
    expect(plain.data).toEqual({ day: TODAY, level: "likely", markers: ["temperature_deviation", "resting_heart_rate", "hrv"] });
    const values = earlyWarningMessage(facts, { ...ctx, includeValues: true });
    expect(values.body).toContain("Temperature +1.02 °C; Resting heart rate +7 bpm; HRV −30 %");
    expect(values.data.values).toMatchObject({ resting_heart_rate: { value: 62, baseline: 55, change: 7 } });
  });

  it("names the week's early-warning nights in the digest", async () => {
    const week = { from: "2026-03-02", to: "2026-03-08" };
    const nights = [
      night("2026-03-01", "likely"),
      night("2026-03-02", "none"),
      night("2026-03-05", "watch"),
      night("2026-03-06", "likely"),
      night("2026-03-07", null),
    ];
    expect(digestEarlyWarning(nights, week)).toEqual({
      nights: [
        { day: "2026-03-05", level: "watch" },
        { day: "2026-03-06", level: "likely" },
      ],
      assessed: 3,
    });
    expect(digestEarlyWarningLine(digestEarlyWarning(nights, week))).toBe("Early warning: watch on Thu 5 Mar, likely on Fri 6 Mar (not a diagnosis).");
    expect(digestEarlyWarningLine(digestEarlyWarning([night("2026-03-03", "none")], week))).toBe("Early warning: none this week.");
    expect(digestEarlyWarningLine(digestEarlyWarning([], week))).toBe("Early warning: not enough nights with a baseline this week.");
    const env = (f: RuleEnv["facts"]): RuleEnv => ({
      userId: "u",
      facts: f,
      today: TODAY,
      now: Date.parse(`${TODAY}T08:00:00Z`),
      timeZone: "UTC",
      quietHours: null,
      digestSections: async () => [],
    });
    const section = await earlyWarning.digest!(env(quietFacts({ earlyWarning: async () => nights })), week);
    const facts = buildDigestFacts({ week, rows: {}, tags: [], sections: section ? [section] : [] });
    const msg = digestMessage(facts, ctx);
    expect(msg.body).toContain("Early warning: watch on Thu 5 Mar, likely on Fri 6 Mar");
    expect(msg.data.early_warning).toEqual([
      { day: "2026-03-05", level: "watch" },
      { day: "2026-03-06", level: "likely" },
    ]);
    // without the facts (a store that cannot read signals) the kind has no line and the digest is as before
    expect(await earlyWarning.digest!(env(quietFacts()), week)).toBeNull();
    expect(digestMessage(buildDigestFacts({ week, rows: {}, tags: [] }), ctx).body).not.toContain("Early warning");
  });

  it("reads the flagged markers of a signal row", () => {
    const fact = nightFactOf(TODAY, {
      level: "likely",
      muted: false,
      inputs: { temperature_deviation: 1.05, resting_heart_rate: 62, hrv: 35, breathing_rate: 14 },
      baseline: { temperature_deviation: { median: 0.03 }, resting_heart_rate: { median: 55 }, hrv: { median: 50 }, breathing_rate: { median: 14 } },
      markers: [
        { marker: "temperature_deviation", delta: 1.02, flagged: true },
        { marker: "resting_heart_rate", delta: 7, flagged: true },
        { marker: "hrv", delta: -0.3, flagged: true },
        { marker: "breathing_rate", delta: 0, flagged: false },
      ],
    });
    expect(fact).toEqual({ day: TODAY, level: "likely", muted: false, moved });
  });
});

describe("the worker and the early_warning rule", () => {
  it("one message per episode, through every channel: the three likely nights are one episode", async () => {
    const clock = new ManualClock(Date.parse(`${TODAY}T08:00:00Z`));
    const store = new MemoryAlertStore();
    const nights: EarlyWarningNightFact[] = [];
    const facts = quietFacts({ earlyWarning: async (_u, from, to) => nights.filter((n) => n.day >= from && n.day <= to) });
    const rec = recordingSenders();
    const worker = new AlertWorker({ store, facts, senders: rec.senders, clock, decrypt: (s) => s, linkBase: "https://ring.example", evaluateEveryMs: 0 });
    store.addRule("u", "early_warning", { level: "likely" });
    store.addChannel("u", "ntfy", { url: "https://ntfy.example/t" });
    store.addChannel("u", "webhook", { url: "https://hook.example/", secret: "s" });
    const day = (d: string) => clock.set(`${d}T08:00:00Z`);
    for (let i = -5; i <= 0; i++) nights.push(night(addDays(TODAY, i), "none"));
    await worker.tick();
    expect(rec.sent).toHaveLength(0);
    for (let i = 1; i <= 3; i++) {
      nights.push(night(addDays(TODAY, i), "likely"));
      day(addDays(TODAY, i));
      await worker.tick();
      await worker.tick();
    }
    expect(rec.sent.map((s) => s.target.kind).sort()).toEqual(["ntfy", "webhook"]);
    expect(rec.sent[0]!.message.rule).toBe("early_warning");
    // back to none: the episode ends; a later likely night is a new episode
    nights.push(night(addDays(TODAY, 4), "none"));
    day(addDays(TODAY, 4));
    await worker.tick();
    nights.push(night(addDays(TODAY, 5), "likely"));
    day(addDays(TODAY, 5));
    await worker.tick();
    expect(rec.sent).toHaveLength(4);
  });
});
