// Conformance: ring-api-facts §2.4 — date-range semantics per endpoint (inclusivity of
// start_date/end_date, date vs date-time bounds, defaults, lenient parsing, start after end).
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { DAILY_COLLECTIONS, TODAY, type Connection, type Ring, useEmulator } from "@/e2e/conformance/support";
import { wornEmail } from "@/lib/test/emulator-kit";

const ring: Ring = useEmulator({ pageSize: 100, historyDays: 40 });
let conn: Connection;
let userId: string;

beforeAll(async () => {
  const client = await ring.registerClient();
  // a generated user who wore the ring yesterday, today and five days ago, the days the default
  // and one-sided windows are checked on (some generated days are not worn)
  const user = await ring.createUser({ email: wornEmail("dw", [addDays(TODAY, -5), addDays(TODAY, -1), TODAY]), history_days: 40 });
  userId = user.user_id;
  conn = await ring.connect(client, { email: user.email });
});

type Doc = Record<string, unknown> & { day?: string };

async function days(path: string, query: Record<string, string | undefined>, token = conn.accessToken): Promise<string[]> {
  const pages = await ring.listAll(path, token, query);
  return pages.flatMap((p) => p.data.map((d: Doc) => String(d.day)));
}

/** A day D in the middle of the history that has documents in `collection`, plus its neighbours. */
async function middleDay(collection: string): Promise<string> {
  const stored = await ring.storedDocuments(userId, collection);
  const storedDays = [...new Set(stored.map((d) => String(d.day)))].sort();
  expect(storedDays.length, `${collection} has stored documents`).toBeGreaterThan(4);
  return storedDays[Math.floor(storedDays.length / 2)]!;
}

const END_INCLUSIVE = DAILY_COLLECTIONS.filter((c) => c !== "daily_activity");

describe("facts §2.4 — per-endpoint date windows (/v2/usercollection)", () => {
  for (const c of END_INCLUSIVE) {
    it(`${c}: start_date=end_date=D returns day D (end-inclusive)`, async () => {
      const d = await middleDay(c);
      const got = await days(`/v2/usercollection/${c}`, { start_date: d, end_date: d });
      expect(got.length).toBeGreaterThan(0);
      expect(new Set(got)).toEqual(new Set([d]));
      const two = await days(`/v2/usercollection/${c}`, { start_date: d, end_date: addDays(d, 1) });
      expect(two).toContain(d);
      expect(two.every((x) => x === d || x === addDays(d, 1))).toBe(true);
    });
  }

  it("daily_activity: a date-only end_date excludes that day; end_date=D+1 or end_date=DT23:59:59 includes it", async () => {
    const path = "/v2/usercollection/daily_activity";
    const d = await middleDay("daily_activity");
    expect(await days(path, { start_date: d, end_date: d })).not.toContain(d);
    const plusOne = await days(path, { start_date: d, end_date: addDays(d, 1) });
    expect(plusOne).toContain(d);
    expect(plusOne).not.toContain(addDays(d, 1));
    expect(await days(path, { start_date: d, end_date: `${d}T23:59:59` })).toContain(d);
    // and the start side is inclusive: start=D-1, end=D+1 holds D-1 and D
    const wider = await days(path, { start_date: addDays(d, -1), end_date: addDays(d, 1) });
    expect(wider).toContain(d);
  });

  it("sleep: end_date=D misses a sleep period whose day is D; end_date=D+1 includes it", async () => {
    const path = "/v2/usercollection/sleep";
    const d = await middleDay("sleep");
    expect(await days(path, { start_date: addDays(d, -1), end_date: d })).not.toContain(d);
    expect(await days(path, { start_date: addDays(d, -1), end_date: addDays(d, 1) })).toContain(d);
  });

  it("start_date and end_date accept a date or a date-time (anyOf date-time, date)", async () => {
    const d = await middleDay("daily_sleep");
    const byDateTime = await days("/v2/usercollection/daily_sleep", {
      start_date: `${d}T00:00:00`,
      end_date: `${d}T23:59:59`,
    });
    expect(byDateTime).toContain(d);
    const withOffset = await days("/v2/usercollection/daily_readiness", {
      start_date: `${addDays(d, -1)}T00:00:00+00:00`,
      end_date: `${addDays(d, 1)}T00:00:00Z`,
    });
    expect(withOffset).toContain(d);
  });

  it("defaults when omitted: roughly yesterday → today", async () => {
    for (const c of ["daily_sleep", "daily_readiness", "daily_activity", "sleep"]) {
      const got = await days(`/v2/usercollection/${c}`, {});
      for (const d of got) expect([addDays(TODAY, -1), TODAY], `${c} default window`).toContain(d);
      expect(got.length, `${c} default window is not empty`).toBeGreaterThan(0);
    }
    // only start_date: up to today; only end_date: from the day before it
    const fromStart = await days("/v2/usercollection/daily_sleep", { start_date: addDays(TODAY, -5) });
    expect(fromStart).toContain(TODAY);
    expect(fromStart).toContain(addDays(TODAY, -5));
  });

  it("parsing is lenient: a year-0024 start_date is accepted and returns the whole history", async () => {
    const all = await days("/v2/usercollection/daily_readiness", { start_date: "0024-11-11", end_date: TODAY });
    const stored = await ring.storedDocuments(userId, "daily_readiness");
    expect(all.length).toBe(stored.length);
  });

  it("start after end → 400 (emulator contract; the hand-made 422 is uncertain)", async () => {
    const r = await ring.api("/v2/usercollection/daily_readiness", {
      token: conn.accessToken,
      query: { start_date: TODAY, end_date: addDays(TODAY, -3) },
    });
    expect(r.status).toBe(400);
  });
});

describe("facts §2.4 — sandbox (all collections): end-exclusive everywhere", () => {
  for (const c of DAILY_COLLECTIONS) {
    it(`${c}: start_date=end_date=D is empty; end_date=D+1 returns day D`, async () => {
      const path = `/v2/sandbox/usercollection/${c}`;
      const all = await days(path, { start_date: "2000-01-01", end_date: "2100-01-01" }, "sandbox-token");
      const unique = [...new Set(all)].sort();
      expect(unique.length).toBeGreaterThan(0);
      const d = unique[Math.floor(unique.length / 2)]!;
      expect(await days(path, { start_date: d, end_date: d }, "sandbox-token")).not.toContain(d);
      const plusOne = await days(path, { start_date: d, end_date: addDays(d, 1) }, "sandbox-token");
      expect(plusOne).toContain(d);
      expect(plusOne).not.toContain(addDays(d, 1));
    });
  }
});
