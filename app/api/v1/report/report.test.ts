// The report's numbers are the read API's (issue 45): a history planted through Ringside's own
// import (a steady half year, then three nights of an episode), read as the report
// (GET /api/v1/report?format=json) and through the read API for the same period
// (GET /api/v1/metrics/:metric, /api/v1/signals): every mean, count and flagged night equal.
// Then the token's data kinds, the PDF form, and a clear 4xx for each bad query.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_KINDS, NOTES_KIND } from "@/lib/auth/api-scopes";
import { addDays, dayRange, diffDays } from "@/lib/days";
import { plantedHistory } from "@/lib/test/signal-history";
import type { Report, ReportLineChart, ReportMean } from "@/lib/metrics/report";
import type { NumericSeries } from "@/lib/metrics/series";
import type { SignalsResponse } from "@/lib/services/signals";

const USER = "u-report";
const FIRST = "2025-10-01";
const LAST = "2026-04-10";
const FROM = addDays(LAST, -89);
const history = plantedHistory({ from: FIRST, to: LAST, episodeNights: 3, offset: "-05:00" });

// blood oxygen and sessions, planted beside the history's sleep, readiness, activity and workouts
const collections = (history.file as { collections: Record<string, Array<Record<string, unknown>>> }).collections;
dayRange(FIRST, LAST).forEach((day, i) => {
  collections.daily_spo2 = [
    ...(collections.daily_spo2 ?? []),
    { id: `planted-spo2-${day}`, day, spo2_percentage: { average: 96 + (i % 5) * 0.5 }, breathing_disturbance_index: 3 + (i % 4) },
  ];
  if (i % 5 === 1) {
    collections.session = [
      ...(collections.session ?? []),
      { id: `planted-session-${day}`, day, type: "breathing", mood: null, start_datetime: `${day}T07:30:00-05:00`, end_datetime: `${day}T07:40:00-05:00` },
    ];
  }
});

