// Why a night is missing, end to end on the real (temporary) SQLite database: a test person of
// the real emulator with nights planted without a sleep (in the charger all night, worn without
// a sleep, rest mode on, not worn, and today not recorded yet), synced by the real engine, then
// read back as the Day view, the Calendar and GET /api/v1/days/:day read them; and a person whose
// sleep periods the service will not give yet (their back-fill fails): every day "not downloaded yet",
// and their report (page data and PDF) says the history is still downloading.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { addDays } from "@/lib/days";
import { getMetric } from "@/lib/metrics/catalog";
import { connectPerson, emulatorControl, emulatorDocuments, emulatorFault, emulatorSamples, startSyncTestEnv, type SyncTestEnv } from "@/lib/test/sync-kit";

const TODAY = "2026-11-23";
const clock = new ManualClock(Date.parse(`${TODAY}T12:00:00Z`));
const DAY = {
  charger: addDays(TODAY, -5),
  worn_no_sleep: addDays(TODAY, -7),
  rest_mode: addDays(TODAY, -9),
  not_worn: addDays(TODAY, -11),
  not_recorded_yet: TODAY,
};

let t: SyncTestEnv;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

beforeAll(async () => {
  setClock(clock);
  t = await startSyncTestEnv({ historyDays: 30, pageSize: 100, today: TODAY });
});

afterAll(async () => {
  setClock(undefined);
  await t?.close();
});

async function syncedPerson(tag: string, opts: { failSleep?: boolean } = {}) {
  const email = `${tag}@missing-nights.test`;
  await emulatorControl(t, "POST", "/users", {
    email,
    data_key: `missing-nights-${tag}`,
    wear: "always",
    history_days: 30,
    not_worn_days: [DAY.not_worn, DAY.not_recorded_yet],
    nights: { [DAY.charger]: "charger", [DAY.worn_no_sleep]: "no_sleep", [DAY.rest_mode]: "rest_mode" },
  });
  return backfilled(email, opts);
}

/** The emulator's person of `email` connected and backfilled by the real engine. */
async function backfilled(email: string, opts: { failSleep?: boolean } = {}) {
  const p = await connectPerson(t, { email });
  if (opts.failSleep) await emulatorFault(t, { status: 500, count: 1000, path_prefix: "/v2/usercollection/sleep" });
  const { SyncEngine } = await import("@/lib/sync/engine");
  const engine = new SyncEngine({
    clock: { now: () => clock.now(), sleep: async () => undefined },
    clientOptions: { backoff: { baseMs: 1, maxMs: 1, maxRetries: 1 } },
  });
  const outcomes = await engine.backfillUser(p.userId);
  if (opts.failSleep) await emulatorControl(t, "DELETE", "/faults");
  return { ...p, outcomes };
}

