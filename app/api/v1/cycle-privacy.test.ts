// Cycle data only through the `cycle` kind, and only while the person tracks: two people with the
// same nights (a synthetic woman's, imported through Ringside's own import), one tracking her
// cycle (period starts logged, the ring service's daily_cycle_phases documents stored), the other
// not. A token without the `cycle` kind reads exactly the same answers for both, everywhere the
// read API and the MCP server answer (signals, days, metrics and their normal ranges, the catalog,
// the state document, the sync status, the report made with a token), so not even a corrected
// level or a phase-following band tells the phase. A token with the kind sees the cycle while she
// tracks, and nothing of it once she turns tracking off (her phases documents are gone then).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { CYCLE_DATA_KIND, DATA_KINDS } from "@/lib/auth/api-scopes";
import { addDays } from "@/lib/days";
import { NORMAL_RANGE_METRICS } from "@/lib/signals/normal-range";
import { serveRoutes, type RouteServer } from "@/lib/test/route-server";
import { sqlAll } from "@/lib/test/sql";
import { makePeople } from "../../../e2e/bench/cycle-people";
import { exportOf } from "../../../e2e/bench/cycle-measure";

const TRACKS = "u-twin-tracks";
const PLAIN = "u-twin-plain";
const session = vi.hoisted(() => ({ user: { id: "u-twin-tracks", email: "tracks@example.test", role: "owner" as "owner" | "member" } }));
vi.mock("@/lib/services/auth/session", () => ({ requireUser: async () => session.user, currentUser: async () => session.user }));

const woman = makePeople({ seed: "cycle-privacy", women: 1, men: 0, days: 400, first: "2025-01-01", illnessesPerYear: 0 })[0]!;
const LAST = addDays(woman.first, woman.days - 1);
const FROM = addDays(LAST, -59);
const DAYS = [LAST, addDays(LAST, -7), addDays(LAST, -20)];
const CYCLE_WORDS = /cycle|luteal|follicular|menstrual|ovulation|next_period/i;

/** The first word of the cycle in an answer, or null; the list of a token's kinds (granted or not) is no data and is skipped. */
function cycleWord(answer: unknown): string | null {
  const text = JSON.stringify(answer, (key, value: unknown) =>
    key === "kinds" && Array.isArray(value) && value.every((k) => typeof k === "object" && k !== null && "granted" in k) ? undefined : value,
  );
  return text.match(CYCLE_WORDS)?.[0] ?? null;
}

let server: RouteServer;
const tokens = { tracksNoCycle: "", plainNoCycle: "", tracksAll: "" };

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function importFor(userId: string): Promise<void> {
  session.user = { id: userId, email: `${userId}@example.test`, role: userId === TRACKS ? "owner" : "member" };
  const { POST } = await import("@/app/api/import/route");
  const res = await (POST as unknown as Handler)(
    new Request("http://localhost/api/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: exportOf(woman, "privacy"),
    }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
}

/** The ring service's phases of the woman's last 200 days, stored as a sync stores them. */
async function storePhases(userId: string): Promise<void> {
  const { mapDocument } = await import("@/lib/sync/map");
  const { ingestDocuments } = await import("@/lib/db/ingest/documents");
  const starts = woman.periodStarts.map((s) => addDays(woman.first, s));
  const rows = [];
  for (let k = 199; k >= 0; k--) {
    const day = addDays(LAST, -k);
    const start = starts.filter((s) => s <= day).at(-1);
    if (!start) continue;
    const cycleDay = Math.round((Date.parse(day) - Date.parse(start)) / 86_400_000) + 1;
    const phase = cycleDay <= 5 ? "menstrual" : cycleDay <= 14 ? "follicular" : "luteal";
    const r = mapDocument("daily_cycle_phases", { id: `phase-${day}`, day, cycle_day: cycleDay, phase, predicted: false }, userId, new Date().toISOString());
    if (r.ok) rows.push(r.row);
  }
  expect(rows.length).toBeGreaterThan(150);
  await ingestDocuments({ collection: "daily_cycle_phases", userId, rows });
}

async function get(token: string, path: string): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.json();
}

/** What each read of the read API answers a token, by path. */
const PATHS = [
  `/api/v1/signals?from=${addDays(LAST, -89)}&to=${LAST}`,
  ...DAYS.map((d) => `/api/v1/days/${d}`),
  `/api/v1/days/latest`,
  `/api/v1/days?from=${FROM}&to=${LAST}`,
  `/api/v1/metrics`,
  ...Object.keys(NORMAL_RANGE_METRICS).map((id) => `/api/v1/metrics/${id}?from=${FROM}&to=${LAST}`),
  `/api/v1/state`,
  `/api/v1/sync/status`,
  `/api/v1/report?from=${FROM}&to=${LAST}&format=json`,
  `/api/v1/report?from=${FROM}&to=${LAST}&sections=summary,charts,events,methods,notes&format=json`,
];

async function readAll(token: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const p of PATHS) out[p] = await get(token, p);
  return out;
}

