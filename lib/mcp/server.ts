// Ringside's MCP server: tools that answer questions about one person's ring data, and two
// resources (the metric catalog, the person's tags). It reads through a RingsideReader (the
// app's services in /api/mcp, the read API over HTTP in `npm run mcp`), so both transports give
// the pages' figures. Every answer is compact and bounded (lib/mcp/summaries.ts) and states n
// and units; bad arguments come back as a tool error naming the problem, never a crash.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z, ZodError } from "zod";
import { daySchema, dayRangeSchema, metricIdSchema, numericMetricIdSchema, tagNameSchema, withDayRange } from "@/lib/schemas/requests";
import { getMetric, HEADLINE_METRICS, type MetricId } from "@/lib/metrics/catalog";
import { addDays, diffDays, maxDay, todayIn } from "@/lib/days";
import { resolveRange, type RangePreset } from "@/lib/metrics/ranges";
import type { Range, RingsideReader } from "@/lib/mcp/reader";
import {
  autoResolution,
  comparePeriodSeries,
  MAX_UNUSUAL,
  summarizeCatalog,
  summarizeCorrelation,
  summarizeDay,
  summarizeSeries,
  summarizeState,
  summarizeTagComparison,
  unusualDays,
  type Resolution,
} from "@/lib/mcp/summaries";
import { MAX_SIGNAL_DAYS, summarizeSignals } from "@/lib/mcp/signals-summary";
import { REPORT_COMPARE_MODES, REPORT_MAX_DAYS } from "@/lib/metrics/report";
import { cycleHeadline, summarizeCycle } from "@/lib/mcp/cycle-summary";
import { CYCLE_MAX_DAYS } from "@/lib/schemas/cycle-query";

export const MCP_SERVER_NAME = "ringside";

const PRESETS = ["7d", "30d", "90d", "1y", "all"] as const;
const presetSchema = z.enum(PRESETS).describe("a range ending on the newest day with data (7d, 30d, 90d, 1y, all); ignored when from and to are given");
const lagSchema = z
  .union([z.literal(0), z.literal(1)])
  .default(0)
  .describe("0: y on the same day as x; 1: y on the next day");

type Options = {
  /** told about failures that are not the caller's (logged by the host, never shown) */
  onError?: (err: unknown) => void;
  version?: string;
};

/** A refusal worth showing: Ringside's envelope (a status below 500) or invalid arguments. */
function clientMessage(err: unknown): string | null {
  if (err instanceof ZodError) return `Invalid arguments: ${err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`;
  if (typeof err === "object" && err !== null) {
    const e = err as { status?: unknown; message?: unknown };
    if (typeof e.status === "number" && e.status < 500 && typeof e.message === "string") return e.message;
    if (e.status === 0 && typeof e.message === "string") return e.message;
  }
  return null;
}

function answer(text: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: `${text}\n${JSON.stringify(data)}` }], structuredContent: data };
}

