// 7. Isolation (production process): two people, the owner A and B who joined with A's invite.
// Every data route, the export and every server action is tried by B against A's data: nothing
// of A's is readable, nothing of A's changes. Signing in without an invite is refused, and so are
// state and PKCE mismatches in the sign-in round trip.
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { NUMERIC_METRICS } from "@/lib/metrics/catalog";
import { COLLECTIONS, SERIES_TABLES, SYNCED, TABLE_OF, openAppDb, waitFor } from "./support/app-db";
import { asEnvelope, callAction } from "./support/actions";
import { Browser, connect, consent, finishConnect, startConnect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN } from "./support/env";
import { recordFigures } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { findLeaks } from "./support/secrets";
import { builtServerActions, listRouteHandlers, listServerActions, pagePath } from "./support/surface";

let emu: Emulator;
let app: ProdApp;
let db: Database.Database;
const tag = crypto.randomBytes(3).toString("hex");
const A = {
  email: `owner-${tag}@${ALLOWED_DOMAIN}`,
  ringUserId: "",
  userId: "",
  browser: new Browser(),
  note: `A-private-note-${tag}`,
  tagName: `a-private-${tag}`,
  tagId: 0,
  days: [] as string[],
  docIds: [] as string[],
  ruleId: "",
  channelId: "",
  workoutIds: [] as string[],
  ringTagIds: [] as string[],
  battery: "",
  token: "",
  tokenId: "",
  linkId: "",
  linkSecret: "",
  cycleEntryId: "",
};
const B = {
  email: `member-${tag}@invited.chaos.test`,
  ringUserId: "",
  userId: "",
  browser: new Browser(),
  note: `B-note-${tag}`,
  tagName: `b-tag-${tag}`,
  tagId: 0,
  firstDay: "",
  token: "",
};
let pendingInviteId = "";
let usedInvitePath = "";
const figures: Record<string, unknown> = {};

