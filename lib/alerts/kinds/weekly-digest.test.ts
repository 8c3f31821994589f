// The weekly_digest kind through its registry entry: a moment, due at its weekly slot for six
// hours (keyed by the slot), with the other kinds' lines; its words. The week's maths:
// lib/alerts/messages.test.ts.
import { describe, expect, it } from "vitest";
import { weeklyDigest } from "@/lib/alerts/kinds/weekly-digest";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("weekly_digest", () => {
  const params = weeklyDigest.params.parse({ weekday: "1", hour: "8" });

  it("is due from its slot (Monday 08:00 in the person's zone) for six hours, with the other kinds' lines", async () => {
    if (weeklyDigest.watch.type !== "moment") throw new Error("a moment kind");
    expect(weeklyDigest.watch).toMatchObject({ prefix: "digest", purpose: "digest", quiet: false });
    const sections = async () => [{ kind: "planted", line: "Planted: one line.", data: { n: 1 } }];
    const at = (iso: string) => ruleEnv(iso, {}, { timeZone: "Europe/Berlin", digestSections: sections });
    // 2026-11-23 is a Monday; 08:00 in Berlin is 07:00 UTC
    expect(await weeklyDigest.watch.due(params, at("2026-11-23T06:59:00Z"))).toBeNull();
    expect(await weeklyDigest.watch.due(params, at("2026-11-23T13:00:00Z"))).toBeNull();
    const due = await weeklyDigest.watch.due(params, at("2026-11-23T07:30:00Z"));
    expect(due?.key).toBe("2026-11-23T07:00:00.000Z");
    const facts = await due!.facts();
    expect(facts).toMatchObject({ from: "2026-11-16", to: "2026-11-22" });
    const m = weeklyDigest.message(facts, messageContext(false), params);
    expect(m.title).toBe("Your week: Mon 16 Nov – Sun 22 Nov");
    expect(m.body).toContain("\n\nPlanted: one line.");
    expect(m.data.planted).toEqual({ n: 1 });
  });

  it("takes a weekday and an hour; Settings shows the next slot", () => {
    expect(weeklyDigest.params.safeParse({ weekday: 8, hour: 8 }).success).toBe(false);
    expect(weeklyDigest.describe(params)).toBe("Weekly digest on Monday at 08:00");
    expect(new Date(weeklyDigest.next!(params, Date.parse("2026-11-23T07:30:00Z"), "Europe/Berlin")).toISOString()).toBe("2026-11-30T07:00:00.000Z");
  });
});
