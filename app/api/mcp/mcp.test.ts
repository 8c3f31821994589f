// The MCP server driven by the SDK's own client over both transports: streamable HTTP at
// /api/mcp (the route handler behind a real HTTP server) and stdio (`npm run mcp`, spawned, reading
// the same app's /api/v1 with the token). Every tool's figures are checked against the service
// functions the Trends, Correlations, Notes and day pages use; bad input to every tool is a
// tool error, after which the server still answers; a token's kinds and revocation hold.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { getMetric } from "@/lib/metrics/catalog";
import { addDays, todayIn } from "@/lib/days";
import { resolveRange } from "@/lib/metrics/ranges";
import { seedPerson } from "@/lib/test/people";
import { serveRoutes, type RouteServer } from "@/lib/test/route-server";

const FIRST = "2024-01-01";
const LAST = "2024-06-30";
const USER = "u-mcp";
const TAGGED = ["2024-05-03", "2024-05-10", "2024-05-17", "2024-05-24", "2024-05-31", "2024-06-07"];
let server: RouteServer;
let token = "";
/** the stdio transport's own token: each transport's calls count against their token's rate limit, and the suite's come close to one */
let stdioToken = "";
let sleepOnly = "";

beforeAll(async () => {
  await seedPerson({ userId: USER, seed: "mcp", from: FIRST, to: LAST });
  const { setDayNote } = await import("@/lib/db/queries/notes");
  for (const d of TAGGED) await setDayNote({ userId: USER, day: d, text: `dinner at ten on ${d}`, tags: ["late-dinner"] });
  const { createApiToken } = await import("@/lib/services/api-tokens");
  token = (await createApiToken(USER, { name: "assistant", kinds: DATA_KINDS })).token;
  stdioToken = (await createApiToken(USER, { name: "local assistant", kinds: DATA_KINDS })).token;
  sleepOnly = (await createApiToken(USER, { name: "sleep only", kinds: ["daily_sleep"] })).token;
  server = await serveRoutes(["app/api/v1", "app/api/mcp"]);
});

afterAll(async () => {
  await server?.close();
});

