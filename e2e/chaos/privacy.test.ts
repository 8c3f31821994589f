// 15. Privacy (production process): the cycle only through the `cycle` kind and only while the
// person tracks, and a share link that answers only what its gate lets through.
//   1 cycle   a woman whose ring serves her cycle's phases connects: nothing of the cycle is asked
//             for or stored until she turns tracking on. A token without the `cycle` kind reads
//             exactly the same answers before and after she does (signals, days, metrics and their
//             normal ranges, the catalog, the state, the report made with it, the MCP tools), and
//             no cycle word in any of them; a token with the kind sees her phases then, and none
//             once she turns tracking off (they are deleted).
//   2 link    her share link: any method but GET/HEAD, or a server action's Next-Action header,
//             answers 405 with Allow and counts nothing; GET and HEAD of the page and the PDF
//             each count a view; the page shows no cycle and no e-mail address.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CYCLE_DATA_KIND, DATA_KINDS } from "@/lib/auth/api-scopes";
import { NORMAL_RANGE_METRICS } from "@/lib/signals/normal-range";
import { openAppDb, SYNCED, waitFor } from "./support/app-db";
import { callAction } from "./support/actions";
import { Browser, connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN } from "./support/env";
import { recordFigures } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { builtServerActions, pagePath } from "./support/surface";

const HISTORY_DAYS = 150;
const CYCLE_WORDS = /cycle|luteal|follicular|menstrual|ovulation|next_period/i;

let emu: Emulator;
let app: ProdApp;
let db: Database.Database;
let browser: Browser;
const her = { email: "", ringUserId: "", userId: "", days: [] as string[] };
const tokens = { noCycle: "", cycle: "" };
let linkSecret = "";
const figures: Record<string, unknown> = {};

/** A person of the emulator whose ring serves cycle phases (a woman up to 50). */
async function aWoman(): Promise<{ email: string; ringUserId: string }> {
  const tag = crypto.randomBytes(3).toString("hex");
  for (let i = 0; i < 60; i++) {
    const email = `cycle-${tag}-${i}@${ALLOWED_DOMAIN}`;
    const user = await emu.createUser(email, { history_days: HISTORY_DAYS });
    if ((await emu.documents(user.user_id, "daily_cycle_phases")).length > 0) return { email, ringUserId: user.user_id };
  }
  throw new Error("no generated person with a cycle");
}

async function action(name: string, args: Parameters<typeof callAction>[1]["args"]): Promise<Record<string, unknown>> {
  const built = builtServerActions().find((a) => a.name === name)!;
  const r = await callAction(browser, { id: built.id, page: pagePath(built.pages[0]!), args });
  expect({ name, status: r.status }).toEqual({ name, status: 200 });
  return r.result as Record<string, unknown>;
}

async function tokenWith(kinds: readonly string[]): Promise<string> {
  const made = await action("createApiTokenAction", [
    { json: {} },
    { form: [["name", `privacy ${kinds.length}`], ...kinds.map((k) => ["kinds", k] as [string, string])] },
  ]);
  expect(made.token).toMatch(/^rs_pat_/);
  return made.token as string;
}

const phasesStored = () => (db.prepare(`SELECT COUNT(*) AS n FROM daily_cycle_phases WHERE userId = ?`).get(her.userId) as { n: number }).n;

/** The first word of the cycle in an answer, or null; the list of a token's kinds (granted or not) is no data and is skipped. */
function cycleWord(answer: unknown): string | null {
  const text = JSON.stringify(answer, (key, value: unknown) =>
    key === "kinds" && Array.isArray(value) && value.every((k) => typeof k === "object" && k !== null && "granted" in k) ? undefined : value,
  );
  return text.match(CYCLE_WORDS)?.[0] ?? null;
}