describe("why a night is missing", () => {
  it("each planted night says its reason on the Day view's answer, the Calendar and GET /api/v1/days/:day; a day with a sleep says none", async () => {
    const p = await syncedPerson("planted");
    expect(p.outcomes.filter((o) => o.result !== "done" && o.reason !== "cycle_off")).toEqual([]);
    const { getDayDetail, getCalendar } = await import("@/lib/services/metrics");
    for (const [reason, day] of Object.entries(DAY)) expect({ day, reason: (await getDayDetail(p.userId, day)).missing_reason }).toEqual({ day, reason });
    expect((await getDayDetail(p.userId, addDays(TODAY, -3))).missing_reason).toBeNull();

    const cal = await getCalendar({ userId: p.userId, metric: getMetric("sleep.score"), from: addDays(TODAY, -29), to: TODAY });
    const reasons = Object.fromEntries(cal.days.filter((d) => d.missingReason).map((d) => [d.day, d.missingReason]));
    expect(reasons).toEqual(Object.fromEntries(Object.entries(DAY).map(([reason, day]) => [day, reason])));

    const { createApiToken } = await import("@/lib/services/api-tokens");
    const { GET } = await import("@/app/api/v1/days/[day]/route");
    const read = async (token: string, day: string) => {
      const res = await (GET as unknown as Handler)(new Request(`http://localhost/api/v1/days/${day}`, { headers: { authorization: `Bearer ${token}` } }), {
        params: Promise.resolve({ day }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { missing_reason: string | null };
    };
    const all = (await createApiToken(p.userId, { name: "all", kinds: DATA_KINDS })).token;
    for (const [reason, day] of Object.entries(DAY)) expect((await read(all, day)).missing_reason).toBe(reason);
    // a token that reads sleep but not the battery: the charger night is just not worn for it
    const sleepOnly = (await createApiToken(p.userId, { name: "sleep", kinds: ["sleep"] })).token;
    expect((await read(sleepOnly, DAY.charger)).missing_reason).toBe("not_worn");
    // nor anything without sleep
    const activityOnly = (await createApiToken(p.userId, { name: "activity", kinds: ["daily_activity"] })).token;
    expect((await read(activityOnly, DAY.charger)).missing_reason).toBeNull();
  });

  it("a day not worn after an evening with the ring on past 22:00 (taken off at bedtime) says not worn: the night has none of its heart rate", async () => {
    // a test person whose heart rate runs on for half an hour or more after 22:00 the evening
    // before the day not worn: nothing else explaining the night: the first of the test's data keys that has one
    const { MISSING_NIGHT } = await import("@/lib/metrics/missing-night");
    const day = DAY.not_worn;
    let email: string | null = null;
    for (let k = 0; k < 20 && !email; k++) {
      const candidate = `late-evening-${k}@missing-nights.test`;
      const u = (await emulatorControl(t, "POST", "/users", {
        email: candidate,
        data_key: `missing-nights-late-evening-${k}`,
        wear: "always",
        history_days: 30,
        tz_offset_minutes: 0,
        not_worn_days: [day, DAY.not_recorded_yet],
      })) as { user_id: string };
      const evening = await emulatorSamples(t, u.user_id, "heartrate", { start: `${addDays(day, -1)}T22:00:00Z`, end: `${addDays(day, -1)}T23:59:59Z` });
      // and nothing else to explain the night: no rest mode that day, the ring not in the charger
      const restMode = (await emulatorDocuments(t, u.user_id, "rest_mode_period")).some(
        (m) => String(m.start_day) <= day && (m.end_day === null || m.end_day === undefined || String(m.end_day) >= day),
      );
      const night = await emulatorSamples(t, u.user_id, "ring_battery_level", { start: `${addDays(day, -1)}T22:00:00Z`, end: `${day}T06:00:00Z` });
      const charging = night.filter((b) => b.in_charger === true || b.charging === true).length;
      if (evening.length >= MISSING_NIGHT.minHeartRateSamples && !restMode && charging < MISSING_NIGHT.chargerShare * night.length) email = candidate;
    }
    expect(email, "none of 20 test people wears the ring past 22:30").not.toBeNull();
    const p = await backfilled(email!);
    expect(p.outcomes.filter((o) => o.result !== "done" && o.reason !== "cycle_off")).toEqual([]);
    const { getMissingReason } = await import("@/lib/services/missing-nights");
    expect(await getMissingReason(p.userId, day)).toBe("not_worn");
  });

  it("a person who does not track their cycle, every other collection in: the history is in, and the Sync page lists no cycle phases", async () => {
    const p = await syncedPerson("no-cycle");
    expect(p.outcomes.filter((o) => o.result !== "done").map((o) => [o.collection, o.reason])).toEqual([["daily_cycle_phases", "cycle_off"]]);
    // the scheduler's housekeeping keeps a sync state for every collection: the phases' stays idle
    const { ensureSyncStates } = await import("@/lib/db/queries/sync-state");
    const { SYNC_COLLECTIONS } = await import("@/lib/resources");
    await ensureSyncStates(p.userId, SYNC_COLLECTIONS);
    const { historyDownloading } = await import("@/lib/services/history");
    expect(await historyDownloading(p.userId)).toBeNull();
    const { getSyncStatus } = await import("@/lib/sync/status");
    const listed = (await getSyncStatus(p.userId, clock.now())).collections.map((c) => c.collection);
    expect(listed).not.toContain("daily_cycle_phases");
    expect(listed).toHaveLength(SYNC_COLLECTIONS.length - 1);
  });

  it("while the service gives no sleep periods (the back-fill stopped), every day is not downloaded yet, and the history is still downloading", async () => {
    const p = await syncedPerson("no-sleep-yet", { failSleep: true });
    expect(p.outcomes.find((o) => o.collection === "sleep")?.result).not.toBe("done");
    const { getMissingReasons } = await import("@/lib/services/missing-nights");
    const reasons = await getMissingReasons({ userId: p.userId, from: addDays(TODAY, -6), to: TODAY });
    expect([...reasons.values()]).toEqual(Array.from({ length: 7 }, () => "not_synced"));
    const { historyDownloading } = await import("@/lib/services/history");
    const downloading = await historyDownloading(p.userId);
    expect(downloading).toEqual({ from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });

    // its report says so at the top, on the page's data and in the PDF; its sleep charts say "No data in this period"
    const { buildReport } = await import("@/lib/services/report");
    const report = await buildReport(p.userId, { from: addDays(TODAY, -29), to: TODAY, compare: "none", sections: ["summary", "charts"] });
    expect(report.downloading).toEqual(downloading);
    const { isEmptyChart } = await import("@/lib/metrics/report");
    const empty = report.charts!.filter(isEmptyChart).map((c) => c.id);
    expect(empty).toEqual(expect.arrayContaining(["night.total_sleep_duration", "sleep.stages", "sleep.timing"]));
    expect(empty).not.toContain("activity.steps");
    const { renderReportPdf } = await import("@/components/report/pdf/render");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ringside-missing-")), "report.pdf");
    fs.writeFileSync(file, await renderReportPdf(report));
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(text).toContain("History still downloading: data from");
    expect(text.split("No data in this period").length - 1).toBe(empty.length);
  });
});