function connectHttp(t: string) {
  return new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${t}` } } });
}

function connectStdio(t: string) {
  return new StdioClientTransport({
    command: "npm",
    args: ["run", "-s", "mcp"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", RINGSIDE_URL: server.url, RINGSIDE_TOKEN: t },
    stderr: "pipe",
  });
}

async function open(kind: "http" | "stdio", t = token): Promise<Client> {
  const client = new Client({ name: "ringside-test", version: "1" });
  await client.connect(kind === "http" ? connectHttp(t) : connectStdio(t));
  return client;
}

type Structured = Record<string, any>;
async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ result: CallToolResult; data: Structured; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { result, data: (result.structuredContent ?? {}) as Structured, text };
}

/** What the pages compute, straight from the services they use. */
async function pages() {
  const m = await import("@/lib/services/metrics");
  const { getTagComparison } = await import("@/lib/services/tags");
  const overview = await m.getMetricsOverview(USER);
  return { m, getTagComparison, overview, range: (preset: "90d" | "1y") => resolveRange(preset, overview, todayIn()) };
}

const TOOLS = [
  "list_data",
  "get_state",
  "get_metric_series",
  "compare_periods",
  "correlate_metrics",
  "compare_tagged_days",
  "summarize_day",
  "find_unusual_days",
  "get_signals",
  "get_report_summary",
  "get_cycle",
];

/** Bad arguments for every tool: each must come back as a tool error naming the problem. */
const BAD: Record<string, Array<Record<string, unknown>>> = {
  list_data: [{ surprise: 1 }],
  get_state: [{ day: "2024-06-01" }],
  get_metric_series: [
    {},
    { metrc: "sleep.score" },
    { metric: "sleep.nope" },
    { metric: "sleep.score", from: "2024-02-30" },
    { metric: "sleep.score", from: "2024-06-01", to: "2024-05-01" },
    { metric: "sleep.score", resolution: "hour" },
    { metric: "sleep.score", from: "2000-01-01", to: "2099-12-31" },
    { metric: 42 },
  ],
  compare_periods: [
    { metric: "sleep.score" },
    { metric: "sleep.score", first: { from: "2024-04-01" }, second: { from: "2024-05-01", to: "2024-05-31" } },
    { metric: "sleep.score", first: { from: "2024-04-30", to: "2024-04-01" }, second: { from: "2024-05-01", to: "2024-05-31" } },
  ],
  correlate_metrics: [
    { x: "activity.steps" },
    { x: "activity.steps", y: "resilience.level" },
    { x: "activity.steps", y: "sleep.score", lag: 7 },
    { x: "activity.steps", y: "sleep.score", range: "forever" },
  ],
  compare_tagged_days: [
    { metric: "sleep.score" },
    { tag: "", metric: "sleep.score" },
    { tag: "x".repeat(41), metric: "sleep.score" },
    { tag: "late-dinner", metric: "stress.day_summary" },
  ],
  summarize_day: [{ day: "yesterday" }, { date: "2024-06-01" }, { day: "1999-12-31" }, { day: 20240601 }],
  find_unusual_days: [{ limit: 0 }, { metric: "readiness.score", days: 30 }, { limit: 21 }, { metric: "resilience.level" }, { from: "2024-13-01" }],
  get_signals: [{ from: "2024-13-01" }, { range: "forever" }, { kind: "sleep_debt" }, { from: "2024-06-30", to: "2024-06-01" }],
  get_report_summary: [{ compare: "week" }, { range: "forever" }, { sections: "notes" }, { from: "2024-06-30", to: "2024-06-01" }],
  get_cycle: [{ from: "2024-13-01" }, { range: "forever" }, { phase: "luteal" }, { from: "2024-06-30", to: "2024-06-01" }],
};

for (const transport of ["http", "stdio"] as const) {
  describe(`MCP over ${transport}`, () => {
    let client: Client;
    beforeAll(async () => {
      client = await open(transport, transport === "stdio" ? stdioToken : token);
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });

    it("lists the tools and the two resources", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      for (const t of tools) expect(t.description?.length).toBeGreaterThan(40);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual(["ringside://catalog", "ringside://tags"]);
      const textOf = async (uri: string) => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);
      const catalog = await textOf("ringside://catalog");
      expect(catalog.metrics.find((m: { id: string }) => m.id === "sleep.score")).toMatchObject({ label: "Sleep score", unit: "score" });
      const tags = await textOf("ringside://tags");
      expect(tags.tags).toEqual([expect.objectContaining({ name: "late-dinner", days: TAGGED.length })]);
    });

    it("list_data: what exists, with n", async () => {
      const { overview } = await pages();
      const { data } = await tool(client, "list_data");
      expect(data.lastDay).toBe(overview.lastDay);
      expect(data.firstDay).toBe(overview.firstDay);
      expect(data.n).toBe(overview.ranges.reduce((a, r) => a + r.count, 0));
      expect(data.tags).toBe(1);
      expect(data.metricGroups.find((g: { group: string }) => g.group === "Sleep").metrics).toContain("sleep.score (score)");
    });

    it("get_state: what GET /api/v1/state answers, and a paragraph of it", async () => {
      const res = await fetch(`${server.url}/api/v1/state`, { headers: { authorization: `Bearer ${token}` } });
      const state = await res.json();
      const { data, text } = await tool(client, "get_state");
      expect(data).toEqual(state);
      expect(data.scores.sleep).toMatchObject({ day: LAST, unit: "score" });
      expect(text).toContain(`sleep ${state.scores.sleep.value} (${LAST})`);
      expect(text).toContain(`lowest heart rate ${state.night.lowestHeartRate.value} bpm`);
    });

    it("get_metric_series: the Trends page's figures for its default 90 days", async () => {
      const { m, range } = await pages();
      const r = range("90d");
      const page = await m.getMetricSeries({ userId: USER, metric: getMetric("night.average_hrv"), ...r });
      const { data, text } = await tool(client, "get_metric_series", { metric: "night.average_hrv" });
      if (page.kind !== "numeric") throw new Error("numeric");
      expect({
        from: data.from,
        to: data.to,
        n: data.n,
        days: data.days,
        mean: data.mean,
        min: data.min,
        max: data.max,
        outside: data.outsideUsualRange,
        unit: data.unit,
      }).toEqual({
        ...r,
        n: page.summary.n,
        days: 90,
        mean: page.summary.mean,
        min: page.summary.min,
        max: page.summary.max,
        outside: page.summary.anomalies,
        unit: "ms",
      });
      expect(data.previousPeriod).toEqual({
        mean: page.comparison.previous.mean,
        n: page.comparison.previous.n,
        change: page.comparison.delta,
        changePct: page.comparison.deltaPct,
      });
      expect(data.latest.avg7).toBe(page.avg7.at(-1));
      expect(data.rows).toHaveLength(90);
      expect(data.rows[5]).toEqual({
        start: addDays(r.from, 5),
        end: addDays(r.from, 5),
        n: page.value[5] === null ? 0 : 1,
        mean: page.value[5] === null ? null : Math.round(page.value[5]! * 10) / 10,
      });
      expect(text).toMatch(/n = \d+ of 90 days/);
    });

    it("get_metric_series: weeks and months, bounded rows", async () => {
      const { m } = await pages();
      const week = await tool(client, "get_metric_series", { metric: "sleep.score", from: "2024-04-01", to: "2024-04-28", resolution: "week" });
      const page = await m.getMetricSeries({ userId: USER, metric: getMetric("sleep.score"), from: "2024-04-01", to: "2024-04-28" });
      const firstWeek = page.value.slice(0, 7).filter((v): v is number => v !== null);
      expect(week.data.rows).toHaveLength(4);
      expect(week.data.rows[0]).toMatchObject({
        start: "2024-04-01",
        end: "2024-04-07",
        n: firstWeek.length,
        min: Math.min(...firstWeek),
        max: Math.max(...firstWeek),
      });
      expect(week.data.rows[0].mean).toBeCloseTo(firstWeek.reduce((a, b) => a + b, 0) / firstWeek.length, 1);
      const month = await tool(client, "get_metric_series", { metric: "sleep.score", from: FIRST, to: LAST, resolution: "month" });
      expect(month.data.rows.map((r: { start: string }) => r.start)).toEqual([
        "2024-01-01",
        "2024-02-01",
        "2024-03-01",
        "2024-04-01",
        "2024-05-01",
        "2024-06-01",
      ]);
      const days = await tool(client, "get_metric_series", { metric: "sleep.score", from: FIRST, to: LAST, resolution: "day" });
      expect(days.data.rows).toHaveLength(120);
      expect(days.data.rowsOmitted).toBe(182 - 120);
      expect(days.data.rows.at(-1).start).toBe(LAST);
      expect(days.text.length).toBeLessThan(16_000);
      const cat = await tool(client, "get_metric_series", { metric: "resilience.level", from: "2024-06-01", to: LAST });
      expect(cat.data.counts).toEqual(
        ((await m.getMetricSeries({ userId: USER, metric: getMetric("resilience.level"), from: "2024-06-01", to: LAST })) as { counts: unknown }).counts,
      );
    });

    it("compare_periods: each period's mean and n as Trends shows them, and the change", async () => {
      const { m } = await pages();
      const { data } = await tool(client, "compare_periods", {
        metric: "sleep.score",
        first: { from: "2024-04-01", to: "2024-04-30" },
        second: { from: "2024-05-01", to: "2024-05-31" },
      });
      const a = await m.getMetricSeries({ userId: USER, metric: getMetric("sleep.score"), from: "2024-04-01", to: "2024-04-30" });
      const b = await m.getMetricSeries({ userId: USER, metric: getMetric("sleep.score"), from: "2024-05-01", to: "2024-05-31" });
      expect([data.first.mean, data.first.n, data.second.mean, data.second.n]).toEqual([
        a.summary.n && (a as { summary: { mean: number } }).summary.mean,
        a.summary.n,
        (b as { summary: { mean: number } }).summary.mean,
        b.summary.n,
      ]);
      expect(data.change).toBeCloseTo((b as { summary: { mean: number } }).summary.mean - (a as { summary: { mean: number } }).summary.mean, 2);
      expect(data.unit).toBe("score");
    });

    it("correlate_metrics: the Correlations page's r and n (default: the last year)", async () => {
      const { m, range } = await pages();
      const r = range("1y");
      const page = await m.getCorrelation({ userId: USER, x: getMetric("activity.steps"), y: getMetric("sleep.score"), lag: 1, ...r });
      const { data } = await tool(client, "correlate_metrics", { x: "activity.steps", y: "sleep.score", lag: 1 });
      expect({ n: data.n, r: data.r, strength: data.strength, from: data.from, to: data.to }).toEqual({
        n: page.correlation!.n,
        r: Math.round(page.correlation!.r * 1000) / 1000,
        strength: page.correlation!.strength,
        ...r,
      });
      expect(data.x).toEqual({ metric: "activity.steps", label: "Steps", unit: "steps" });
      const same = await tool(client, "correlate_metrics", { x: "readiness.score", y: "sleep.score", from: "2024-03-01", to: LAST });
      const page0 = await m.getCorrelation({
        userId: USER,
        x: getMetric("readiness.score"),
        y: getMetric("sleep.score"),
        lag: 0,
        from: "2024-03-01",
        to: LAST,
      });
      expect([same.data.lag, same.data.n, same.data.r]).toEqual([0, page0.correlation!.n, Math.round(page0.correlation!.r * 1000) / 1000]);
    });

    it("compare_tagged_days: the Notes page's comparison", async () => {
      const { getTagComparison } = await pages();
      const { listTags } = await import("@/lib/db/queries/notes");
      const tagId = (await listTags(USER))[0]!.id;
      const page = await getTagComparison({ userId: USER, id: tagId, metric: getMetric("sleep.score"), lag: 1 });
      const { data } = await tool(client, "compare_tagged_days", { tag: "late-dinner", metric: "sleep.score", lag: 1 });
      const c = page.comparison!;
      expect({ tagged: data.tagged.n, untagged: data.untagged.n, tMean: data.tagged.mean, uMean: data.untagged.mean }).toEqual({
        tagged: c.tagged.n,
        untagged: c.untagged.n,
        tMean: Math.round(c.tagged.mean! * 10) / 10,
        uMean: Math.round(c.untagged.mean! * 10) / 10,
      });
      expect(data.tagged.n).toBe(TAGGED.length);
      expect(data.difference).toBe(Math.round(c.difference! * 10) / 10);
      const none = await tool(client, "compare_tagged_days", { tag: "no-such-tag", metric: "sleep.score" });
      expect(none.result.isError).toBe(true);
      expect(none.text).toMatch(/No tag named "no-such-tag". Tags: late-dinner/);
    });

    it("summarize_day: the day page's and Today's figures for that day", async () => {
      const { m } = await pages();
      const day = "2024-06-07";
      const today = await m.getTodaySummary(USER, day);
      const { data } = await tool(client, "summarize_day", { day });
      const expected = Object.values(today.metrics).filter((t) => t!.day === day);
      expect(data.n).toBe(expected.length);
      expect(data.n).toBeGreaterThan(10);
      for (const t of expected) {
        const got = data.metrics.find((x: { metric: string }) => x.metric === t!.id);
        expect({ id: t!.id, value: got.value, flag: got.flag, unit: got.unit }).toEqual({
          id: t!.id,
          value: t!.value,
          flag: t!.flag,
          unit: getMetric(t!.id).unit,
        });
      }
      expect(data.note).toEqual({ text: `dinner at ten on ${day}`, tags: ["late-dinner"] });
      const detail = await m.getDayDetail(USER, day);
      const main = detail.periods.find((p) => p.role === "main");
      expect(data.sleep?.bedtimeStart ?? null).toBe(main?.bedtimeStart ?? null);
      const latest = await tool(client, "summarize_day");
      expect(latest.data.day).toBe(LAST);
    });

    it("find_unusual_days: the days Trends marks outside the usual range", async () => {
      const { m, range } = await pages();
      const r = range("90d");
      const page = await m.getMetricSeries({ userId: USER, metric: getMetric("readiness.score"), ...r });
      if (page.kind !== "numeric") throw new Error("numeric");
      const flagged = page.flag.map((f, i) => (f ? addDays(r.from, i) : null)).filter((d): d is string => d !== null);
      const { data } = await tool(client, "find_unusual_days", { metric: "readiness.score", limit: 20 });
      expect(data.flagged).toBe(flagged.length);
      expect(data.n).toBe(page.summary.n);
      for (const d of data.days) expect(flagged).toContain(d.day);
      expect(data.days.length).toBe(Math.min(20, flagged.length));
      const all = await tool(client, "find_unusual_days", {});
      expect(all.data.days.length).toBeLessThanOrEqual(10);
      expect(all.data.metrics.length).toBeGreaterThan(5);
      for (let i = 1; i < all.data.days.length; i++) expect(Math.abs(all.data.days[i - 1].z)).toBeGreaterThanOrEqual(Math.abs(all.data.days[i].z));
    });

    it("get_signals: the read API's signals of the last 30 days with data, the newest day in full", async () => {
      const { range } = await pages();
      const r = range("90d");
      const { getSignals } = await import("@/lib/services/signals");
      const last30 = { from: addDays(r.to, -29), to: r.to };
      const api = await getSignals({ userId: USER, ...last30 });
      const { data, text } = await tool(client, "get_signals");
      expect({ from: data.from, to: data.to, kinds: data.kinds }).toEqual({ ...last30, kinds: ["early_warning", "sleep_debt", "regularity", "training_load"] });
      expect(data.rows).toHaveLength(30);
      expect(data.newest).toEqual(api.days.at(-1));
      const debt = api.days.at(-1)!.signals.find((s) => s.kind === "sleep_debt");
      expect(data.rows.at(-1).sleep_debt_h).toBe(debt?.kind === "sleep_debt" ? debt.value : undefined);
      // the need the debt is measured against: its hours, range, lower bound and source in words
      if (debt?.kind !== "sleep_debt") throw new Error("no sleep debt row");
      const b = debt.baseline;
      expect(data.rows.at(-1)).toMatchObject({ sleep_need_h: b.needH, sleep_need_at_least: b.needAtLeast });
      expect(data.sleep_need).toEqual({
        hours: b.needH,
        range_h: b.needRange && [b.needRange.lowH, b.needRange.highH],
        at_least: b.needAtLeast,
        source: b.needSource,
        source_text: b.needSourceText,
      });
      expect(text).toMatch(/^Signals 2024-/);
      // a year is cut to its newest 90 days
      const year = await tool(client, "get_signals", { range: "1y" });
      expect(year.data.rows).toHaveLength(90);
      expect(year.data.to).toBe(r.to);
    });

    it("get_report_summary: the report's summary of the last 30 days with data, the same numbers as the report", async () => {
      const { range } = await pages();
      const r = range("90d");
      const last30 = { from: addDays(r.to, -29), to: r.to };
      const { buildReport } = await import("@/lib/services/report");
      const report = await buildReport(USER, { ...last30, compare: "previous", sections: ["summary"] });
      const { data, text } = await tool(client, "get_report_summary", { compare: "previous" });
      expect(data).toEqual(JSON.parse(JSON.stringify(report.summary)));
      expect(data.scores.map((m: { metric: string }) => m.metric)).toEqual(["sleep.score", "readiness.score", "activity.score"]);
      expect(data.compared).toEqual({ from: addDays(last30.from, -30), to: addDays(last30.from, -1) });
      expect(text).toMatch(/^Report summary 2024-\d\d-\d\d to 2024-\d\d-\d\d: \d+ of 30 nights with data/);
      // the whole history is cut to its newest year
      const all = await tool(client, "get_report_summary", { range: "all" });
      expect({ to: all.data.to, days: all.data.days }).toEqual({ to: r.to, days: 182 });
    });

    it("bad input to every tool: a tool error naming the problem, and the server answers on", async () => {
      expect(Object.keys(BAD).sort()).toEqual([...TOOLS].sort());
      for (const [name, cases] of Object.entries(BAD)) {
        for (const args of cases) {
          const { result, text } = await tool(client, name, args);
          expect({ name, args, isError: result.isError }).toEqual({ name, args, isError: true });
          expect(text).toMatch(/invalid|must|unknown|unrecognized|at most|expected|not valid|too|between/i);
          expect(text.length).toBeLessThan(4_000);
        }
      }
      await expect(client.callTool({ name: "drop_tables", arguments: {} })).resolves.toMatchObject({ isError: true });
      expect((await tool(client, "list_data")).result.isError).toBeFalsy();
    });

    it("a sleep-only token: other kinds are refused as tool errors", async () => {
      const limited = await open(transport, sleepOnly);
      try {
        const ok = await tool(limited, "get_metric_series", { metric: "sleep.score" });
        expect(ok.result.isError).toBeFalsy();
        const refused = await tool(limited, "get_metric_series", { metric: "readiness.score" });
        expect(refused.result.isError).toBe(true);
        expect(refused.text).toMatch(/cannot read readiness/i);
        const tags = await tool(limited, "compare_tagged_days", { tag: "late-dinner", metric: "sleep.score" });
        expect(tags.result.isError).toBe(true);
        const report = await tool(limited, "get_report_summary");
        expect(report.result.isError).toBe(true);
        expect(report.text).toMatch(/lacks/);
        const state = await tool(limited, "get_state");
        expect([state.data.scores.sleep === null, state.data.scores.readiness, state.data.night.averageHrv, state.data.battery]).toEqual([
          false,
          null,
          null,
          null,
        ]);
        const cycle = await tool(limited, "get_cycle");
        expect(cycle.result.isError).toBe(true);
        expect(cycle.text).toMatch(/cannot read your cycle/i);
        expect(state.data).not.toHaveProperty("cycle");
        const list = await tool(limited, "list_data");
        expect(list.data.tags).toBeNull();
        expect(list.data.metricGroups.flatMap((g: { metrics: string[] }) => g.metrics).every((m: string) => m.startsWith("sleep."))).toBe(true);
      } finally {
        await limited.close();
      }
    });
  });
}

describe("get_cycle", () => {
  it("answers no rows while the person's cycle tracking is off, then their days once it is on", async () => {
    const { createApiToken } = await import("@/lib/services/api-tokens");
    const client = await open("http", (await createApiToken(USER, { name: "cycle reader", kinds: DATA_KINDS })).token);
    try {
      const off = await tool(client, "get_cycle", { from: "2024-05-01", to: "2024-06-30" });
      expect(off.result.isError).toBeFalsy();
      expect([off.data.status, off.data.rows]).toEqual(["off", []]);
      expect(off.text).toMatch(/tracking is off/i);
      const { saveCycleSettings, logCycleEntry } = await import("@/lib/services/cycle-entries");
      await saveCycleSettings(USER, { tracking: true });
      await logCycleEntry(USER, { day: "2024-06-03", kind: "period_start" });
      const on = await tool(client, "get_cycle", { from: "2024-06-01", to: "2024-06-10" });
      expect(on.data.rows).toHaveLength(10);
      expect(on.data.rows.find((r: { day: string }) => r.day === "2024-06-04")).toMatchObject({ cycle_day: 2 });
      expect(on.data.entries).toEqual([expect.objectContaining({ day: "2024-06-03", kind: "period_start" })]);
      const state = await tool(client, "get_state");
      expect(Object.keys(state.data.cycle ?? {}).sort()).toEqual(["cycle_day", "day", "next_period", "phase"]);
    } finally {
      const { saveCycleSettings, removeCycleData } = await import("@/lib/services/cycle-entries");
      await removeCycleData(USER);
      await saveCycleSettings(USER, { tracking: false });
      await client.close();
    }
  });
});

describe("revocation", () => {
  it("a revoked token no longer opens either transport", async () => {
    const { createApiToken, listApiTokenSummaries, revokeApiToken } = await import("@/lib/services/api-tokens");
    const t = (await createApiToken(USER, { name: "short-lived", kinds: DATA_KINDS })).token;
    const http = await open("http", t);
    expect((await tool(http, "list_data")).result.isError).toBeFalsy();
    const stdio = await open("stdio", t);
    await revokeApiToken(USER, (await listApiTokenSummaries(USER)).find((x) => x.name === "short-lived")!.id);
    await expect(http.callTool({ name: "list_data", arguments: {} })).rejects.toThrow(/401|not valid/i);
    const after = await tool(stdio, "list_data");
    expect(after.result.isError).toBe(true);
    expect(after.text).toMatch(/not valid/);
    await http.close();
    await stdio.close();
    await expect(open("http", t)).rejects.toThrow();
  }, 60_000);
});

describe("rate limit", () => {
  it("a JSON-RPC batch counts each of its calls against the token's limit, all or none (the audit: one unit per batch)", async () => {
    const { createApiToken } = await import("@/lib/services/api-tokens");
    const t = (await createApiToken(USER, { name: "batcher", kinds: DATA_KINDS })).token;
    const { env } = await import("@/lib/env.mjs");
    // the limiter's clock stands still: a bucket refills 2 a second, and on a busy machine the
    // big batch takes long enough to bring back the one the last batch must miss
    const { clock, setClock, ManualClock } = await import("@/lib/clock");
    setClock(new ManualClock(clock.now()));
    onTestFinished(() => setClock(undefined));
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_data", arguments: {} } });
    const post = (body: unknown) =>
      fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${t}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-03-26",
        },
        body: JSON.stringify(body),
      });
    // more calls than the whole allowance: refused at once, nothing run
    const tooMany = await post(Array.from({ length: env.API_RATE_LIMIT + 1 }, (_, i) => call(i)));
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await tooMany.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // a batch of all but two: then a batch of three finds only two left (the refused batch took one)
    expect((await post(Array.from({ length: env.API_RATE_LIMIT - 3 }, (_, i) => call(i)))).status).not.toBe(429);
    expect((await post([call(1), call(2), call(3)])).status).toBe(429);
  }, 60_000);
});

describe("npm run mcp when its client goes away", () => {
  it("ends cleanly (exit code 0) when its stdin closes, and when its stdout loses its reader", async () => {
    const { spawn } = await import("node:child_process");
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "test",
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      RINGSIDE_URL: server.url,
      RINGSIDE_TOKEN: token,
    };
    const run = () => {
      const child = spawn(process.execPath, ["--import", "tsx", "lib/mcp/stdio.ts"], { env, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const ready = new Promise<void>((resolve) => child.stderr.on("data", () => stderr.includes("serving") && resolve()));
      const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      return { child, ready, exit, stderr: () => stderr };
    };
    const a = run();
    await a.ready;
    a.child.stdin.end();
    expect(await a.exit).toBe(0);

    const b = run();
    await b.ready;
    b.child.stdout.destroy();
    // a request whose answer finds no reader
    b.child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }) + "\n",
    );
    expect(await b.exit).toBe(0);
    expect(b.stderr()).not.toMatch(/EPIPE|Error:/);
  }, 60_000);
});
