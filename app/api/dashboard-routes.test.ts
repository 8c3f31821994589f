// The dashboard's API routes on a real (temporary) database filled with generated documents
// through the sync engine's own mapping: validation and the error envelope, series and their
// statistics, the Today summary, the calendar states, correlations, notes and tags, exports,
// preferences and deleting one person's data.
import { clock } from "@/lib/clock";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { generateRange, COLLECTIONS as FIXTURE_COLLECTIONS } from "@/lib/emulator/generator";
import { RESOURCE_COLLECTIONS } from "@/lib/emulator/resources";
import { batteryRow, heartRateRow } from "@/lib/emulator/timeseries";
import { UserDocuments } from "@/lib/emulator/user-data";
import { SYNC_COLLECTIONS } from "@/lib/resources";
import { sqlAll, sqlRun, sqlValue } from "@/lib/test/sql";

const session = vi.hoisted(() => ({ user: { id: "u-dash", email: "dash@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => {
    if (!session.user) {
      const { AppError } = await import("@/lib/http/errors");
      throw new AppError("unauthorized", "Sign in first.");
    }
    return session.user;
  },
  currentUser: async () => session.user,
}));

const FIRST = "2024-01-01";
const LAST = "2024-06-30";
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, url: string, params: Record<string, string> = {}, init: RequestInit = {}) {
  // A write from this Ringside's own page carries its Origin, as a browser's does.
  const headers = new Headers(init.headers);
  if (init.method && init.method !== "GET" && !headers.has("origin")) headers.set("origin", "http://localhost");
  return handler(new Request(`http://localhost${url}`, { ...init, headers }), { params: Promise.resolve(params) });
}