/** The MCP tools' structured answers, by tool. */
async function mcpAll(token: string): Promise<Record<string, unknown>> {
  const client = new Client({ name: "cycle-privacy", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const calls: Array<[string, Record<string, unknown>]> = [
    ["list_data", {}],
    ["get_state", {}],
    ["get_signals", { from: addDays(LAST, -29), to: LAST }],
    ["summarize_day", { day: LAST }],
    ["get_metric_series", { metric: "readiness.temperature_deviation", from: FROM, to: LAST }],
    ["find_unusual_days", { from: FROM, to: LAST }],
    ["get_report_summary", { from: FROM, to: LAST }],
  ];
  const out: Record<string, unknown> = {};
  try {
    for (const [name, args] of calls) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect({ name, isError: r.isError ?? false }).toEqual({ name, isError: false });
      // the answer's headline (its text goes on with the structured data as JSON)
      const text = r.content.map((c) => (c.type === "text" ? c.text.split("\n")[0] : "")).join("\n");
      out[name] = { text, data: r.structuredContent };
    }
  } finally {
    await client.close();
  }
  return out;
}

const earlyWarnings = (signals: unknown) =>
  (signals as { days: Array<{ signals: Array<Record<string, unknown>> }> }).days.flatMap((d) => d.signals.filter((s) => s.kind === "early_warning"));

beforeAll(async () => {
  setClock(new ManualClock(Date.parse(`${addDays(LAST, 1)}T12:00:00Z`)));
  const { db } = await import("@/lib/test/prisma");
  // the same name: the report names its person
  await db.user.create({ data: { id: TRACKS, email: "tracks@example.test", name: "Sam Twin", role: "owner" } });
  await db.user.create({ data: { id: PLAIN, email: "plain@example.test", name: "Sam Twin", role: "member" } });
  await importFor(TRACKS);
  await importFor(PLAIN);
  const { logCycleEntry, saveCycleSettings } = await import("@/lib/services/cycle-entries");
  await saveCycleSettings(TRACKS, { tracking: true });
  for (const s of woman.periodStarts) await logCycleEntry(TRACKS, { day: addDays(woman.first, s), kind: "period_start" });
  await storePhases(TRACKS);
  const { createApiToken } = await import("@/lib/services/api-tokens");
  const noCycle = DATA_KINDS.filter((k) => k !== CYCLE_DATA_KIND);
  tokens.tracksNoCycle = (await createApiToken(TRACKS, { name: "home automation", kinds: noCycle })).token;
  tokens.plainNoCycle = (await createApiToken(PLAIN, { name: "home automation", kinds: noCycle })).token;
  tokens.tracksAll = (await createApiToken(TRACKS, { name: "everything", kinds: DATA_KINDS })).token;
  server = await serveRoutes(["app/api/v1", "app/api/mcp"]);
});

afterAll(async () => {
  await server?.close();
  setClock(undefined);
});

describe("a token without the cycle kind", () => {
  it("reads the same answers of a woman who tracks her cycle as of her twin who does not (read API)", async () => {
    const tracks = await readAll(tokens.tracksNoCycle);
    const plain = await readAll(tokens.plainNoCycle);
    for (const p of PATHS) expect({ path: p, answer: tracks[p] }).toEqual({ path: p, answer: plain[p] });
    for (const p of PATHS) expect({ path: p, cycle: cycleWord(tracks[p]) }).toEqual({ path: p, cycle: null });
  });

  it("reads the same through the MCP server's tools", async () => {
    const tracks = await mcpAll(tokens.tracksNoCycle);
    const plain = await mcpAll(tokens.plainNoCycle);
    for (const name of Object.keys(tracks)) expect({ name, answer: tracks[name] }).toEqual({ name, answer: plain[name] });
    for (const name of Object.keys(tracks)) expect({ name, cycle: cycleWord(tracks[name]) }).toEqual({ name, cycle: null });
  });
});

describe("a token with the cycle kind", () => {
  it("sees the cycle while she tracks: corrected nights, her phases documents, a band that follows the phase", async () => {
    const all = await readAll(tokens.tracksAll);
    const plain = await readAll(tokens.plainNoCycle);
    const rows = earlyWarnings(all[PATHS[0]!]);
    expect(rows.every((r) => typeof r.cycle_adjusted === "boolean")).toBe(true);
    expect(rows.some((r) => typeof r.cycle_correction === "string" && r.cycle_correction.startsWith("Luteal night"))).toBe(true);
    expect(Object.keys((all[`/api/v1/days/${LAST}`] as { raw: Record<string, unknown> }).raw)).toContain("daily_cycle_phases");
    const band = `/api/v1/metrics/readiness.temperature_deviation?from=${FROM}&to=${LAST}`;
    expect((all[band] as { normal: unknown }).normal).not.toEqual((plain[band] as { normal: unknown }).normal);
  });

  it("sees nothing of it once she turns tracking off: her phases documents are deleted, no row says cycle_adjusted", async () => {
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings(TRACKS, { tracking: false });
    expect(await sqlAll(`SELECT day FROM daily_cycle_phases WHERE userId = ?`, TRACKS)).toEqual([]);
    const all = await readAll(tokens.tracksAll);
    const plain = await readAll(tokens.plainNoCycle);
    // (the catalog lists the token's kinds, the cycle's granted here)
    for (const p of PATHS.filter((x) => x !== "/api/v1/metrics")) expect({ path: p, answer: all[p] }).toEqual({ path: p, answer: plain[p] });
    for (const p of PATHS) expect({ path: p, cycle: cycleWord(all[p]) }).toEqual({ path: p, cycle: null });
  });
});