/** The read API's answers to a token, by path (the report's build time left out). */
async function readAll(token: string): Promise<Record<string, unknown>> {
  const [first, last] = [her.days.at(-60)!, her.days.at(-1)!];
  const paths = [
    `/api/v1/signals?from=${first}&to=${last}`,
    ...[-1, -10, -30].map((k) => `/api/v1/days/${her.days.at(k)}`),
    `/api/v1/days/latest`,
    `/api/v1/days?from=${first}&to=${last}`,
    `/api/v1/metrics`,
    ...Object.keys(NORMAL_RANGE_METRICS).map((id) => `/api/v1/metrics/${id}?from=${first}&to=${last}`),
    `/api/v1/state`,
    `/api/v1/report?from=${first}&to=${last}&format=json`,
  ];
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const res = await app.request(p, { headers: { authorization: `Bearer ${token}` } });
    expect({ p, status: res.status }).toEqual({ p, status: 200 });
    const body = (await res.json()) as Record<string, unknown>;
    if (p.startsWith("/api/v1/report")) delete body.generatedAt;
    out[p] = body;
  }
  return out;
}

/** The MCP tools' structured answers to a token, by tool. */
async function mcpAll(token: string): Promise<Record<string, unknown>> {
  const client = new Client({ name: "chaos-privacy", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const [first, last] = [her.days.at(-60)!, her.days.at(-1)!];
  const out: Record<string, unknown> = {};
  try {
    for (const [name, args] of [
      ["list_data", {}],
      ["get_state", {}],
      ["get_signals", { from: her.days.at(-30)!, to: last }],
      ["summarize_day", { day: last }],
      ["get_metric_series", { metric: "readiness.temperature_deviation", from: first, to: last }],
      ["get_report_summary", { from: first, to: last }],
    ] as const) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect({ name, isError: r.isError ?? false }).toEqual({ name, isError: false });
      out[name] = r.structuredContent;
    }
  } finally {
    await client.close();
  }
  return out;
}

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 100, historyDays: HISTORY_DAYS });
  app = await startProdApp({ name: "privacy" });
  const woman = await aWoman();
  her.email = woman.email;
  her.ringUserId = woman.ringUserId;
  const c = await connect(her.email);
  expect(c.landed.pathname).toBe("/");
  browser = c.browser;
  db = openAppDb(app.dbFile);
  her.userId = (db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(her.ringUserId) as { id: string }).id;
  await waitFor(
    "her backfill",
    () =>
      (db.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(her.userId) as { n: number }).n === SYNCED.length,
    { timeoutMs: 120_000, intervalMs: 200 },
  );
  her.days = (db.prepare(`SELECT day FROM daily_readiness WHERE userId = ? ORDER BY day`).all(her.userId) as Array<{ day: string }>).map((r) => r.day);
  expect(her.days.length).toBeGreaterThan(90);
  tokens.noCycle = await tokenWith(DATA_KINDS.filter((k) => k !== CYCLE_DATA_KIND));
  tokens.cycle = await tokenWith(DATA_KINDS);
}, 240_000);

afterAll(async () => {
  db?.close();
  await app?.stop();
  await emu?.close();
  recordFigures("privacy", figures);
});

