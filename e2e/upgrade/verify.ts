// Holds an upgraded fixture to its manifest, by meaning (through today's answers, never by the
// rows' SQL text, which a change of how rows are read may change): every document and sample, and
// each typed column, through the export of everything (the signed-in person's download); the
// documents and heart rate of a third of the days, every count and range, the notes, tags and the
// cycle through the read API with the fixture's token; and
// the person's settings, tokens, alerts, invites and links through today's services. Each check
// returns what differs, one line each (empty when nothing does).
import { addDays, dayToIndex } from "@/lib/days";
import { parse } from "csv-parse/sync";
import { columnChecksums, documentChecksum, secretChecksum, seriesChecksums, type SeriesSample } from "@/e2e/upgrade/manifest.mjs";
import type { Manifest } from "@/e2e/upgrade/fixtures";

type Json = Record<string, unknown>;
/** A route module's GET (a method: each route's own params type is accepted). */
type Route = { GET(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> };

/** Today's modules the checks read through, loaded for the upgraded database (e2e/upgrade/app.ts). */
export type App = {
  routes: { day: Route; notes: Route; tags: Route; metrics: Route; syncStatus: Route; cycle: Route; exportAll: Route };
  resources: typeof import("@/lib/resources");
  settings: typeof import("@/lib/services/settings");
  alerts: typeof import("@/lib/services/alerts");
  alertQueries: typeof import("@/lib/db/queries/alerts");
  apiTokens: typeof import("@/lib/db/queries/api-tokens");
  accounts: typeof import("@/lib/db/queries/accounts");
  sessions: typeof import("@/lib/db/queries/sessions");
  invites: typeof import("@/lib/db/queries/invites");
  signalSettings: typeof import("@/lib/db/queries/signal-settings");
  cycle: typeof import("@/lib/services/cycle-entries");
  reportLinks: typeof import("@/lib/services/report-links");
  tokens: typeof import("@/lib/ring/tokens");
};

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

async function get(route: Route, url: string, headers: Record<string, string>, params: Record<string, string> = {}): Promise<Json> {
  const res = await route.GET(new Request(`http://localhost${url}`, { headers }), { params: Promise.resolve(params) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Json;
}

/**
 * The days the read API is asked for, one by one: three days in every nine (so a third of the
 * documents, and every ninth UTC day's heart rate, whatever the person's offset), the range's
 * first and last day and every day with a note or a cycle entry. The day page is the dearest
 * answer there is (some 20 queries), and CPU is what npm test is short of; the export check
 * holds every document and sample of every day.
 */
function readDays(m: Manifest): Set<string> {
  const [from, to] = m.made.range;
  const set = new Set(days(addDays(from, -1), addDays(to, 1)).filter((d) => dayToIndex(d) % 9 < 3));
  for (const d of [from, to, ...m.notes.map((n) => n.day), ...(m.cycle?.entries ?? []).map((e) => e.day)]) set.add(d);
  return set;
}

/** Every day from..to. */
function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Two lists of [key, checksum] as multisets: what is missing from `have`, what is extra. */
function compareLists(what: string, want: Array<[string, string]>, have: Array<[string, string]>): string[] {
  const count = (list: Array<[string, string]>) => {
    const m = new Map<string, number>();
    for (const [k, c] of list) m.set(`${k} ${c}`, (m.get(`${k} ${c}`) ?? 0) + 1);
    return m;
  };
  const w = count(want);
  const h = count(have);
  const out: string[] = [];
  for (const [k, n] of w) if ((h.get(k) ?? 0) < n) out.push(`${what}: missing or changed ${k}`);
  for (const [k, n] of h) if ((w.get(k) ?? 0) < n) out.push(`${what}: unexpected ${k}`);
  return out;
}

function compareSeries(
  what: string,
  want: Record<string, [number, string]>,
  have: Record<string, [number, string]>,
  only?: (day: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const day of [...new Set([...Object.keys(want), ...Object.keys(have)])].sort()) {
    if (only && !only(day)) continue;
    const w = want[day];
    const h = have[day];
    if (JSON.stringify(w ?? null) !== JSON.stringify(h ?? null))
      out.push(`${what} ${day}: want ${JSON.stringify(w ?? null)}, have ${JSON.stringify(h ?? null)}`);
  }
  return out;
}

const docKey = (doc: Json) => String(doc.id ?? doc.day);

/** A CSV cell as stored: the export writes text a spreadsheet would take for a formula with a leading quote. */
const unescapeCell = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** The read API, with the fixture's token: every day's documents and heart rate, notes, tags, counts, the cycle. */
export async function checkReadApi(app: App, m: Manifest, token: string): Promise<string[]> {
  const auth = { authorization: `Bearer ${token}` };
  const out: string[] = [];
  const [from, to] = m.made.range;
  const daily = Object.keys(m.collections).filter((c) => (app.resources.DAILY_COLLECTIONS as readonly string[]).includes(c));
  const byDay = (c: string) => {
    const map = new Map<string, Array<[string, string]>>();
    for (const [id, day, sum] of m.collections[c]?.documents ?? []) map.set(day, [...(map.get(day) ?? []), [id, sum]]);
    return map;
  };
  const dailyByDay = new Map(daily.map((c) => [c, byDay(c)]));
  const sleepByDay = byDay("sleep");
  const records: Array<[string, string]> = [
    ["workout", "workouts"],
    ["session", "sessions"],
    ["enhanced_tag", "ringTags"],
  ];
  const recordsByDay = new Map(records.filter(([c]) => m.collections[c]).map(([c]) => [c, byDay(c)]));
  const notesByDay = new Map(m.notes.map((n) => [n.day, n]));
  const heart: SeriesSample[] = [];
  const seen = new Set<string>();
  const read = readDays(m);
  for (const day of read) {
    const d = await get(app.routes.day, `/api/v1/days/${day}`, auth, { day });
    const raw = d.raw as Json;
    for (const c of daily) {
      const want = dailyByDay.get(c)!.get(day) ?? [];
      const doc = raw[c] as Json | undefined;
      out.push(...compareLists(`read API ${c} ${day}`, want, doc ? [[docKey(doc), documentChecksum(doc)]] : []));
    }
    const periods = (raw.sleep ?? []) as Json[];
    out.push(
      ...compareLists(
        `read API sleep ${day}`,
        sleepByDay.get(day) ?? [],
        periods.map((p) => [docKey(p), documentChecksum(p)]),
      ),
    );
    const rec = d.records as Json;
    for (const [c, field] of records) {
      const wanted = recordsByDay.get(c);
      if (!wanted) continue;
      const ids = ((rec[field] ?? []) as Json[]).map((r) => String(r.id)).sort();
      const want = (wanted.get(day) ?? []).map(([id]) => id).sort();
      if (JSON.stringify(ids) !== JSON.stringify(want)) out.push(`read API ${c} ${day}: want ${JSON.stringify(want)}, have ${JSON.stringify(ids)}`);
    }
    // the heart rate of the local day: minutes from its midnight at the day's offset
    const start = Date.parse(`${day}T00:00:00Z`) - Number(rec.offsetMinutes) * 60_000;
    for (const p of (rec.heartRate ?? []) as Array<{ t: number; bpm: number; source: string | null }>) {
      const t = Math.round(start + p.t * 60_000);
      const key = `${t} ${p.source} ${p.bpm}`;
      if (seen.has(key)) continue;
      seen.add(key);
      heart.push({ t, fields: { bpm: p.bpm, source: p.source } });
    }
    const note = d.note as { text: string; tags: Array<{ name: string }> } | null;
    const wantNote = notesByDay.get(day);
    const haveNote = note && (note.text || note.tags.length) ? { text: note.text, tags: note.tags.map((x) => x.name).sort() } : null;
    const wantShape = wantNote ? { text: wantNote.text, tags: [...wantNote.tags].sort() } : null;
    if (JSON.stringify(haveNote) !== JSON.stringify(wantShape))
      out.push(`read API note ${day}: want ${JSON.stringify(wantShape)}, have ${JSON.stringify(haveNote)}`);
  }
  // a UTC day's heart rate lies in the local days around it (whatever the person's offset): the
  // days whose neighbours were read too
  const hr = m.series.heartrate;
  if (hr)
    out.push(
      ...compareSeries("read API heartrate", hr.days, seriesChecksums(heart), (d) => read.has(addDays(d, -1)) && read.has(d) && read.has(addDays(d, 1))),
    );

  const notes = await get(app.routes.notes, `/api/v1/notes?from=${from}&to=${to}`, auth);
  // the person's own notes and tags (days with only the ring app's tags left out)
  const haveNotes = (notes.days as Array<{ day: string; text: string; tags: Array<{ name: string }> }>)
    .filter((n) => n.text || n.tags.length)
    .map((n) => ({
      day: n.day,
      text: n.text,
      tags: n.tags.map((x) => x.name).sort(),
    }));
  const wantNotes = m.notes.map((n) => ({ day: n.day, text: n.text, tags: [...n.tags].sort() }));
  if (JSON.stringify(haveNotes) !== JSON.stringify(wantNotes)) out.push(`read API notes: want ${JSON.stringify(wantNotes)}, have ${JSON.stringify(haveNotes)}`);
  const tags = await get(app.routes.tags, `/api/v1/tags`, auth);
  const haveTags = (tags.tags as Array<{ name: string; color: string | null; days: number }>).map((x) => ({ name: x.name, color: x.color, days: x.days }));
  if (JSON.stringify(haveTags) !== JSON.stringify(m.tags)) out.push(`read API tags: want ${JSON.stringify(m.tags)}, have ${JSON.stringify(haveTags)}`);

  // each collection's count, first and last day (the catalog), and count again (sync status)
  const catalog = await get(app.routes.metrics, `/api/v1/metrics`, auth);
  const ranges = new Map(
    (catalog.ranges as Array<{ collection: string; firstDay: string | null; lastDay: string | null; count: number }>).map((r) => [r.collection, r]),
  );
  const status = await get(app.routes.syncStatus, `/api/v1/sync/status`, auth);
  const counted = new Map((status.collections as Array<{ collection: string; documents: number }>).map((c) => [c.collection, c.documents]));
  const expected: Array<[string, number, string[]]> = [
    ...Object.entries(m.collections).map(([c, v]): [string, number, string[]] => [c, v.count, v.documents.map((d) => d[1])]),
    ...Object.entries(m.series).map(([c, v]): [string, number, string[]] => [c, v.count, Object.keys(v.days)]),
  ];
  for (const [c, count, dayList] of expected) {
    const sorted = [...dayList].sort();
    const want = { count, firstDay: sorted[0] ?? null, lastDay: sorted.at(-1) ?? null };
    const r = ranges.get(c);
    const have = r ? { count: r.count, firstDay: r.firstDay, lastDay: r.lastDay } : null;
    if (JSON.stringify(have) !== JSON.stringify(want)) out.push(`read API metrics range ${c}: want ${JSON.stringify(want)}, have ${JSON.stringify(have)}`);
    if (counted.get(c) !== count) out.push(`read API sync status ${c}: want ${count}, have ${counted.get(c)}`);
  }
  if (m.cycle) {
    const cycle = await get(app.routes.cycle, `/api/v1/cycle?from=${from}&to=${to}`, auth);
    const have = ((cycle.entries ?? []) as Array<{ day: string; kind: string }>).map((e) => `${e.day} ${e.kind}`).sort();
    const want = m.cycle.entries.map((e) => `${e.day} ${e.kind}`).sort();
    if (JSON.stringify(have) !== JSON.stringify(want)) out.push(`read API cycle entries: want ${JSON.stringify(want)}, have ${JSON.stringify(have)}`);
  }
  return out;
}

/** The export of everything as the signed-in person downloads it: every document and sample exactly. */
export async function checkExport(app: App, m: Manifest): Promise<string[]> {
  const out: string[] = [];
  const all = await get(app.routes.exportAll, `/api/export?collection=all&format=json`, {});
  const collections = all.collections as Record<string, Json[]>;
  for (const [c, v] of Object.entries(m.collections)) {
    const have = (collections[c] ?? []).map((d): [string, string] => [docKey(d), documentChecksum(d)]);
    out.push(
      ...compareLists(
        `export ${c}`,
        v.documents.map(([id, , sum]) => [id, sum]),
        have,
      ),
    );
  }
  for (const [c, v] of Object.entries(m.series)) {
    const names = app.resources.sampleSpecOf(c as never).fields.map((f: { name: string }) => f.name);
    const samples = (collections[c] ?? []).map((r) => ({
      t: Number(r.timestamp_unix ?? Date.parse(String(r.timestamp))),
      fields: Object.fromEntries(names.map((n) => [n, r[n] ?? null])),
    }));
    if (samples.length !== v.count) out.push(`export ${c}: want ${v.count} samples, have ${samples.length}`);
    out.push(...compareSeries(`export ${c}`, v.days, seriesChecksums(samples)));
  }
  // each collection's typed columns as stored (its CSV), by the names the old version had
  for (const [c, v] of Object.entries(m.collections)) {
    const res = await app.routes.exportAll.GET(new Request(`http://localhost/api/export?collection=${c}&format=csv`), { params: Promise.resolve({}) });
    const [header, ...lines] = parse(await res.text(), { relax_column_count: false }) as string[][];
    const docs = lines.map((cells) => {
      const row = Object.fromEntries(header!.map((h, i) => [h, unescapeCell(cells[i] ?? "")]));
      return { key: row.documentId || row.day || "", row };
    });
    const have = columnChecksums(docs);
    for (const [column, want] of Object.entries(v.columns)) {
      // a column with no value in any document (or no documents at all): nothing to lose
      const got = have[column] ?? (header!.includes(column) || lines.length === 0 ? columnChecksums([{ key: "", row: { [column]: null } }])[column] : null);
      if (JSON.stringify(got) !== JSON.stringify(want))
        out.push(`export ${c}.${column}: want ${JSON.stringify(want)}, have ${JSON.stringify(got ?? "no such column")}`);
    }
  }
  if (documentChecksum(all.personal_info) !== m.personalInfo) out.push(`export personal_info: checksum differs`);
  const notes = (all.notes as Array<{ day: string; text: string; tags: string[] }>).map((n) => ({ day: n.day, text: n.text, tags: [...n.tags].sort() }));
  const wantNotes = m.notes.map((n) => ({ day: n.day, text: n.text, tags: [...n.tags].sort() }));
  if (JSON.stringify(notes) !== JSON.stringify(wantNotes)) out.push(`export notes: want ${JSON.stringify(wantNotes)}, have ${JSON.stringify(notes)}`);
  const tags = (all.tags as Array<{ name: string; color: string | null }>).map((x) => `${x.name} ${x.color}`).sort();
  const wantTags = m.tags.map((x) => `${x.name} ${x.color}`).sort();
  if (JSON.stringify(tags) !== JSON.stringify(wantTags)) out.push(`export tags: want ${JSON.stringify(wantTags)}, have ${JSON.stringify(tags)}`);
  if (m.cycle) {
    const cycle = all.cycle as { entries: Array<{ day: string; kind: string }> };
    const have = cycle.entries.map((e) => `${e.day} ${e.kind}`).sort();
    const want = m.cycle.entries.map((e) => `${e.day} ${e.kind}`).sort();
    if (JSON.stringify(have) !== JSON.stringify(want)) out.push(`export cycle entries: want ${JSON.stringify(want)}, have ${JSON.stringify(have)}`);
  }
  return out;
}

/**
 * Data kinds a later version retired, which a token made before no longer carries: the cycle's
 * phases became part of the `cycle` kind (issue 50, docs/privacy.md), and a token that had only
 * the phases' kind is not given the cycle's entries by the upgrade.
 */
const RETIRED_KINDS = new Set(["daily_cycle_phases"]);

/** The person, their session, ring account (tokens decrypted), API tokens, alerts, invites, links and settings, through today's services. */
export async function checkSettings(app: App, m: Manifest): Promise<string[]> {
  const out: string[] = [];
  const differs = (what: string, want: unknown, have: unknown) => {
    if (JSON.stringify(want) !== JSON.stringify(have)) out.push(`${what}: want ${JSON.stringify(want)}, have ${JSON.stringify(have)}`);
  };
  const { person } = m;
  const session = await app.sessions.findSessionWithUser(m.session.token);
  differs(
    "session",
    { userId: person.userId, expires: m.session.expires },
    session ? { userId: session.user.id, expires: iso(session.session.expires) } : null,
  );
  const page = await app.settings.getSettingsPageData({ id: person.userId, email: person.email, role: person.role } as never);
  differs("preferences", { units: person.units, theme: person.theme }, { units: page.preferences.units, theme: page.preferences.theme });
  const account = page.connection.account;
  differs(
    "ring account",
    { ringUserId: m.account.providerAccountId, status: m.account.status, scope: m.account.scope },
    account ? { ringUserId: account.ringUserId, status: account.status, scope: account.scope } : null,
  );
  const ring = await app.accounts.findRingAccountByUserId(person.userId);
  const row = ring ? await app.accounts.readTokenRow(ring.accountId) : null;
  differs(
    "ring tokens (decrypted)",
    { access: m.account.accessToken, refresh: m.account.refreshToken },
    row ? { access: secretChecksum(app.tokens.decryptToken(row.access_token!)), refresh: secretChecksum(app.tokens.decryptToken(row.refresh_token!)) } : null,
  );
  differs("pending invites", m.invites.length, page.household?.invites.length ?? null);
  for (const inv of m.invites) if (!(await app.invites.findUsableInviteByHash(inv.tokenHash))) out.push(`invite ${inv.tokenHash.slice(0, 12)}…: not usable`);
  if (m.apiTokens) {
    const summaries = page.api.tokens.map((t) => ({ name: t.name, prefix: t.prefix, kinds: [...t.kinds].sort() }));
    differs(
      "API tokens",
      m.apiTokens
        .map((t) => ({ name: t.name, prefix: t.prefix, kinds: t.kinds.filter((k) => !RETIRED_KINDS.has(k)).sort() }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      summaries.sort((a, b) => a.name.localeCompare(b.name)),
    );
    for (const t of m.apiTokens) {
      const found = await app.apiTokens.findApiTokenByHash(t.tokenHash);
      differs(
        `API token ${t.name}`,
        { userId: person.userId, expiresAt: t.expiresAt ?? null },
        found ? { userId: found.userId, expiresAt: iso(found.expiresAt) } : null,
      );
    }
  }
  if ("sleepNeedMin" in person) {
    const s = await app.signalSettings.findSignalSettings(person.userId);
    const freeDays = typeof person.freeDays === "string" ? (person.freeDays ? person.freeDays.split(",").map(Number) : []) : null;
    differs("signal settings", { sleepNeedMin: person.sleepNeedMin, freeDays }, s ? { sleepNeedMin: s.sleepNeedMinutes, freeDays: s.freeDays } : null);
  }
  if (m.alerts) {
    const overview = await app.alerts.getAlertsOverview(person.userId);
    const a = m.alerts.settings;
    differs(
      "alert settings",
      { includeValues: a.includeValues, timeZone: a.timeZone, quietHours: a.quietHours },
      { includeValues: Boolean(overview.settings.includeValues), timeZone: overview.settings.timeZone, quietHours: overview.settings.quietHours },
    );
    differs(
      "alert rules",
      m.alerts.rules.map((r) => ({ id: r.id, kind: r.kind, enabled: r.enabled, readable: true })).sort((x, y) => x.id.localeCompare(y.id)),
      overview.rules
        .map((r) => ({ id: r.id, kind: r.kind, enabled: Boolean(r.enabled), readable: !/^Unreadable/.test(r.description) }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
    const rules = await app.alertQueries.listAlertRules(person.userId);
    differs("alert rule parameters", m.alerts.rules.map((r) => [r.id, r.params]).sort(), rules.map((r) => [r.id, r.params]).sort());
    const channels = await app.alertQueries.listAlertChannels(person.userId);
    differs(
      "alert channels",
      m.alerts.channels.map((c) => ({ ...c })).sort((x, y) => x.id.localeCompare(y.id)),
      channels
        .map((c) => ({
          id: c.id,
          kind: c.kind,
          label: c.label,
          url: c.url,
          enabled: Boolean(c.enabled),
          secret: c.secret ? secretChecksum(app.tokens.decryptToken(c.secret)) : null,
        }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
  }
  if (m.cycle) {
    const s = await app.cycle.getCycleSettings(person.userId);
    differs("cycle settings", m.cycle.settings, Object.fromEntries(Object.keys(m.cycle.settings).map((k) => [k, (s as Json)[k]])));
  }
  if (m.reportLinks?.length) {
    const links = await app.reportLinks.listReportLinkSummaries(person.userId);
    differs("report links", m.reportLinks.map((l) => l.id).sort(), links.map((l) => l.id).sort());
  }
  return out;
}