const json = (body: unknown): RequestInit => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 100, historyDays: 120 });
  app = await startProdApp({ name: "isolation" });
  const ringA = await emu.createUser(A.email, { history_days: 120 });
  const ringB = await emu.createUser(B.email, { history_days: 20 });
  A.ringUserId = ringA.user_id;
  B.ringUserId = ringB.user_id;
  B.firstDay = ringB.first_day;
  expect((await connect(A.email, { browser: A.browser })).landed.pathname).toBe("/");

  // B joins with an invite link A creates (the real action, over HTTP).
  const create = builtServerActions().find((a) => a.name === "createInviteLink")!;
  const invite = await callAction(A.browser, { id: create.id, page: pagePath(create.pages[0]!), args: [{ json: {} }, { form: [] }] });
  const link = (invite.result as { link?: string }).link;
  expect(link).toMatch(/\/invite\//);
  usedInvitePath = new URL(link!).pathname;
  const entered = await B.browser.fetch(usedInvitePath);
  expect(entered.status).toBe(303);
  expect((await connect(B.email, { browser: B.browser })).landed.pathname).toBe("/");
  // A second invite stays pending (B will try to revoke it).
  await callAction(A.browser, { id: create.id, page: pagePath(create.pages[0]!), args: [{ json: {} }, { form: [] }] });

  db = openAppDb(app.dbFile);
  A.userId = (db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(A.ringUserId) as { id: string }).id;
  B.userId = (db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(B.ringUserId) as { id: string }).id;
  pendingInviteId = (db.prepare(`SELECT id FROM Invite WHERE usedAt IS NULL`).get() as { id: string }).id;
  await waitFor(
    "both backfills",
    () => (db.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE backfillDoneAt IS NOT NULL`).get() as { n: number }).n === 2 * SYNCED.length,
    {
      timeoutMs: 120_000,
      intervalMs: 200,
    },
  );
  A.days = (db.prepare(`SELECT day FROM daily_sleep WHERE userId = ? ORDER BY day`).all(A.userId) as Array<{ day: string }>).map((r) => r.day);
  for (const c of COLLECTIONS) A.docIds.push(...(await emu.documents(A.ringUserId, c)).map((d) => String(d.id)).filter((id) => id.length >= 16));
  A.workoutIds = (await emu.documents(A.ringUserId, "workout")).map((d) => String(d.id));
  A.ringTagIds = [
    ...new Set((await emu.documents(A.ringUserId, "enhanced_tag")).map((d) => (d.custom_name ? `ring:custom:${d.custom_name}` : `ring:${d.tag_type_code}`))),
  ];
  expect(A.workoutIds.length).toBeGreaterThan(0);

  // Each person's notes and tags.
  for (const [p, day] of [
    [A, A.days[0]!],
    [A, A.days.at(-1)!],
    [B, A.days.at(-1)!],
  ] as const) {
    const t = await p.browser.json<{ id: number }>("/api/tags", { method: "POST", ...json({ name: p.tagName }) });
    if (t.status === 201) p.tagId = t.body.id;
    expect((await p.browser.fetch(`/api/notes/${day}`, { method: "PUT", ...json({ text: p.note, tags: [p.tagName] }) })).status).toBe(200);
  }

  // A's alert settings, a rule that stays quiet here (a digest three days from now) and a webhook channel.
  const action = async (name: string, form: Array<[string, string]>) => {
    const built = builtServerActions().find((a) => a.name === name)!;
    const r = await callAction(A.browser, { id: built.id, page: pagePath(built.pages[0]!), args: [{ json: {} }, { form }] });
    expect({ name, ok: (r.result as { ok?: boolean }).ok }).toEqual({ name, ok: true });
  };
  await action("saveAlertSettingsAction", [
    ["includeValues", "on"],
    ["timeZone", "UTC"],
  ]);
  await action("addAlertRuleAction", [
    ["kind", "weekly_digest"],
    ["weekday", String(((clock.date().getUTCDay() + 2) % 7) + 1)],
    ["hour", "12"],
  ]);
  await action("addAlertChannelAction", [
    ["kind", "webhook"],
    ["url", "http://127.0.0.1:9/a-hook"],
    ["label", `a-hook-${tag}`],
  ]);
  A.ruleId = (db.prepare(`SELECT id FROM alert_rule WHERE userId = ?`).get(A.userId) as { id: string }).id;
  // Each person's personal access token (Settings → API, the real action), every data kind.
  const createToken = builtServerActions().find((a) => a.name === "createApiTokenAction")!;
  for (const p of [A, B]) {
    const made = await callAction(p.browser, {
      id: createToken.id,
      page: pagePath(createToken.pages[0]!),
      args: [{ json: {} }, { form: [["name", "chaos"], ...DATA_KINDS.map((k) => ["kinds", k] as [string, string])] }],
    });
    p.token = (made.result as { token?: string }).token ?? "";
    expect(p.token).toMatch(/^rs_pat_/);
  }
  A.tokenId = (db.prepare(`SELECT id FROM api_token WHERE userId = ?`).get(A.userId) as { id: string }).id;
  A.channelId = (db.prepare(`SELECT id FROM alert_channel WHERE userId = ?`).get(A.userId) as { id: string }).id;
  // A's report share link, with the notes section in it (the real action, from the report page).
  const createLink = builtServerActions().find((a) => a.name === "createReportLinkAction")!;
  const made = await callAction(A.browser, {
    id: createLink.id,
    page: pagePath(createLink.pages[0]!),
    args: [
      { json: {} },
      {
        form: [
          ["query", `${range()}&sections=summary,events,notes`],
          ["expiresDays", "7"],
          ["label", `a-link-${tag}`],
        ],
      },
    ],
  });
  const sharedLink = (made.result as { link?: string }).link ?? "";
  expect(sharedLink).toMatch(/\/r\/[^/]+$/);
  A.linkSecret = sharedLink.split("/r/")[1]!;
  A.linkId = (db.prepare(`SELECT id FROM report_link WHERE userId = ?`).get(A.userId) as { id: string }).id;
  // A's cycle: tracking on and a period start (the real actions, from Settings and the Day page)
  const cycleAction = async (name: string, args: Parameters<typeof callAction>[1]["args"]) => {
    const built = builtServerActions().find((a) => a.name === name)!;
    return (await callAction(A.browser, { id: built.id, page: pagePath(built.pages[0]!), args })).result as { settings?: unknown; entry?: { id: string } };
  };
  expect((await cycleAction("saveCycleSettingsAction", [{ json: { tracking: true } }])).settings).toMatchObject({ tracking: true });
  const logged = await cycleAction("logCycleEntryAction", [
    { json: {} },
    {
      form: [
        ["day", A.days.at(-3)!],
        ["kind", "period_start"],
      ],
    },
  ]);
  A.cycleEntryId = logged.entry?.id ?? "";
  expect(A.cycleEntryId).not.toBe("");
  // tracking on queued the backfill of A's cycle phases: done before anything of A's is compared
  await waitFor(
    "A's cycle phases backfilled",
    () =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND collection = 'daily_cycle_phases' AND backfillDoneAt IS NOT NULL`)
          .get(A.userId) as { n: number }
      ).n === 1,
    { timeoutMs: 120_000, intervalMs: 200 },
  );
});

afterAll(async () => {
  db?.close();
  await app?.stop();
  await emu?.close();
});