describe("[CHAOS 15] privacy", () => {
  it("the cycle: nothing fetched before tracking; a token without the cycle kind reads the same before and after", async () => {
    // she granted the scope, but does not track: not one request for her phases, none stored
    expect(await emu.requests({ path_prefix: "/v2/usercollection/daily_cycle_phases" })).toEqual([]);
    expect(phasesStored()).toBe(0);

    const before = { api: await readAll(tokens.noCycle), mcp: await mcpAll(tokens.noCycle) };
    await action("saveCycleSettingsAction", [{ json: { tracking: true } }]);
    // the whole backfill of her phases, not its first page: a read beside a page still committing
    // would compare a moment, not the outcome
    await waitFor(
      "her phases' backfill, once she tracks",
      () => {
        const s = db.prepare(`SELECT status, backfillDoneAt FROM sync_state WHERE userId = ? AND collection = 'daily_cycle_phases'`).get(her.userId) as
          { status: string; backfillDoneAt: unknown } | undefined;
        return s?.backfillDoneAt != null && s.status === "idle";
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const stored = phasesStored();
    expect(stored).toBeGreaterThan(0);
    figures.phasesStored = stored;
    const after = { api: await readAll(tokens.noCycle), mcp: await mcpAll(tokens.noCycle) };
    for (const p of Object.keys(before.api)) expect({ p, answer: after.api[p] }).toEqual({ p, answer: before.api[p] });
    for (const t of Object.keys(before.mcp)) expect({ t, answer: after.mcp[t] }).toEqual({ t, answer: before.mcp[t] });
    for (const [p, answer] of Object.entries({ ...after.api, ...after.mcp })) expect({ p, cycle: cycleWord(answer) }).toEqual({ p, cycle: null });
    figures.answersCompared = Object.keys(after.api).length + Object.keys(after.mcp).length;

    // a token with the kind sees her phases while she tracks
    const withKind = await readAll(tokens.cycle);
    expect(Object.keys((withKind[`/api/v1/days/${her.days.at(-1)}`] as { raw: Record<string, unknown> }).raw)).toContain("daily_cycle_phases");
    const rows = (withKind[Object.keys(withKind)[0]!] as { days: Array<{ signals: Array<Record<string, unknown>> }> }).days.flatMap((d) =>
      d.signals.filter((s) => s.kind === "early_warning"),
    );
    expect(rows.every((r) => typeof r.cycle_adjusted === "boolean")).toBe(true);

    // and nothing of it once she turns tracking off: her phases are deleted
    await action("saveCycleSettingsAction", [{ json: { tracking: false } }]);
    expect(phasesStored()).toBe(0);
    const off = await readAll(tokens.cycle);
    for (const [p, answer] of Object.entries(off)) if (p !== "/api/v1/metrics") expect({ p, cycle: cycleWord(answer) }).toEqual({ p, cycle: null });
  });

  it("a share link: only GET and HEAD, every view counted; no cycle, no e-mail on its page", async () => {
    const made = await action("createReportLinkAction", [
      { json: {} },
      {
        form: [
          ["query", `from=${her.days.at(-30)}&to=${her.days.at(-1)}&sections=summary,charts,events,methods`],
          ["expiresDays", "7"],
          ["label", "for the clinic"],
        ],
      },
    ]);
    linkSecret = String(made.link).split("/r/")[1]!;
    const views = () => db.prepare(`SELECT views, lastViewAt FROM report_link WHERE userId = ?`).get(her.userId) as { views: number; lastViewAt: unknown };
    const anyAction = builtServerActions()[0]!;
    const refused: Array<{ what: string; status: number; allow: string | null }> = [];
    for (const [what, path, init] of [
      ["POST", `/r/${linkSecret}`, { method: "POST", body: "x" }],
      ["PUT", `/r/${linkSecret}`, { method: "PUT", body: "x" }],
      ["DELETE", `/r/${linkSecret}`, { method: "DELETE" }],
      ["PATCH pdf", `/r/${linkSecret}/pdf`, { method: "PATCH", body: "x" }],
      ["POST pdf", `/r/${linkSecret}/pdf`, { method: "POST", body: "x" }],
      [
        "server action",
        `/r/${linkSecret}`,
        { method: "POST", headers: { "next-action": anyAction.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" }, body: "[]" },
      ],
      ["GET with Next-Action", `/r/${linkSecret}`, { headers: { "next-action": anyAction.id } }],
    ] as const) {
      const res = await new Browser().fetch(path, init as RequestInit);
      const body = await res.text();
      refused.push({ what, status: res.status, allow: res.headers.get("allow") });
      expect(body).not.toContain(her.email);
    }
    expect(refused).toEqual(refused.map((r) => ({ ...r, status: 405, allow: "GET, HEAD" })));
    expect(views().views).toBe(0);

    const page = await new Browser().fetch(`/r/${linkSecret}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toContain(her.email);
    expect(html).not.toMatch(/luteal|follicular|menstrual|Cycle-aware/i);
    expect((await new Browser().fetch(`/r/${linkSecret}`, { method: "HEAD" })).status).toBe(200);
    const pdf = await new Browser().fetch(`/r/${linkSecret}/pdf`);
    expect({ status: pdf.status, type: pdf.headers.get("content-type") }).toEqual({ status: 200, type: "application/pdf" });
    await pdf.arrayBuffer();
    const seen = views();
    expect(seen.views).toBe(3);
    expect(seen.lastViewAt).not.toBeNull();
    figures.linkRefusals = refused.length;
    figures.linkViews = seen.views;
  });
});