let docs: ReturnType<typeof generateRange>;
/** The person's other records (workouts, tags, …), generated from the same documents. */
let records: UserDocuments;
/** Heart-rate rows of the last 30 days, as the service serves them. */
let heartRows: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const { mapDocument } = await import("@/lib/sync/map");
  const { ingestDocuments } = await import("@/lib/db/ingest/documents");
  const now = clock.date().toISOString();
  for (const id of ["u-dash", "u-other"]) {
    await sqlRun(
      `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
      id,
      `${id}@example.test`,
      now,
      now,
    );
  }
  docs = generateRange({ seed: "dash-test", userKey: "dash" }, FIRST, LAST);
  records = new UserDocuments({ seed: "dash-test", userKey: "dash" }, FIRST, () => LAST);
  const { mapSamples } = await import("@/lib/sync/map");
  const { mergeSampleDays } = await import("@/lib/db/ingest/series");
  const { groupByUtcDay } = await import("@/lib/db/sample-codec");
  const last = records.seriesDays().last;
  heartRows = [];
  const batteryRows: Array<Record<string, unknown>> = [];
  for (let idx = last - 29; idx <= last; idx++) {
    const hr = records.seriesDay("heartrate", idx);
    for (let i = 0; i < hr.n; i++) heartRows.push(heartRateRow(hr, i));
    const b = records.seriesDay("ring_battery_level", idx);
    for (let i = 0; i < b.n; i++) batteryRows.push(batteryRow(b, i));
  }
  for (const userId of ["u-dash", "u-other"]) {
    for (const c of FIXTURE_COLLECTIONS) {
      const rows = docs[c].map((d) => mapDocument(c, d, userId, now)).flatMap((r) => (r.ok ? [r.row] : []));
      await ingestDocuments({ collection: c, userId, rows });
    }
    for (const c of RESOURCE_COLLECTIONS) {
      const rows = records
        .list(c)
        .map((d) => mapDocument(c, d, userId, now))
        .flatMap((r) => (r.ok ? [r.row] : []));
      expect(rows.length, c).toBe(records.list(c).length);
      await ingestDocuments({ collection: c, userId, rows });
    }
    await mergeSampleDays({ collection: "heartrate", userId, days: groupByUtcDay(mapSamples("heartrate", heartRows).samples) });
    await mergeSampleDays({ collection: "ring_battery_level", userId, days: groupByUtcDay(mapSamples("ring_battery_level", batteryRows).samples) });
  }
});

describe("GET /api/metrics/:metric", () => {
  it("answers 401 in the envelope without a session", async () => {
    const { GET } = await import("@/app/api/metrics/[metric]/route");
    const saved = session.user;
    (session as { user: unknown }).user = null;
    const res = await call(GET as Handler, `/api/metrics/sleep.score?from=${FIRST}&to=${LAST}`, { metric: "sleep.score" });
    session.user = saved;
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Sign in first." } });
  });

  it("rejects an unknown metric and a bad range with 422", async () => {
    const { GET } = await import("@/app/api/metrics/[metric]/route");
    const a = await call(GET as Handler, `/api/metrics/nope?from=${FIRST}&to=${LAST}`, { metric: "nope" });
    expect(a.status).toBe(422);
    expect((await a.json()).error.code).toBe("unprocessable_entity");
    const b = await call(GET as Handler, `/api/metrics/sleep.score?from=2024-05-01&to=2024-04-01`, { metric: "sleep.score" });
    expect(b.status).toBe(422);
    const c = await call(GET as Handler, `/api/metrics/sleep.score?from=2024-02-30&to=2024-04-01`, { metric: "sleep.score" });
    expect(c.status).toBe(422);
  });

  it("returns the stored values with gaps as null and the period statistics", async () => {
    const { GET } = await import("@/app/api/metrics/[metric]/route");
    const from = "2024-06-01";
    const res = await call(GET as Handler, `/api/metrics/sleep.score?from=${from}&to=${LAST}`, { metric: "sleep.score" });
    expect(res.status).toBe(200);
    const s = await res.json();
    expect(s.kind).toBe("numeric");
    expect(s.value).toHaveLength(30);
    const byDay = new Map(docs.daily_sleep.map((d) => [d.day, d.score as number | null]));
    for (let i = 0; i < 30; i++) {
      const day = `2024-06-${String(i + 1).padStart(2, "0")}`;
      expect(s.value[i]).toBe(byDay.get(day) ?? null);
    }
    const vals = s.value.filter((v: number | null) => v !== null) as number[];
    expect(s.summary.n).toBe(vals.length);
    expect(s.summary.mean).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 2);
    // the baseline exists: more than 30 days of history before June
    expect(s.baseMean.every((v: number | null) => v !== null)).toBe(true);
    expect(s.comparison.previous.n).toBeGreaterThan(20);
  });

  it("returns category series with counts", async () => {
    const { GET } = await import("@/app/api/metrics/[metric]/route");
    const res = await call(GET as Handler, `/api/metrics/stress.day_summary?from=2024-06-01&to=${LAST}`, { metric: "stress.day_summary" });
    const s = await res.json();
    expect(s.kind).toBe("category");
    const expected = docs.daily_stress.filter((d) => d.day >= "2024-06-01" && d.day_summary).length;
    expect(s.n).toBe(expected);
  });
});

describe("GET /api/days/latest and /api/days", () => {
  it("summarises each collection's newest day", async () => {
    const { GET } = await import("@/app/api/days/latest/route");
    const t = await (await call(GET as Handler, "/api/days/latest")).json();
    expect(t.day).toBe(LAST);
    const sleep = docs.daily_sleep.filter((d) => d.day === t.metrics["sleep.score"].day)[0]!;
    expect(t.metrics["sleep.score"].value).toBe(sleep.score);
    expect(t.metrics["sleep.score"].spark).toHaveLength(30);
    expect(t.ranges.map((r: { collection: string }) => r.collection)).toEqual([...SYNC_COLLECTIONS]);
  });

  it("tells not-worn days from values in the calendar", async () => {
    const { GET } = await import("@/app/api/days/route");
    const res = await call(GET as Handler, `/api/days?metric=sleep.score&from=${FIRST}&to=2024-07-10`);
    const cal = await res.json();
    expect(cal.days).toHaveLength(182 + 10);
    const statuses = new Set(cal.days.map((d: { status: string }) => d.status));
    expect(statuses.has("value")).toBe(true);
    expect(cal.days.slice(-10).every((d: { status: string }) => d.status === "not_synced")).toBe(true);
    const withScore = new Set(docs.daily_sleep.filter((d) => typeof d.score === "number").map((d) => d.day));
    for (const d of cal.days as Array<{ day: string; status: string }>) {
      if (d.day <= LAST) expect(d.status === "value").toBe(withScore.has(d.day));
    }
  });

  it("gives a day's documents with its periods and timelines", async () => {
    const { GET } = await import("@/app/api/days/[day]/route");
    const day = docs.sleep.find((p) => p.type === "long_sleep" && p.day > "2024-03-01")!.day;
    const d = await (await call(GET as Handler, `/api/days/${day}`, { day })).json();
    expect(d.daily.daily_sleep.score).toBe(docs.daily_sleep.find((x) => x.day === day)?.score);
    const main = d.periods.find((p: { role: string }) => p.role === "main");
    expect(main.hypnogram.segments.length).toBeGreaterThan(3);
    expect(main.heartRate.length).toBeGreaterThan(10);
    expect(d.activity.segments.length).toBeGreaterThan(1);
    expect(d.note).toMatchObject({ day, text: "", tags: [] });
    expect((await call(GET as Handler, `/api/days/2024-13-01`, { day: "2024-13-01" })).status).toBe(422);
  });
});

describe("correlations", () => {
  it("returns the pair's points and r, and a ranked list", async () => {
    const pair = await import("@/app/api/correlations/route");
    const c = await (await call(pair.GET as Handler, `/api/correlations?x=activity.steps&y=sleep.score&lag=1&from=${FIRST}&to=${LAST}`)).json();
    // the points as columns: day slots from `from`, x and y
    expect(c.points.i.length).toBeGreaterThan(100);
    expect(c.points.x).toHaveLength(c.points.i.length);
    expect(c.points.y).toHaveLength(c.points.i.length);
    expect(c.correlation.n).toBe(c.points.i.length);
    expect(Math.abs(c.correlation.r)).toBeLessThanOrEqual(1);
    const strongest = await import("@/app/api/correlations/strongest/route");
    const s = await (await call(strongest.GET as Handler, `/api/correlations/strongest?from=${FIRST}&to=${LAST}&limit=5`)).json();
    expect(s.results).toHaveLength(5);
    expect(Math.abs(s.results[0].r)).toBeGreaterThanOrEqual(Math.abs(s.results[4].r));
    const bad = await call(pair.GET as Handler, `/api/correlations?x=resilience.level&y=sleep.score&from=${FIRST}&to=${LAST}`);
    expect(bad.status).toBe(422);
  });
});

describe("notes, tags and the tag comparison", () => {
  it("round-trips a day's note and tags, and compares tagged with untagged days", async () => {
    const note = await import("@/app/api/notes/[day]/route");
    const json = (body: unknown) => ({ method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (const day of ["2024-03-01", "2024-03-08", "2024-03-15"]) {
      const res = await call(note.PUT as Handler, `/api/notes/${day}`, { day }, json({ text: "  party ", tags: ["Alcohol", "alcohol "] }));
      expect(res.status).toBe(200);
      const saved = await res.json();
      expect(saved.text).toBe("party");
      expect(saved.tags.map((t: { name: string }) => t.name)).toEqual(["alcohol"]);
    }
    const tooLong = await call(note.PUT as Handler, `/api/notes/2024-03-02`, { day: "2024-03-02" }, json({ tags: ["x".repeat(41)] }));
    expect(tooLong.status).toBe(422);
    const notJson = await call(note.PUT as Handler, `/api/notes/2024-03-02`, { day: "2024-03-02" }, { method: "PUT", body: "x" });
    expect(notJson.status).toBe(415);
    // a NUL character (which PostgreSQL's text cannot hold) is refused like any other mistake
    for (const body of [{ text: "a\u0000b" }, { tags: ["a\u0000b"] }]) {
      const nul = await call(note.PUT as Handler, `/api/notes/2024-03-02`, { day: "2024-03-02" }, json(body));
      expect(nul.status).toBe(422);
    }

    const list = await import("@/app/api/notes/route");
    const l = await (await call(list.GET as Handler, `/api/notes?from=2024-03-01&to=2024-03-31`)).json();
    // the days with the person's own notes (the ring app's tags add days of their own: below)
    expect(l.days.filter((d: { tags: unknown[]; text: string }) => d.tags.length || d.text).map((d: { day: string }) => d.day)).toEqual([
      "2024-03-01",
      "2024-03-08",
      "2024-03-15",
    ]);

    const tags = await import("@/app/api/tags/route");
    const t = await (await call(tags.GET as Handler, "/api/tags")).json();
    expect(t.tags).toEqual([{ id: expect.any(Number), name: "alcohol", color: null, days: 3 }]);
    const dup = await call(
      tags.POST as Handler,
      "/api/tags",
      {},
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "ALCOHOL" }) },
    );
    expect(dup.status).toBe(409);

    const cmp = await import("@/app/api/tags/[id]/comparison/route");
    const id = String(t.tags[0].id);
    const r = await (await call(cmp.GET as Handler, `/api/tags/${id}/comparison?metric=sleep.score&lag=1`, { id })).json();
    const scores = new Map(docs.daily_sleep.map((d) => [d.day, d.score as number | null]));
    const next = ["2024-03-02", "2024-03-09", "2024-03-16"].map((d) => scores.get(d)).filter((v): v is number => typeof v === "number");
    expect(r.comparison.tagged.n).toBe(next.length);
    expect(r.comparison.tagged.mean).toBeCloseTo(next.reduce((a, b) => a + b, 0) / next.length, 6);
    expect(r.comparison.difference).toBeCloseTo(r.comparison.tagged.mean - r.comparison.untagged.mean, 9);

    // another person cannot see or change the tag
    session.user = { id: "u-other", email: null as unknown as string, role: "owner" };
    const other = await import("@/app/api/tags/[id]/route");
    const res = await call(other.DELETE as Handler, `/api/tags/${id}`, { id }, { method: "DELETE" });
    expect(res.status).toBe(404);
    session.user = { id: "u-dash", email: "dash@example.test", role: "owner" };

    const del = await call(note.DELETE as Handler, `/api/notes/2024-03-15`, { day: "2024-03-15" }, { method: "DELETE" });
    expect(del.status).toBe(204);
    const after = await (await call(tags.GET as Handler, "/api/tags")).json();
    expect(after.tags[0].days).toBe(2);
  });
});

describe("exports", () => {
  it("streams CSV rows equal to the stored rows, and JSON documents as sent", async () => {
    const { GET } = await import("@/app/api/export/route");
    const res = await call(GET as Handler, `/api/export?collection=daily_readiness&format=csv&from=2024-02-01&to=2024-02-29`);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="ringside-daily_readiness-2024-02-01_2024-02-29.csv"');
    const lines = (await res.text()).trim().split("\n");
    const stored = await sqlAll<{ documentId: string; day: string; score: number | null; hrv_balance: number | null }>(
      `SELECT documentId, day, score, hrv_balance FROM daily_readiness WHERE userId = 'u-dash' AND day BETWEEN '2024-02-01' AND '2024-02-29' ORDER BY day, id`,
    );
    const header = lines[0]!.split(",");
    expect(lines.length - 1).toBe(stored.length);
    for (const [i, row] of stored.entries()) {
      const cells = lines[i + 1]!.split(",");
      expect(cells[header.indexOf("documentId")]).toBe(row.documentId);
      expect(cells[header.indexOf("score")]).toBe(row.score === null ? "" : String(row.score));
      expect(cells[header.indexOf("hrv_balance")]).toBe(row.hrv_balance === null ? "" : String(row.hrv_balance));
    }
    const j = await (await call(GET as Handler, `/api/export?collection=sleep&format=json&from=2024-06-01`)).json();
    // as sent: the JSON the service sent (so -0 reads back as 0)
    expect(j.documents).toEqual(JSON.parse(JSON.stringify(docs.sleep.filter((d) => d.day >= "2024-06-01"))));
    const all = await (await call(GET as Handler, `/api/export?collection=all&format=json`)).json();
    expect(all.collections.daily_activity).toHaveLength(docs.daily_activity.length);
    expect(all.notes.length).toBe(2);
    // every resource's documents as the service sent them; the time series as their samples
    for (const c of RESOURCE_COLLECTIONS) expect(all.collections[c], c).toEqual(JSON.parse(JSON.stringify(records.list(c))));
    expect(all.collections.heartrate).toEqual(heartRows);
    expect(all.collections.ring_battery_level.length).toBeGreaterThan(30 * 30);
    const hrCsv = (await (await call(GET as Handler, `/api/export?collection=heartrate&format=csv`)).text()).trim().split("\n");
    expect(hrCsv[0]).toBe("timestamp,bpm,source");
    expect(hrCsv).toHaveLength(heartRows.length + 1);
    expect(hrCsv[1]).toBe(`${heartRows[0]!.timestamp},${heartRows[0]!.bpm},${heartRows[0]!.source}`);
  });
});

describe("the ring's other records", () => {
  const workoutDay = () => records.list("workout").at(-1)!.day as string;

  it("gives a day's heart rate on the local clock by source, its workouts, sessions, ring-app tags, bedtime and rest mode", async () => {
    const { GET } = await import("@/app/api/days/[day]/route");
    const day = workoutDay();
    const d = await (await call(GET as Handler, `/api/days/${day}`, { day })).json();
    const want = heartRows.filter((r) => String(r.timestamp).startsWith(day)).length;
    expect(d.records.offsetMinutes).toBe(0);
    expect(d.records.heartRate.length).toBe(want);
    expect(d.records.heartRate.every((p: { t: number }) => p.t >= 0 && p.t < 1440)).toBe(true);
    expect(new Set(d.records.heartRate.map((p: { source: string }) => p.source)).has("workout")).toBe(true);
    const workouts = records.list("workout").filter((w) => w.day === day);
    expect(d.records.workouts.map((w: { id: string }) => w.id).sort()).toEqual(workouts.map((w) => w.id).sort());
    expect(d.records.workouts[0].startMin).toBeGreaterThan(0);
    const bedtime = records.list("sleep_time").find((b) => b.day === day);
    expect(d.records.bedtime?.status ?? null).toBe(bedtime?.status ?? null);
    const tagDay = records.list("enhanced_tag").at(-1)!.start_day as string;
    const t = await (await call(GET as Handler, `/api/days/${tagDay}`, { day: tagDay })).json();
    expect(t.records.ringTags.length).toBe(records.list("enhanced_tag").filter((e) => e.start_day === tagDay).length);
    expect(t.note.ringTags.length).toBeGreaterThan(0);
  });

  it("lists workouts filtered, with weekly totals, and one workout's heart-rate curve (404 for another person's)", async () => {
    const { GET } = await import("@/app/api/workouts/route");
    const list = await (await call(GET as Handler, `/api/workouts?from=${FIRST}&to=${LAST}`)).json();
    expect(list.workouts).toHaveLength(records.list("workout").length);
    expect(list.workouts[0].start >= list.workouts.at(-1).start).toBe(true);
    const minutes = list.weekly.reduce((a: number, w: { minutes: number }) => a + w.minutes, 0);
    const want = records.list("workout").reduce((a, w) => a + (Date.parse(String(w.end_datetime)) - Date.parse(String(w.start_datetime))) / 60_000, 0);
    expect(Math.abs(minutes - want)).toBeLessThan(list.weekly.length * 0.1);
    const activity = list.activities[0];
    const some = await (await call(GET as Handler, `/api/workouts?from=${FIRST}&to=${LAST}&activity=${activity}&intensity=hard`)).json();
    expect(some.workouts.length).toBe(records.list("workout").filter((w) => w.activity === activity && w.intensity === "hard").length);
    expect((await call(GET as Handler, `/api/workouts?from=${LAST}&to=${FIRST}`)).status).toBe(422);

    const one = await import("@/app/api/workouts/[id]/route");
    const recent = records
      .list("workout")
      .filter((w) => String(w.day) > "2024-06-02")
      .at(-1)!;
    const detail = await (await call(one.GET as Handler, `/api/workouts/${recent.id}`, { id: String(recent.id) })).json();
    expect(detail.workout).toMatchObject({ id: recent.id, activity: recent.activity });
    expect(detail.heartRate.length).toBeGreaterThan(0);
    expect(detail.heartRate.every((p: { source: string }) => p.source === "workout")).toBe(true);
    session.user = { ...session.user, id: "u-nobody" };
    const other = await call(one.GET as Handler, `/api/workouts/${recent.id}`, { id: String(recent.id) });
    session.user = { ...session.user, id: "u-dash" };
    expect(other.status).toBe(404);
    // an id no document can have (a NUL in it) is simply not found
    const nul = await call(one.GET as Handler, `/api/workouts/a%00b`, { id: "a\u0000b" });
    expect(nul.status).toBe(404);
  });

  it("charts the new daily series like any metric: VO2 max, workout and session minutes, daytime heart rate", async () => {
    const { GET } = await import("@/app/api/metrics/[metric]/route");
    const get = async (metric: string, from = FIRST) => (await call(GET as Handler, `/api/metrics/${metric}?from=${from}&to=${LAST}`, { metric })).json();
    const vo2 = await get("vo2max.vo2_max");
    expect(vo2.summary.n).toBe(records.list("vO2_max").filter((d) => String(d.day) >= FIRST).length);
    const minutes = await get("workout.minutes");
    // 0 on worn days without a workout, the day's total on the others
    expect(minutes.summary.n).toBe(docs.daily_activity.length);
    const day = workoutDay();
    const i = (Date.parse(day) - Date.parse(FIRST)) / 86_400_000;
    const sum = records
      .list("workout")
      .filter((w) => w.day === day)
      .reduce((a, w) => a + (Date.parse(String(w.end_datetime)) - Date.parse(String(w.start_datetime))) / 1000, 0);
    expect(minutes.value[i]).toBe(Math.round(sum));
    expect((await get("session.minutes")).summary.n).toBe(docs.daily_activity.length);
    const hr = await get("heartrate.daytime_mean", "2024-06-05");
    expect(hr.summary.n).toBeGreaterThan(20);
    expect(hr.summary.min).toBeGreaterThan(40);
    const low = await get("heartrate.daytime_min", "2024-06-05");
    expect(low.summary.max).toBeLessThanOrEqual(hr.summary.max);
  });

  it("shows the ring app's tags as read-only Ringside tags, in day notes and in tagged-versus-untagged comparisons", async () => {
    const tags = await import("@/app/api/tags/route");
    const list = await (await call(tags.GET as Handler, "/api/tags")).json();
    const alcohol = list.ringTags.find((t: { id: string }) => t.id === "ring:tag_generic_alcohol");
    const want = new Set(
      records
        .list("enhanced_tag")
        .filter((e) => e.tag_type_code === "tag_generic_alcohol")
        .map((e) => e.start_day),
    ).size;
    expect(alcohol).toMatchObject({ name: "Alcohol", days: want, source: "ring" });
    const custom = records.list("enhanced_tag").find((e) => e.tag_type_code === "custom");
    if (custom)
      expect(list.ringTags.some((t: { id: string; name: string }) => t.id === `ring:custom:${custom.custom_name}` && t.name === custom.custom_name)).toBe(true);

    const cmp = await import("@/app/api/tags/[id]/comparison/route");
    const c = await (
      await call(cmp.GET as Handler, `/api/tags/ring:tag_generic_alcohol/comparison?metric=sleep.score&lag=1`, { id: "ring:tag_generic_alcohol" })
    ).json();
    expect(c.tag).toMatchObject({ id: "ring:tag_generic_alcohol", source: "ring" });
    expect(c.comparison.tagged.n + c.comparison.untagged.n).toBeGreaterThan(100);
    expect(c.comparison.tagged.n).toBeGreaterThan(0);
    const missing = await call(cmp.GET as Handler, `/api/tags/ring:tag_generic_nothing/comparison?metric=sleep.score`, { id: "ring:tag_generic_nothing" });
    expect(missing.status).toBe(404);

    const one = await import("@/app/api/tags/[id]/route");
    const patch = await call(
      one.PATCH as Handler,
      "/api/tags/ring:tag_generic_alcohol",
      { id: "ring:tag_generic_alcohol" },
      { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "booze" }) },
    );
    expect(patch.status).toBe(403);
    expect((await patch.json()).error.code).toBe("forbidden");
    expect((await call(one.DELETE as Handler, "/api/tags/ring:tag_generic_alcohol", { id: "ring:tag_generic_alcohol" }, { method: "DELETE" })).status).toBe(
      403,
    );

    const notes = await import("@/app/api/notes/route");
    const n = await (await call(notes.GET as Handler, `/api/notes?from=${FIRST}&to=${LAST}`)).json();
    const tagged = n.days.filter((d: { ringTags: Array<{ id: string }> }) => d.ringTags.some((t) => t.id === "ring:tag_generic_alcohol")).length;
    expect(tagged).toBe(want);
  });

  it("puts the ring's battery and firmware, today's workouts, bedtime and rest mode on Today", async () => {
    const { GET } = await import("@/app/api/days/latest/route");
    const t = await (await call(GET as Handler, "/api/days/latest")).json();
    expect(t.records.battery.level).toEqual(expect.any(Number));
    expect(t.records.ring.firmware).toBe(records.list("ring_configuration").at(-1)!.firmware_version);
    expect(t.records.workouts.map((w: { id: string }) => w.id)).toEqual(
      records
        .list("workout")
        .filter((w) => w.day === t.day)
        .map((w) => w.id),
    );
    expect(t.metrics["heartrate.daytime_mean"]?.value).toEqual(expect.any(Number));
    expect(t.metrics["vo2max.vo2_max"]?.value).toBe(records.list("vO2_max").at(-1)!.vo2_max);
  });
});

describe("preferences and deleting my data", () => {
  it("saves units and theme and sets the theme cookie", async () => {
    const { GET, PATCH } = await import("@/app/api/me/preferences/route");
    expect(await (await call(GET as Handler, "/api/me/preferences")).json()).toEqual({ units: "metric", theme: "system" });
    const res = await call(
      PATCH as Handler,
      "/api/me/preferences",
      {},
      { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ theme: "dark" }) },
    );
    expect(await res.json()).toEqual({ units: "metric", theme: "dark" });
    expect(res.headers.get("set-cookie")).toMatch(/^ringside-theme=dark; Path=\//);
    expect(res.headers.get("set-cookie")).not.toMatch(/Secure/);
    const viaHttps = await call(
      PATCH as Handler,
      "/api/me/preferences",
      {},
      { method: "PATCH", headers: { "content-type": "application/json", "x-forwarded-proto": "https" }, body: JSON.stringify({ theme: "light" }) },
    );
    expect(viaHttps.headers.get("set-cookie")).toMatch(/^ringside-theme=light;.*; Secure$/);
    const bad = await call(
      PATCH as Handler,
      "/api/me/preferences",
      {},
      { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ units: "furlongs" }) },
    );
    expect(bad.status).toBe(422);
  });

  it("deletes every row of the person and nobody else's", async () => {
    const { DELETE } = await import("@/app/api/data/route");
    const req = (body: unknown) => ({ method: "DELETE", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await call(DELETE as Handler, "/api/data", {}, req({ confirm: "yes" }))).status).toBe(422);
    const res = await call(DELETE as Handler, "/api/data", {}, req({ confirm: "DELETE" }));
    expect(res.status).toBe(200);
    const n = async (t: string, u: string) => Number(await sqlValue(`SELECT COUNT(*) AS n FROM ${t} WHERE userId = ?`, u));
    for (const t of [
      "daily_sleep",
      "sleep_period",
      "daily_activity",
      "day_note",
      "tag",
      "workout",
      "ring_session",
      "enhanced_tag",
      "ring_tag",
      "vo2_max",
      "sleep_time",
      "rest_mode_period",
      "ring_configuration",
      "heart_rate",
      "ring_battery_level",
    ])
      expect(await n(t, "u-dash"), t).toBe(0);
    expect(await n("heart_rate", "u-other")).toBeGreaterThan(0);
    expect(await n("daily_sleep", "u-other")).toBe(docs.daily_sleep.length);
  });
});