/** Everything of A's: rows of every person-owned table, and A's account and invites. */
function stateOfA() {
  const rows: Record<string, string> = {};
  for (const t of [
    ...Object.values(TABLE_OF),
    ...SERIES_TABLES,
    "day_note",
    "tag",
    "personal_info",
    "rejected_document",
    "sync_state",
    "alert_settings",
    "alert_rule",
    "alert_channel",
    "alert_episode",
    "alert_delivery",
    "api_token",
    "report_link",
    "cycle_entry",
    "cycle_settings",
    "home_assistant_publish",
  ]) {
    rows[t] = JSON.stringify(
      db
        .prepare(`SELECT * FROM "${t}" WHERE userId = ? ORDER BY rowid`)
        .all(A.userId)
        .map((r) => ({
          ...(r as object),
          syncedAt: undefined,
          updatedAt: undefined,
          lastAttemptAt: undefined,
          lastSuccessAt: undefined,
          lastUsedAt: undefined,
        })),
    );
  }
  rows.day_tag = JSON.stringify(db.prepare(`SELECT dt.* FROM day_tag dt JOIN tag t ON t.id = dt.tagId WHERE t.userId = ? ORDER BY dt.rowid`).all(A.userId));
  rows.user = JSON.stringify(db.prepare(`SELECT id, email, role, ringUserId, units, theme, sleepNeedMin, freeDays FROM "User" WHERE id = ?`).all(A.userId));
  rows.account = JSON.stringify(db.prepare(`SELECT id, access_token, refresh_token, status, scope FROM Account WHERE userId = ?`).all(A.userId));
  rows.invites = JSON.stringify(db.prepare(`SELECT id, usedAt FROM Invite ORDER BY id`).all());
  rows.sessions = String((db.prepare(`SELECT COUNT(*) AS n FROM Session WHERE userId = ?`).get(A.userId) as { n: number }).n);
  return rows;
}

/** A's markers that must never appear in anything B reads. */
function leaksOfA(text: string): string[] {
  const found = [A.note, A.tagName, A.email, A.ringUserId, A.userId, A.cycleEntryId].filter((m) => m && text.includes(m));
  for (const id of A.docIds) if (text.includes(id)) found.push(`document ${id.slice(0, 8)}`);
  return found.slice(0, 5);
}

/** B's probes of each route: requests aimed at A's data (A's tag, A's days, A's whole range). */
type Probe = (b: Browser) => Promise<Array<{ what: string; status: number; text: string }>>;
const get = async (b: Browser, path: string, init?: RequestInit) => {
  const res = await b.fetch(path, init);
  return { what: `${init?.method ?? "GET"} ${path}`, status: res.status, text: await res.text() };
};
const range = () => `from=${A.days[0]}&to=${A.days.at(-1)}`;
const metric = NUMERIC_METRICS[0]!.id;