const session = vi.hoisted(() => ({ user: { id: "u-report", email: "report@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({ requireUser: async () => session.user, currentUser: async () => session.user }));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let token = "";
let narrowToken = "";

async function get(path: string, params: Record<string, string> = {}, bearer = token): Promise<Response> {
  const route = path.startsWith("/api/v1/metrics/")
    ? await import("@/app/api/v1/metrics/[metric]/route")
    : path.startsWith("/api/v1/signals")
      ? await import("@/app/api/v1/signals/route")
      : await import("@/app/api/v1/report/route");
  return (route.GET as unknown as Handler)(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${bearer}` } }), {
    params: Promise.resolve(params),
  });
}

async function series(metric: string, from: string, to: string): Promise<NumericSeries> {
  const res = await get(`/api/v1/metrics/${metric}?from=${from}&to=${to}`, { metric });
  expect(res.status).toBe(200);
  return (await res.json()) as NumericSeries;
}

let report: Report;
let signals: SignalsResponse;

beforeAll(async () => {
  const { db } = await import("@/lib/test/prisma");
  await db.user.create({ data: { id: USER, email: "report@example.test", name: "Robin Report", role: "owner" } });
  const { POST } = await import("@/app/api/import/route");
  const res = await (POST as unknown as Handler)(
    new Request("http://localhost/api/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify(history.file),
    }),
    { params: Promise.resolve({}) },
  );
  const imported = (await res.json()) as { rejected: number; documents: Record<string, number> };
  expect({ status: res.status, rejected: imported.rejected, spo2: imported.documents.daily_spo2 }).toEqual({ status: 200, rejected: 0, spo2: 192 });
  const { setDayNote } = await import("@/lib/db/queries/notes");
  await setDayNote({ userId: USER, day: addDays(LAST, -20), text: "Late dinner with friends", tags: ["alcohol"] });
  await setDayNote({ userId: USER, day: addDays(LAST, -5), text: "", tags: ["alcohol", "travel"] });
  const { createApiToken } = await import("@/lib/services/api-tokens");
  token = (await createApiToken(USER, { name: "report", kinds: DATA_KINDS })).token;
  narrowToken = (await createApiToken(USER, { name: "no notes", kinds: DATA_KINDS.filter((k) => k !== NOTES_KIND) })).token;
  const r = await get(`/api/v1/report?from=${FROM}&to=${LAST}&compare=previous&sections=summary,charts,events,methods,notes,tags,cycle`);
  expect(r.status).toBe(200);
  report = (await r.json()) as Report;
  signals = (await (await get(`/api/v1/signals?from=${FROM}&to=${LAST}`)).json()) as SignalsResponse;
});

describe("the report's numbers are the read API's", () => {
  it("says who and when, and how many nights have data", () => {
    const s = report.summary!;
    expect(s).toMatchObject({ person: { name: "Robin Report" }, from: FROM, to: LAST, days: 90, compare: "previous" });
    expect(s.compared).toEqual({ from: addDays(FROM, -90), to: addDays(FROM, -1) });
    expect(s.nightsWithData).toBe(90);
    expect(s.daysWithData).toBe(90);
  });

  it("each mean equals the read API's series mean, for the period and the compared period, against the first day's range", async () => {
    const means: ReportMean[] = [...report.summary!.scores, ...report.summary!.physiology];
    expect(means.map((m) => m.metric)).toEqual([
      "sleep.score",
      "readiness.score",
      "activity.score",
      "night.lowest_heart_rate",
      "night.average_hrv",
      "readiness.temperature_deviation",
      "night.average_breath",
      "spo2.spo2_average",
      "spo2.breathing_disturbance_index",
    ]);
    const cmp = report.summary!.compared!;
    for (const m of means) {
      const now = await series(m.metric, FROM, LAST);
      const before = await series(m.metric, cmp.from, cmp.to);
      expect(m.mean, m.metric).not.toBeNull();
      expect({ metric: m.metric, mean: m.mean, n: m.n }).toEqual({ metric: m.metric, mean: now.summary.mean, n: now.summary.n });
      expect({ metric: m.metric, mean: m.compared!.mean, n: m.compared!.n }).toEqual({ metric: m.metric, mean: before.summary.mean, n: before.summary.n });
      const low = now.normal ? now.normal.low[0] : now.baseLow[0];
      const high = now.normal ? now.normal.high[0] : now.baseHigh[0];
      expect({ metric: m.metric, low: m.range?.low, high: m.range?.high }).toEqual({ metric: m.metric, low, high });
      expect(m.range!.source).toBe(now.normal ? "normal_range" : "baseline");
    }
    const hr = means.find((m) => m.metric === "night.lowest_heart_rate")!;
    expect(hr.range!.source).toBe("normal_range");
  });

  it("the flagged nights are the nights /api/v1/signals flags, the planted episode among them as likely", () => {
    const flagged = signals.days.flatMap((d) => {
      const e = d.signals.find((s) => s.kind === "early_warning");
      return e?.kind === "early_warning" && (e.level === "watch" || e.level === "likely") ? [{ day: d.day, level: e.level, flags: e.flags }] : [];
    });
    const ew = report.summary!.earlyWarning;
    expect(ew.nights.map((n) => ({ day: n.day, level: n.level, flags: n.flags }))).toEqual(flagged);
    expect(ew.nights.filter((n) => n.level === "likely").map((n) => n.day)).toEqual(history.episode);
    expect(ew.likely + ew.watch).toBe(flagged.length);
    expect(ew.nights.at(-1)!.markers).toEqual(["temperature_deviation", "resting_heart_rate", "hrv", "breathing_rate"]);
  });

  it("sleep debt and regularity are the means of the signals' daily values", () => {
    const values = (pick: (s: SignalsResponse["days"][number]["signals"][number]) => number | null | undefined) =>
      signals.days.map((d) => d.signals.map(pick).find((v) => v !== undefined) ?? null).filter((v): v is number => v !== null);
    const mean = (xs: number[], d: number) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10 ** d) / 10 ** d;
    const debt = values((s) => (s.kind === "sleep_debt" ? s.value : undefined));
    const sri = values((s) => (s.kind === "regularity" ? s.value : undefined));
    const bed = values((s) => (s.kind === "regularity" ? s.spread.bedtimeSdMin : undefined));
    const s = report.summary!;
    expect(s.sleepDebt).toMatchObject({ mean: mean(debt, 2), n: debt.length });
    expect(s.regularity.sri).toMatchObject({ mean: mean(sri, 1), n: sri.length });
    expect(s.regularity.bedtimeSdMin).toMatchObject({ mean: mean(bed, 0), n: bed.length });
    expect(s.sleepDebt.n).toBeGreaterThan(80);
    // the need the last debt was measured against: the last day's row, its range and its source
    const last = signals.days.at(-1)!;
    const row = last.signals.find((x) => x.kind === "sleep_debt");
    expect(row?.kind).toBe("sleep_debt");
    if (row?.kind === "sleep_debt") expect(s.sleepNeed).toEqual({ day: last.day, ...row.baseline });
  });

  it("the charts carry the series' daily values, 7-day means and range, one slot per day", async () => {
    const charts = report.charts!;
    expect(charts.map((c) => c.group)).toEqual(expect.arrayContaining(["sleep", "physiology", "activity", "scores"]));
    const hrv = charts.find((c): c is ReportLineChart => c.id === "night.average_hrv")!;
    const s = await series("night.average_hrv", FROM, LAST);
    expect({ value: hrv.value, avg7: hrv.avg7, low: hrv.low, high: hrv.high }).toEqual({
      value: s.value,
      avg7: s.avg7,
      low: s.normal!.low,
      high: s.normal!.high,
    });
    expect(hrv.caption).toMatch(/7-day mean/);
    const sleep = charts.find((c): c is ReportLineChart => c.id === "night.total_sleep_duration")!;
    expect(sleep.unit).toBe("h");
    expect(sleep.value).toEqual((await series("night.total_sleep_duration", FROM, LAST)).value.map((v) => (v === null ? null : Math.round(v / 36) / 100)));
    const timing = charts.find((c) => c.kind === "timing")!;
    expect(timing.kind === "timing" && timing.bedtime.every((h) => h !== null && h > -1.5 && h < -0.5)).toBe(true);
    for (const c of charts) {
      const slots = c.kind === "line" ? c.value : c.kind === "stages" ? c.deep : c.bedtime;
      expect({ id: c.id, slots: slots.length }).toEqual({ id: c.id, slots: diffDays(FROM, LAST) + 1 });
    }
  });

  it("the events count the workouts and sessions by type (no tags); the tags with their days, notes and cycle when asked", () => {
    const ev = report.events!;
    const runs = collections.workout!.filter((w) => (w.day as string) >= FROM).length;
    expect(ev.workouts).toEqual([{ type: "running", label: "Running", count: runs, minutes: runs * 45, calories: runs * 450 }]);
    expect(ev.sessions).toEqual([expect.objectContaining({ type: "breathing", count: collections.session!.filter((w) => (w.day as string) >= FROM).length })]);
    expect(ev).not.toHaveProperty("tags");
    expect(report.tags).toEqual([
      { name: "alcohol", source: "own", days: [addDays(LAST, -20), addDays(LAST, -5)] },
      { name: "travel", source: "own", days: [addDays(LAST, -5)] },
    ]);
    expect(report.notes).toEqual([{ day: addDays(LAST, -20), text: "Late dinner with friends", tags: ["alcohol"] }]);
    expect(report.cycle).toEqual({ tracked: false });
    expect(report.methods).toMatchObject({ sources: { synced: false, imported: true }, gaps: [] });
    expect(report.methods!.disclaimer).toMatch(/not a diagnosis/);
  });
});

describe("the token and the query", () => {
  it("leaves out the sections not asked for (by default: notes, tags and cycle): nothing of the person's own words", async () => {
    const r = (await (await get(`/api/v1/report?from=${FROM}&to=${LAST}`)).json()) as Report;
    expect(r.query.sections).toEqual(["summary", "charts", "events", "methods"]);
    expect(r.notes).toBeUndefined();
    expect(r.tags).toBeUndefined();
    expect(r.cycle).toBeUndefined();
    expect(r.summary!.compared).toBeNull();
    expect(JSON.stringify(r)).not.toMatch(/alcohol|travel|Late dinner/);
  });

  it("needs every data kind of the sections asked for: the tags and the notes need the notes kind, nothing else does", async () => {
    for (const sections of ["notes", "tags", "summary,tags"]) {
      const refused = await get(`/api/v1/report?from=${FROM}&to=${LAST}&sections=${sections}`, {}, narrowToken);
      expect({ sections, status: refused.status }).toEqual({ sections, status: 403 });
      expect((await refused.json()).error.message).toMatch(/lacks notes/);
    }
    expect((await get(`/api/v1/report?from=${FROM}&to=${LAST}`, {}, narrowToken)).status).toBe(200);
    const notesOnly = (await (await import("@/lib/services/api-tokens")).createApiToken(USER, { name: "notes only", kinds: [NOTES_KIND] })).token;
    const tags = (await (await get(`/api/v1/report?from=${FROM}&to=${LAST}&sections=tags`, {}, notesOnly)).json()) as Report;
    expect(tags.tags?.map((t) => t.name)).toEqual(["alcohol", "travel"]);
  });

  it("names the person by their name, never by their e-mail address (none set, or the address kept as one)", async () => {
    const { db } = await import("@/lib/test/prisma");
    try {
      for (const name of [null, "report@example.test", "Report@Example.test"]) {
        await db.user.update({ where: { id: USER }, data: { name } });
        const r = (await (await get(`/api/v1/report?from=${FROM}&to=${LAST}&sections=summary`)).json()) as Report;
        expect({ name, shown: r.summary!.person.name }).toEqual({ name, shown: null });
        expect(JSON.stringify(r).toLowerCase()).not.toContain("report@example.test");
      }
    } finally {
      await db.user.update({ where: { id: USER }, data: { name: "Robin Report" } });
    }
  });

  it("answers the PDF as a download with a meaningful name", async () => {
    const res = await get(`/api/v1/report?from=${FROM}&to=${LAST}&format=pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="ringside-report-${FROM}-to-${LAST}.pdf"`);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it.each([
    ["a period over a year", `from=2025-01-01&to=2026-01-02`, /at most 366 days/],
    ["to before from", `from=2026-02-01&to=2026-01-31`, /to must not be before from/],
    ["an unknown section", `from=${FROM}&to=${LAST}&sections=summary,vitals`, /unknown section vitals/],
    ["a bad compare mode", `from=${FROM}&to=${LAST}&compare=week`, /must be one of none, previous, year/],
    ["a bad format", `from=${FROM}&to=${LAST}&format=docx`, /must be one of json, pdf/],
  ])("refuses %s with a 422 that says why", async (_what, query, message) => {
    const res = await get(`/api/v1/report?${query}`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toMatch(message);
  });
});