export function createRingsideMcpServer(reader: RingsideReader, opts: Options = {}): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: opts.version ?? "1" },
    {
      instructions:
        "Ringside holds one person's ring data (sleep, readiness, activity, SpO2, stress, resilience, cardiovascular age) and their notes and tags. " +
        "Start with list_data to see which metrics and days exist. Metric ids look like sleep.score; values are in each metric's unit (s = seconds). " +
        "Answers state n (days with a value) and units; a correlation is not a cause. " +
        "get_signals explains early warning, sleep debt, regularity and training load with their inputs and baselines; they are not a diagnosis. " +
        "get_report_summary gives a period's summary as the report for a doctor or a coach shows it. " +
        "get_cycle gives the menstrual cycle by day (only with the cycle kind and the person's cycle tracking on).",
    },
  );

  const run = (fn: () => Promise<CallToolResult>) => async (): Promise<CallToolResult> => {
    try {
      return await fn();
    } catch (err) {
      const message = clientMessage(err);
      if (message === null) opts.onError?.(err);
      return { isError: true, content: [{ type: "text", text: message ?? "Ringside could not answer this (an error on the server)." }] };
    }
  };

  /** The range a tool reads: from/to when given, else the preset ending on the newest day with data (as the pages do). */
  async function rangeOf(q: { range?: RangePreset; from?: string; to?: string }, preset: RangePreset): Promise<Range> {
    const catalog = await reader.catalog();
    if (q.from && q.to) return { from: q.from, to: q.to };
    const r = resolveRange(q.range ?? preset, catalog, todayIn());
    if (q.from) return { from: q.from, to: r.to < q.from ? q.from : r.to };
    if (q.to) return { from: r.from > q.to ? q.to : r.from, to: q.to };
    return r;
  }

  server.registerTool(
    "list_data",
    {
      title: "What data exists",
      description:
        "Which kinds of data this token may read, the first and last day of each collection, the metrics by group (id and unit), and how many tags there are.",
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true },
    },
    run(async () => {
      const catalog = await reader.catalog();
      const granted = catalog.kinds.some((k) => k.kind === "notes" && k.granted);
      const tags = granted ? (await reader.tags()).tags.length : null;
      const data = summarizeCatalog(catalog, tags);
      return answer(`${data.n} documents from ${data.firstDay ?? "—"} to ${data.lastDay ?? "—"}.`, data);
    }),
  );

  server.registerTool(
    "get_state",
    {
      title: "The person's state now",
      description:
        "The newest readiness, sleep and activity scores, last night's lowest heart rate, HRV, breathing rate and temperature deviation " +
        "(each with its day and age in days), the ring's battery (level, charging, when it was read) and the newest bedtime window: " +
        "what GET /api/v1/state answers.",
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true },
    },
    run(async () => {
      const state = await reader.state();
      return answer(summarizeState(state), state as unknown as Record<string, unknown>);
    }),
  );

  const seriesInput = withDayRange({
    metric: metricIdSchema.describe("a metric id from list_data, e.g. sleep.score"),
    range: presetSchema.optional(),
    resolution: z.enum(["day", "week", "month"]).optional().describe("rows by day, ISO week or calendar month (default: the finest that fits 120 rows)"),
  }).strict();
  server.registerTool(
    "get_metric_series",
    {
      title: "A metric over time",
      description:
        "One metric over a range (default: the last 90 days, as the Trends page): mean, min, max, n, days outside the usual range, the change against " +
        "the previous period of the same length, the latest 7- and 30-day means and usual range, and rows by day, week or month (at most 120).",
      inputSchema: seriesInput,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const range = await rangeOf(args, "90d");
        const series = await reader.series(args.metric, range);
        const resolution: Resolution = args.resolution ?? autoResolution(diffDays(range.from, range.to) + 1);
        const s = summarizeSeries(series, resolution);
        return answer(`${s.label} (${s.unit}), ${s.from} to ${s.to}: n = ${s.n} of ${s.days} days, mean ${s.mean ?? "—"}.`, s);
      })(),
  );

  server.registerTool(
    "compare_periods",
    {
      title: "Compare two periods",
      description:
        "One metric in two periods: each one's mean, sd, min, max and n (the figures Trends shows for that range), " +
        "and the change from the first to the second.",
      inputSchema: z.strictObject({
        metric: metricIdSchema.describe("a metric id from list_data"),
        first: dayRangeSchema.describe("the earlier (or reference) period: {from, to}"),
        second: dayRangeSchema.describe("the period to compare with it: {from, to}"),
      }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const [a, b] = await Promise.all([reader.series(args.metric, args.first), reader.series(args.metric, args.second)]);
        const c = comparePeriodSeries(a, b);
        const first = `${c.label} (${c.unit}): ${c.first.mean ?? "—"} (n = ${c.first.n})`;
        return answer(`${first} then ${c.second.mean ?? "—"} (n = ${c.second.n}), change ${c.change ?? "—"}.`, c);
      })(),
  );

  server.registerTool(
    "correlate_metrics",
    {
      title: "Correlate two metrics",
      description:
        "Pearson's r between x on a day and y on the same day (lag 0) or the next day (lag 1), with n, strength, the 95% interval and the fitted line " +
        "(default range: the last year, as the Correlations page).",
      inputSchema: withDayRange({
        x: numericMetricIdSchema.describe("a numeric metric id, e.g. activity.steps"),
        y: numericMetricIdSchema.describe("a numeric metric id, e.g. sleep.score"),
        lag: lagSchema,
        range: presetSchema.optional(),
      }).strict(),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const range = await rangeOf(args, "1y");
        const c = summarizeCorrelation(await reader.correlation({ x: args.x, y: args.y, lag: args.lag, ...range }));
        return answer(c.reading, c);
      })(),
  );

  server.registerTool(
    "compare_tagged_days",
    {
      title: "Tagged days against the others",
      description:
        "A metric on days with a tag against days without it (lag 1: the day after each tagged day), " +
        "with n, mean and sd of each group and the difference (default range: all days with data).",
      inputSchema: withDayRange({
        tag: tagNameSchema.describe("the tag's name, as list_data or the tags resource shows it"),
        metric: numericMetricIdSchema.describe("a numeric metric id"),
        lag: lagSchema,
      }).strict(),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const { tags } = await reader.tags();
        const tag = tags.find((t) => t.name === args.tag);
        if (!tag) {
          const names = tags.slice(0, 20).map((t) => t.name);
          return {
            isError: true,
            content: [
              { type: "text", text: `No tag named "${args.tag}". Tags: ${names.length ? names.join(", ") : "none yet"}${tags.length > 20 ? ", …" : ""}.` },
            ],
          };
        }
        const c = summarizeTagComparison(await reader.tagComparison(tag.id, { metric: args.metric, lag: args.lag, from: args.from, to: args.to }));
        const text =
          c.difference === null
            ? `Not enough days to compare (${c.tagged?.n ?? 0} tagged, ${c.untagged?.n ?? 0} untagged; at least 3 each).`
            : `${c.label} (${c.unit}) ${c.lag ? "the day after" : "on"} #${c.tag} days: ${c.tagged!.mean} (n = ${c.tagged!.n}) ` +
              `against ${c.untagged!.mean} (n = ${c.untagged!.n}), difference ${c.difference}.`;
        return answer(text, c);
      })(),
  );

  server.registerTool(
    "summarize_day",
    {
      title: "Summarise a day",
      description:
        "One day (default: the newest with data): each metric against the 7 days before and its usual range, the main sleep's times and stage " +
        "minutes, activity minutes by class, and the note and tags.",
      inputSchema: z.strictObject({ day: daySchema.optional().describe("YYYY-MM-DD") }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const latest = await reader.today(args.day);
        const day = args.day ?? latest.day;
        if (!day) return answer("No data yet.", { day: null, n: 0 });
        const [today, detail] = await Promise.all([args.day ? latest : reader.today(day), reader.day(day)]);
        const s = summarizeDay(day, today, detail);
        return answer(`${day}: ${s.n} metrics with a value${s.n === 0 ? " (no data that day)" : ""}.`, s);
      })(),
  );

  server.registerTool(
    "find_unusual_days",
    {
      title: "Find unusual days",
      description:
        `Days when a metric was outside its usual range (the mean ± 2 sd of the 90 days before), furthest out first (at most ${MAX_UNUSUAL}). ` +
        "Without a metric, the headline metrics are searched. Default range: the last 90 days.",
      inputSchema: withDayRange({
        metric: numericMetricIdSchema.optional().describe("a numeric metric id (default: every headline metric)"),
        range: presetSchema.optional(),
        limit: z.number().int().min(1).max(MAX_UNUSUAL).default(10).describe(`days listed at most (1–${MAX_UNUSUAL})`),
      }).strict(),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const range = await rangeOf(args, "90d");
        const catalog = await reader.catalog();
        const readable = new Set(catalog.metrics.filter((m) => m.readable).map((m) => m.id));
        const ids: MetricId[] = args.metric ? [args.metric] : HEADLINE_METRICS.filter((m) => m.kind !== "category" && readable.has(m.id)).map((m) => m.id);
        const series = await Promise.all(ids.map((id) => reader.series(id, range)));
        const u = unusualDays(series, args.limit);
        const data = { from: range.from, to: range.to, metrics: ids, ...u };
        return answer(
          `${u.flagged} values outside the usual range among ${u.n} (${ids.length === 1 ? getMetric(ids[0]!).label : `${ids.length} metrics`}), ` +
            `${range.from} to ${range.to}.`,
          data,
        );
      })(),
  );

  server.registerTool(
    "get_signals",
    {
      title: "Explained signals",
      description:
        "The person's explained signals by day (default: the last 30 days with data; at most the newest 90 days of a range): " +
        "early warning (none, watch or likely, from temperature deviation, resting heart rate, HRV and breathing rate against their own baseline), " +
        "sleep debt (hours owed over 14 nights against their need), " +
        "regularity (Sleep Regularity Index, bedtime spread, social jet lag) and training load (acute:chronic ratio, VO2 max). " +
        "One compact row per day and the newest day in full, with each signal's inputs and baseline. Not a diagnosis.",
      inputSchema: withDayRange({ range: presetSchema.optional() }).strict(),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const r = await rangeOf(args, "30d");
        const range = { from: maxDay(r.from, addDays(r.to, -(MAX_SIGNAL_DAYS - 1))), to: r.to };
        const s = summarizeSignals(await reader.signals(range));
        const warn = s.early_warning_days.length;
        return answer(`Signals ${s.from} to ${s.to} (${s.kinds.join(", ")}): ${warn} day${warn === 1 ? "" : "s"} with an early warning of watch or likely.`, s);
      })(),
  );

  server.registerTool(
    "get_cycle",
    {
      title: "Menstrual cycle",
      description:
        `The person's menstrual cycle by day (default: the last 90 days with data; at most the newest ${CYCLE_MAX_DAYS} days of a range): ` +
        "each day's cycle day, phase (menstrual, follicular, luteal, unknown) and whether ovulation was detected, the cycles' lengths, " +
        "the predicted window of the next period and the period starts and ends logged; what GET /api/v1/cycle answers. " +
        "Needs a token with the cycle kind; nothing while the person's cycle tracking is off. Not a diagnosis, not contraception.",
      inputSchema: withDayRange({ range: presetSchema.optional() }).strict(),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const r = await rangeOf(args, "90d");
        const range = { from: maxDay(r.from, addDays(r.to, -(CYCLE_MAX_DAYS - 1))), to: r.to };
        const s = summarizeCycle(await reader.cycle(range));
        return answer(cycleHeadline(s), s);
      })(),
  );

  server.registerTool(
    "get_report_summary",
    {
      title: "Report summary",
      description:
        "The summary page of the report for a doctor or a coach, as structured data, for a period (default: the last 30 days with data; " +
        `at most the newest ${REPORT_MAX_DAYS} days of a range): nights with data; the means of the sleep, readiness and activity scores and of the ` +
        "nightly physiology (lowest heart rate, HRV, temperature deviation, breathing rate, SpO2, breathing disturbance index), each with its change " +
        "against the compared period (compare: none, previous, year) and where it lies against the person's normal range; the nights early warning " +
        "flagged; sleep debt and regularity (SRI, bedtime and wake-time spread). The same numbers as the report page and PDF. Not a diagnosis.",
      inputSchema: withDayRange({ range: presetSchema.optional(), compare: z.enum(REPORT_COMPARE_MODES).default("none") }).strict(),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const r = await rangeOf(args, "30d");
        const range = { from: maxDay(r.from, addDays(r.to, -(REPORT_MAX_DAYS - 1))), to: r.to };
        const report = await reader.report({ ...range, compare: args.compare, sections: ["summary"] });
        const s = report.summary!;
        const flagged = s.earlyWarning.nights.length;
        return answer(
          `Report summary ${s.from} to ${s.to}: ${s.nightsWithData} of ${s.days} nights with data; ` +
            `${flagged} night${flagged === 1 ? "" : "s"} flagged by early warning (${s.earlyWarning.likely} likely, ${s.earlyWarning.watch} watch).`,
          s,
        );
      })(),
  );

  server.registerResource(
    "catalog",
    "ringside://catalog",
    {
      title: "Metric catalog",
      description: "Every metric this token may read: id, label, unit, group, kind, direction, description.",
      mimeType: "application/json",
    },
    async (uri) => {
      const c = await reader.catalog();
      const metrics = c.metrics
        .filter((m) => m.readable)
        .map((m) => ({ id: m.id, label: m.label, unit: m.unit, group: m.group, kind: m.kind, direction: m.direction, description: m.description }));
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ kinds: c.kinds, metrics }) }] };
    },
  );

  server.registerResource(
    "tags",
    "ringside://tags",
    { title: "Your tags", description: "The person's tags with the number of days each is on.", mimeType: "application/json" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(await reader.tags()) }] }),
  );

  return server;
}