const PROBES: Record<string, Probe> = {
  "GET /api/correlations": async (b) => [await get(b, `/api/correlations?x=${metric}&y=${NUMERIC_METRICS[1]!.id}&lag=0&${range()}`)],
  "GET /api/correlations/strongest": async (b) => [await get(b, `/api/correlations/strongest?${range()}`)],
  "GET /api/days/[day]": async (b) => Promise.all([A.days[0]!, A.days.at(-1)!].map((d) => get(b, `/api/days/${d}`))),
  "GET /api/days/latest": async (b) => [await get(b, "/api/days/latest"), await get(b, `/api/days/latest?day=${A.days[5]}`)],
  "GET /api/days": async (b) => [await get(b, `/api/days?metric=${metric}&${range()}`)],
  "GET /api/export": async (b) => {
    const out = [];
    for (const collection of ["all", "notes", "daily_sleep", "sleep"])
      for (const format of ["json", "csv"]) out.push(await get(b, `/api/export?collection=${collection}&format=${format}`));
    return out;
  },
  "GET /api/me/preferences": async (b) => [await get(b, "/api/me/preferences")],
  "GET /api/me": async (b) => [await get(b, "/api/me")],
  "GET /api/metrics/[metric]": async (b) => Promise.all(NUMERIC_METRICS.slice(0, 4).map((m) => get(b, `/api/metrics/${m.id}?${range()}`))),
  "GET /api/metrics": async (b) => [await get(b, "/api/metrics")],
  "GET /api/notes/[day]": async (b) => [await get(b, `/api/notes/${A.days[0]}`)],
  "GET /api/notes": async (b) => [await get(b, `/api/notes?${range()}`)],
  "GET /api/sync/settings": async (b) => [await get(b, "/api/sync/settings")],
  "GET /api/sync/status": async (b) => [await get(b, "/api/sync/status")],
  "GET /api/tags/[id]/comparison": async (b) => [
    await get(b, `/api/tags/${A.tagId}/comparison?metric=${metric}`),
    // A's ring-app tags by their ids: B's own (B has none of these days) or not found, never A's days
    ...(await Promise.all(A.ringTagIds.map((id) => get(b, `/api/tags/${encodeURIComponent(id)}/comparison?metric=${metric}&${range()}`)))),
  ],
  "GET /api/workouts": async (b) => [await get(b, `/api/workouts?${range()}`), await get(b, "/api/workouts")],
  "GET /api/workouts/[id]": async (b) => Promise.all(A.workoutIds.slice(0, 5).map((id) => get(b, `/api/workouts/${encodeURIComponent(id)}`))),
  "GET /api/tags": async (b) => [await get(b, "/api/tags")],
  "GET /api/signals": async (b) => [await get(b, `/api/signals?from=${A.days.at(-30) ?? A.days[0]}&to=${A.days.at(-1)}`)],
  // A's cycle days and entry, asked by B over A's range: B's own cycle (tracking off: none)
  "GET /api/cycle": async (b) => [await get(b, `/api/cycle?from=${A.days.at(-60) ?? A.days[0]}&to=${A.days.at(-1)}`)],
  // B's report over A's whole range, notes included: B's own numbers and notes only (the JSON form carries the same numbers).
  "GET /api/report": async (b) => [await get(b, `/api/report?${range()}&sections=summary,charts,events,methods,notes`)],
  // A share link's PDF with a secret B made up: refused, and it says nothing of A (B does not hold A's secret).
  "GET /r/[secret]/pdf": async (b) => [
    await get(b, `/r/${crypto.randomBytes(32).toString("base64url")}/pdf`),
    await get(b, `/r/${A.linkSecret.slice(0, -2)}xx/pdf`),
  ],
  "GET /api/signals/settings": async (b) => [await get(b, "/api/signals/settings")],
  "PATCH /api/signals/settings": async (b) => [await get(b, "/api/signals/settings", { method: "PATCH", ...json({ sleepNeedMinutes: 600, freeDays: [1] }) })],
  // Writes aimed at A's resources.
  "PUT /api/notes/[day]": async (b) => [await get(b, `/api/notes/${A.days[0]}`, { method: "PUT", ...json({ text: "B was here", tags: ["b-was-here"] }) })],
  "DELETE /api/notes/[day]": async (b) => [await get(b, `/api/notes/${A.days.at(-1)}`, { method: "DELETE" })],
  "PATCH /api/tags/[id]": async (b) => [await get(b, `/api/tags/${A.tagId}`, { method: "PATCH", ...json({ name: "stolen", color: "#000000" }) })],
  "DELETE /api/tags/[id]": async (b) => [await get(b, `/api/tags/${A.tagId}`, { method: "DELETE" })],
  "POST /api/tags": async (b) => [await get(b, "/api/tags", { method: "POST", ...json({ name: "b-second-tag" }) })],
  "PATCH /api/me/preferences": async (b) => [await get(b, "/api/me/preferences", { method: "PATCH", ...json({ units: "imperial", theme: "dark" }) })],
  "PATCH /api/sync/settings": async (b) => [await get(b, "/api/sync/settings", { method: "PATCH", ...json({ dataFamily: "sandbox" }) })],
  "POST /api/sync": async (b) => [await get(b, "/api/sync", { method: "POST" })],
  // "Download my history again": B's own sync only (409: B's is not paused)
  "POST /api/sync/history": async (b) => [await get(b, "/api/sync/history", { method: "POST" })],
  "POST /api/import": async (b) => [
    // A copy of A's documents, imported by B, becomes B's own data (never A's).
    await get(b, "/api/import", {
      method: "POST",
      ...json({
        format: "ringside-export-v1",
        collections: { daily_sleep: (await emu.documents(A.ringUserId, "daily_sleep")).slice(0, 3) },
        notes: [{ day: A.days[0], text: "imported", tags: [] }],
      }),
    }),
  ],
  // B's import status is B's; discarding an import discards B's alone.
  "GET /api/import": async (b) => [await get(b, "/api/import")],
  "DELETE /api/import": async (b) => [await get(b, "/api/import", { method: "DELETE" })],
  "DELETE /api/data": async (b) => [await get(b, "/api/data", { method: "DELETE", ...json({ confirm: "DELETE" }) })],
  // The read API and the MCP server with B's own token, aimed at A's days, A's tag and A's whole range.
  "GET /api/v1/metrics": async (b) => [await get(b, "/api/v1/metrics", asB())],
  "GET /api/v1/metrics/[metric]": async (b) => Promise.all(NUMERIC_METRICS.slice(0, 4).map((m) => get(b, `/api/v1/metrics/${m.id}?${range()}`, asB()))),
  "GET /api/v1/days": async (b) => [
    await get(b, `/api/v1/days?${range()}`, asB()),
    await get(
      b,
      `/api/v1/days?metrics=${NUMERIC_METRICS.slice(0, 5)
        .map((m) => m.id)
        .join(",")}&${range()}`,
      asB(),
    ),
  ],
  "GET /api/v1/days/latest": async (b) => [await get(b, "/api/v1/days/latest", asB()), await get(b, `/api/v1/days/latest?day=${A.days[5]}`, asB())],
  "GET /api/v1/days/[day]": async (b) => Promise.all([A.days[0]!, A.days.at(-1)!].map((d) => get(b, `/api/v1/days/${d}`, asB()))),
  "GET /api/v1/calendar": async (b) => [await get(b, `/api/v1/calendar?metric=${metric}&${range()}`, asB())],
  "GET /api/v1/correlations": async (b) => [await get(b, `/api/v1/correlations?x=${metric}&y=${NUMERIC_METRICS[1]!.id}&lag=0&${range()}`, asB())],
  "GET /api/v1/correlations/strongest": async (b) => [await get(b, `/api/v1/correlations/strongest?${range()}`, asB())],
  "GET /api/v1/tags": async (b) => [await get(b, "/api/v1/tags", asB())],
  "GET /api/v1/tags/[id]/comparison": async (b) => [await get(b, `/api/v1/tags/${A.tagId}/comparison?metric=${metric}`, asB())],
  "GET /api/v1/notes": async (b) => [await get(b, `/api/v1/notes?${range()}`, asB())],
  "GET /api/v1/sync/status": async (b) => [await get(b, "/api/v1/sync/status", asB())],
  "GET /api/v1/state": async (b) => [await get(b, "/api/v1/state", asB())],
  "GET /api/v1/signals": async (b) => [await get(b, `/api/v1/signals?from=${A.days.at(-30) ?? A.days[0]}&to=${A.days.at(-1)}`, asB())],
  "GET /api/v1/cycle": async (b) => [await get(b, `/api/v1/cycle?from=${A.days.at(-60) ?? A.days[0]}&to=${A.days.at(-1)}`, asB())],
  "GET /api/v1/report": async (b) => [await get(b, `/api/v1/report?${range()}&sections=summary,charts,events,methods,notes`, asB())],
  "POST /api/mcp": async (b) => {
    const call = (name: string, args: Record<string, unknown>) =>
      get(b, "/api/mcp", {
        method: "POST",
        headers: { ...asB().headers, origin: "", "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      });
    return [
      await call("list_data", {}),
      await call("get_state", {}),
      await call("summarize_day", { day: A.days[0] }),
      await call("get_metric_series", { metric, from: A.days[0], to: A.days.at(-1) }),
      await call("find_unusual_days", { from: A.days[0], to: A.days.at(-1), limit: 20 }),
      await call("get_signals", { from: A.days.at(-30) ?? A.days[0], to: A.days.at(-1) }),
      await call("get_cycle", { from: A.days.at(-60) ?? A.days[0], to: A.days.at(-1) }),
      await get(b, "/api/mcp", {
        method: "POST",
        headers: { ...asB().headers, origin: "", "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "ringside://tags" } }),
      }),
    ];
  },
};

/** B's own token (the read API ignores B's session cookie). */
function asB(): RequestInit & { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${B.token}` } };
}

/**
 * Routes that are not one person's data: the sign-in machinery, health, webhooks, invite links,
 * the read API's document, and the methods the read API and the MCP endpoint refuse to everyone
 * (405: e2e/chaos/bad-input.test.ts).
 */
const NOT_PERSONAL = [
  "GET /api/auth/[...nextauth]",
  "POST /api/auth/[...nextauth]",
  "GET /api/health",
  "GET /api/webhooks/ring",
  "POST /api/webhooks/ring",
  "GET /invite/[secret]",
  "GET /api/v1/openapi.json",
  ...listRouteHandlers().filter((r) => (r.includes(" /api/v1/") && !r.startsWith("GET ")) || (r.endsWith(" /api/mcp") && !r.startsWith("POST "))),
];

describe("[CHAOS 7] isolation", () => {
  it("every route handler has a cross-person probe", () => {
    const routes = listRouteHandlers().filter((r) => !NOT_PERSONAL.includes(r));
    expect(
      routes.filter((r) => !(r in PROBES)),
      "routes without an isolation probe",
    ).toEqual([]);
    expect(
      Object.keys(PROBES).filter((r) => !routes.includes(r)),
      "probes for routes that no longer exist",
    ).toEqual([]);
  });

  it("B reads nothing of A's and changes nothing of A's, through every route", async () => {
    const before = stateOfA();
    const answers: Array<{ what: string; status: number; text: string }> = [];
    const run = async (keys: string[]) => {
      for (const key of keys) {
        for (const a of await PROBES[key]!(B.browser)) {
          answers.push(a);
          expect({ what: a.what, status: a.status < 500, leaks: leaksOfA(a.text) }).toEqual({ what: a.what, status: true, leaks: [] });
        }
      }
    };
    const keys = Object.keys(PROBES);
    // The probes can see A's data: when A asks, A's markers are there.
    const control = [...(await PROBES["GET /api/notes"]!(A.browser)), ...(await PROBES["GET /api/export"]!(A.browser))].map((x) => x.text).join("\n");
    expect(leaksOfA(control).length).toBeGreaterThanOrEqual(3);
    await run(keys.filter((k) => k.startsWith("GET ")));

    // B's metrics over A's older days (B's history is 20 days): nothing there.
    const dayBefore = new Date(Date.parse(`${B.firstDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const old = await B.browser.json<{ summary: { n: number }; value: Array<number | null> }>(`/api/metrics/${metric}?from=${A.days[0]}&to=${dayBefore}`);
    expect(old.status).toBe(200);
    expect({ n: old.body.summary.n, values: old.body.value.filter((v) => v !== null) }).toEqual({ n: 0, values: [] });
    // B's export holds only B's documents.
    const exported = await B.browser.json<{ collections: Record<string, Array<{ id?: string }>> }>("/api/export?collection=all&format=json");
    const own = new Set<string>();
    for (const c of COLLECTIONS) for (const d of await emu.documents(B.ringUserId, c)) own.add(String(d.id));
    const exportedDocs = Object.values(exported.body.collections ?? {}).flat();
    expect(exportedDocs.length).toBeGreaterThan(0);
    expect(exportedDocs.filter((d) => d.id && !own.has(String(d.id)))).toEqual([]);

    // Writes aimed at A's note days and A's tag, then B deletes all of B's data.
    await run(keys.filter((k) => !k.startsWith("GET ") && k !== "DELETE /api/data"));
    await run(["DELETE /api/data"]);
    // A's tag is not B's: 404 on every tag route; the owner-only setting refused for B.
    for (const a of answers.filter((x) => x.what.includes(`/api/tags/${A.tagId}`)))
      expect({ what: a.what, status: a.status, code: asEnvelope(JSON.parse(a.text))?.code }).toEqual({ what: a.what, status: 404, code: "not_found" });
    expect(answers.find((a) => a.what === "PATCH /api/sync/settings")?.status).toBe(403);
    // B's token was served (its own data): the read API and MCP answered, except for A's tag (404).
    for (const a of answers.filter((x) => x.what.includes(" /api/v1/") || x.what.includes(" /api/mcp"))) {
      expect({ what: a.what, status: a.status }).toEqual({ what: a.what, status: a.what.includes(`/api/v1/tags/${A.tagId}/`) ? 404 : 200 });
    }
    // And A is exactly as before.
    expect(stateOfA()).toEqual(before);
    figures.routes = { probes: keys.length, requests: answers.length, leaks: 0, changesToA: 0 };
  });

  it("B's server actions against A: refused or limited to B; A unchanged", async () => {
    const before = stateOfA();
    const actions = listServerActions();
    const tried: string[] = [];
    const call = async (name: string, args: Parameters<typeof callAction>[1]["args"], browser = B.browser) => {
      const built = builtServerActions().find((a) => a.name === name)!;
      tried.push(`${built.file}#${name}`);
      return callAction(browser, { id: built.id, page: pagePath(built.pages[0]!), args });
    };
    // The owner's household actions are refused for B.
    const revoke = await call("revokeInvite", [{ form: [["inviteId", pendingInviteId]] }]);
    expect(asEnvelope(revoke.result)?.code).toBe("forbidden");
    const create = await call("createInviteLink", [{ json: {} }, { form: [] }]);
    expect(asEnvelope(create.result)?.code).toBe("forbidden");
    // A's alert rule and channel are not B's: switching, removing or testing them is "not found";
    // B's own settings, rules and channels are B's.
    for (const [name, form] of [
      [
        "toggleAlertRuleAction",
        [
          ["id", A.ruleId],
          ["enabled", "false"],
        ],
      ],
      ["removeAlertRuleAction", [["id", A.ruleId]]],
      [
        "toggleAlertChannelAction",
        [
          ["id", A.channelId],
          ["enabled", "false"],
        ],
      ],
      ["removeAlertChannelAction", [["id", A.channelId]]],
    ] as Array<[string, Array<[string, string]>]>) {
      const r = await call(name, [{ form }]);
      expect({ name, code: asEnvelope(r.result)?.code }).toEqual({ name, code: "not_found" });
    }
    const test = await call("sendAlertTestAction", [{ json: {} }, { form: [["id", A.channelId]] }]);
    expect(asEnvelope(test.result)?.code).toBe("not_found");
    const ruleTest = await call("sendAlertRuleTestAction", [{ json: {} }, { form: [["id", A.ruleId]] }]);
    expect(asEnvelope(ruleTest.result)?.code).toBe("not_found");
    // nor A's to confirm or to send a code to
    for (const [name, form] of [
      [
        "confirmAlertChannelAction",
        [
          ["id", A.channelId],
          ["code", "123456"],
        ],
      ],
      ["resendAlertConfirmationAction", [["id", A.channelId]]],
    ] as Array<[string, Array<[string, string]>]>) {
      const r = await call(name, [{ json: {} }, { form }]);
      expect({ name, code: asEnvelope(r.result)?.code }).toEqual({ name, code: "not_found" });
    }
    // A's share link is not B's to revoke; B's own link is B's report (B's numbers, B's notes).
    const revokeLink = await call("revokeReportLinkAction", [{ form: [["id", A.linkId]] }]);
    expect(asEnvelope(revokeLink.result)?.code).toBe("not_found");
    const bLink = await call("createReportLinkAction", [
      { json: {} },
      {
        form: [
          ["query", `${range()}&sections=summary,events,notes`],
          ["expiresDays", "1"],
        ],
      },
    ]);
    const bLinkUrl = (bLink.result as { link?: string }).link ?? "";
    expect(bLinkUrl).toMatch(/\/r\/[^/]+$/);
    const bShared = await get(new Browser(), new URL(bLinkUrl).pathname);
    expect({ status: bShared.status, leaks: leaksOfA(bShared.text) }).toEqual({ status: 200, leaks: [] });
    // only the owner removes a member: B cannot remove A (nor anyone)
    const remove = await call("removeMemberAction", [{ form: [["memberId", A.userId]] }]);
    expect(asEnvelope(remove.result)?.code).toBe("forbidden");
    // A's token is not B's to revoke; B's new token reads B's data only.
    const revokeToken = await call("revokeApiTokenAction", [{ form: [["id", A.tokenId]] }]);
    expect(asEnvelope(revokeToken.result)?.code).toBe("not_found");
    const newToken = await call("createApiTokenAction", [
      { json: {} },
      {
        form: [
          ["name", "b second"],
          ["kinds", "notes"],
        ],
      },
    ]);
    const bSecond = (newToken.result as { token?: string }).token!;
    const tags = await B.browser.json<{ tags: Array<{ name: string }> }>("/api/v1/tags", { headers: { authorization: `Bearer ${bSecond}` } });
    expect(tags.body.tags.map((t) => t.name)).not.toContain(A.tagName);
    expect((await A.browser.fetch("/api/v1/tags", { headers: { authorization: `Bearer ${A.token}` } })).status).toBe(200);
    for (const [name, form] of [
      ["saveAlertSettingsAction", [["timeZone", "Asia/Tokyo"]]],
      [
        "addAlertRuleAction",
        [
          ["kind", "connection"],
          ["hours", "3"],
        ],
      ],
      [
        "addAlertChannelAction",
        [
          ["kind", "ntfy"],
          ["url", "http://127.0.0.1:9/b-topic"],
        ],
      ],
    ] as Array<[string, Array<[string, string]>]>) {
      const r = await call(name, [{ json: {} }, { form }]);
      expect({ name, ok: (r.result as { ok?: boolean }).ok }).toEqual({ name, ok: true });
    }
    expect((db.prepare(`SELECT COUNT(*) AS n FROM alert_rule WHERE userId = ?`).get(B.userId) as { n: number }).n).toBe(1);
    // A's cycle entry is not B's to edit or remove (with B's own tracking on: "not found"); B's
    // logs and removal touch B's cycle only.
    const tracking = await call("saveCycleSettingsAction", [{ json: { tracking: true } }]);
    expect((tracking.result as { settings?: { tracking: boolean } }).settings?.tracking).toBe(true);
    for (const [name, form] of [
      [
        "editCycleEntryAction",
        [
          ["id", A.cycleEntryId],
          ["kind", "period_end"],
        ],
      ],
      ["removeCycleEntryAction", [["id", A.cycleEntryId]]],
    ] as Array<[string, Array<[string, string]>]>) {
      const r = await call(name, [{ json: {} }, { form }]);
      expect({ name, code: asEnvelope(r.result)?.code }).toEqual({ name, code: "not_found" });
    }
    const bStart = await call("logPeriodStartAction", [{ json: {} }, { form: [] }]);
    const bDay = await call("logCycleEntryAction", [
      { json: {} },
      {
        form: [
          ["day", A.days.at(-3)!],
          ["kind", "period_start"],
        ],
      },
    ]);
    for (const r of [bStart, bDay]) expect((r.result as { entry?: { id: string } }).entry?.id).not.toBe(A.cycleEntryId);
    const bCycle = await B.browser.json<{ entries: Array<{ id: string }> }>(`/api/cycle?from=${A.days.at(-60) ?? A.days[0]}&to=${A.days.at(-1)}`);
    expect(bCycle.body.entries.map((e) => e.id)).not.toContain(A.cycleEntryId);
    const removed = await call("removeCycleDataAction", [{ json: "remove" }]);
    expect((removed.result as { deleted?: { entries: number } }).deleted?.entries).toBeGreaterThanOrEqual(1);
    // Home automation: B's own setting only, whatever person the form names (A's row never appears)
    const published = await call("saveHomeAssistantAction", [
      { json: {} },
      {
        form: [
          ["enabled", "on"],
          ["kinds", "daily_sleep"],
          ["userId", A.userId],
        ],
      },
    ]);
    expect(asEnvelope(published.result)).toBeNull();
    const publishing = (id: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM home_assistant_publish WHERE userId = ? AND enabled = 1`).get(id) as { n: number }).n;
    expect({ a: publishing(A.userId), b: publishing(B.userId) }).toEqual({ a: 0, b: 1 });
    // Sign-in actions only ever start B's own round trip.
    const reconnect = await call("reconnectRing", []);
    expect(reconnect.redirect ?? "").toMatch(/\/oauth\/authorize\?/);
    const start = await call("connectRing", []);
    expect(start.redirect ?? "").toMatch(/\/oauth\/authorize\?/);
    // B disconnects and deletes B's data: A keeps everything, A's session included.
    const gone = await call("disconnectRing", [{ form: [["data", "delete"]] }]);
    expect(gone.status).toBeLessThan(500);
    await waitFor("B's data deleted", () => (db.prepare(`SELECT COUNT(*) AS n FROM daily_sleep WHERE userId = ?`).get(B.userId) as { n: number }).n === 0, {
      timeoutMs: 10_000,
    });
    expect(stateOfA()).toEqual(before);
    expect((await A.browser.fetch("/api/me")).status).toBe(200);
    expect(
      actions.filter((a) => !tried.includes(a)),
      "server actions not tried across people",
    ).toEqual([]);
    figures.actions = { tried: tried.length, refused: 2, changesToA: 0 };
  });

  it("signing in without an invite is refused: nothing stored, the fresh token handed back", async () => {
    const counts = () =>
      db.prepare(`SELECT (SELECT COUNT(*) FROM "User") AS users, (SELECT COUNT(*) FROM Account) AS accounts, (SELECT COUNT(*) FROM Session) AS sessions`).get();
    const before = counts();
    const stranger = `stranger-${tag}@stranger.chaos.test`;
    const ring = await emu.createUser(stranger, { history_days: 5 });
    const { landed, browser } = await connect(stranger);
    expect(landed.pathname).toBe("/sign-in/error");
    expect(landed.searchParams.get("error")).toBe("not_invited");
    expect(browser.signedIn).toBe(false);
    // A used invite link does not let a third person in either.
    const reused = new Browser();
    const link = await reused.fetch(usedInvitePath);
    expect(link.headers.get("location") ?? "").toMatch(/error=invite_invalid/);
    expect(counts()).toEqual(before);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM "User" WHERE ringUserId = ?`).get(ring.user_id)).toEqual({ n: 0 });
    const revokes = (await emu.requests({ kind: "revoke" })).filter((r) => r.user_id === ring.user_id && r.status === 200);
    expect(revokes.length).toBeGreaterThan(0);
    figures.uninvited = { refused: 1, rowsCreated: 0, tokenRevoked: true };
  });

  it("state and PKCE mismatches are refused and store nothing", async () => {
    const counts = () =>
      db.prepare(`SELECT (SELECT COUNT(*) FROM "User") AS users, (SELECT COUNT(*) FROM Account) AS accounts, (SELECT COUNT(*) FROM Session) AS sessions`).get();
    const before = counts();
    const email = `late-${tag}@${ALLOWED_DOMAIN}`; // admissible: only the checks can refuse it
    const outcomes: Record<string, string | null> = {};

    // 1. Forged state.
    {
      const b = new Browser();
      const callback = await consent(await startConnect(b), email);
      callback.searchParams.set("state", `${callback.searchParams.get("state")}x`);
      outcomes.forgedState = (await finishConnect(b, callback)).searchParams.get("error");
    }
    // 2. The callback delivered to another browser (no state or PKCE cookie): login CSRF.
    {
      const victim = new Browser();
      await victim.fetch("/api/auth/csrf");
      const callback = await consent(await startConnect(new Browser()), email);
      outcomes.otherBrowser = (await finishConnect(victim, callback)).searchParams.get("error");
    }
    // 3. The PKCE verifier cookie missing.
    {
      const b = new Browser();
      const callback = await consent(await startConnect(b), email);
      for (const k of [...b.jar.keys()]) if (k.includes("pkce")) b.jar.delete(k);
      outcomes.missingVerifier = (await finishConnect(b, callback)).searchParams.get("error");
    }
    // 4. Code and state of one round trip, cookies of another (a wrong verifier for that code).
    {
      const b1 = new Browser();
      const b2 = new Browser();
      const cb1 = await consent(await startConnect(b1), email);
      await startConnect(b2);
      const pkce2 = [...b2.jar].find(([k]) => k.includes("pkce"));
      for (const k of [...b1.jar.keys()]) if (k.includes("pkce")) b1.jar.delete(k);
      if (pkce2) b1.jar.set(pkce2[0], pkce2[1]);
      outcomes.swappedVerifier = (await finishConnect(b1, cb1)).searchParams.get("error");
    }
    for (const [k, v] of Object.entries(outcomes)) expect({ k, refused: v !== null && v.length > 0 }).toEqual({ k, refused: true });
    expect(counts()).toEqual(before);

    // 5. A replayed callback: a person signs in, then the same code and state are delivered again.
    {
      const b = new Browser();
      const callback = await consent(await startConnect(b), email);
      const copy = new Browser();
      for (const [k, v] of b.jar) copy.jar.set(k, v);
      expect((await finishConnect(b, callback)).pathname).toBe("/");
      const afterFirst = counts();
      outcomes.replay = (await finishConnect(copy, callback)).searchParams.get("error");
      expect(outcomes.replay).toBeTruthy();
      expect(counts()).toEqual(afterFirst);
    }
    figures.signInChecks = outcomes;
  });

  it("no token reached the database file or the app's log", () => {
    expect(findLeaks([...emu.issuedSecrets(), A.token, B.token], [app.dbFile, `${app.dbFile}-wal`, app.logFile])).toEqual([]);
    recordFigures("isolation", figures);
  });
});
