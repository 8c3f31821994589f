// 10. Hardening (production process, its 192 MB heap cap): the abuse an independent run found
// against the released code, one case per finding. Each sends what the finding sent; the server
// stays up, every refusal is a 4xx with the envelope {error:{code,message}}, nothing is stored.
//   1 ranges   unbounded day ranges (to=9999-12-31 alone on the tag comparison exhausted the heap)
//   2 bodies   a 40 MB import of [{},{},…], a webhook body streamed without a length, …
//   3 origin   cross-site writes with text/plain;charset=application/json, Origin: null
//   4 secrets  no start without a real client secret; a delete applied only after a 404
//   5 revoke   disconnect revokes the refresh token too
//   6 owner    the first connect needs the setup code; /setup shows configuration to the owner only
//   7 hsts     Strict-Transport-Security over https only
import { clock } from "@/lib/clock";
import net from "node:net";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "@/lib/emulator/webhooks";
import { fingerprint as tokenFingerprint } from "@/lib/emulator/store";
import { STATE_TABLES, fingerprint, openAppDb, waitFor, SYNCED } from "./support/app-db";
import { asEnvelope, callAction } from "./support/actions";
import { Browser, connect, consent, finishConnect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, APP_PORT, APP_URL, CHAOS_CLIENT, EMULATOR_URL } from "./support/env";
import { recordFigures } from "./support/figures";
import { rssMb, serverPid, startProdApp, startupAttempt, type ProdApp } from "./support/prod-app";
import { builtServerActions, pagePath } from "./support/surface";

const MB = 1024 * 1024;
/** The finding's figures: a 40 MB import, a 150 MB webhook body (refused within milliseconds, so the quick form sends them too). */
const IMPORT_MB = 40;
const WEBHOOK_MB = 150;
const MAX_RANGE_DAYS = 11_000;

let emu: Emulator;
let app: ProdApp | undefined;
let db: Database.Database | undefined;
let owner: Browser;
let ownerId = "";
let ownerRing = "";
let tagId = 0;
const figures: Record<string, unknown> = {};
const tally = { requests: 0, statuses: {} as Record<string, number> };

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 100, historyDays: 60 });
});

afterAll(async () => {
  db?.close();
  await app?.stop();
  await emu?.close();
});

/** The main instance: an owner (admitted by ALLOWED_EMAILS) with 60 days of data and a tag on 10 of them. */
async function mainApp(): Promise<ProdApp> {
  if (app && db) return app;
  app = await startProdApp({ name: "hardening" });
  const email = `owner-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
  const c = await connect(email);
  expect(c.landed.pathname).toBe("/");
  owner = c.browser;
  db = openAppDb(app.dbFile);
  ({ id: ownerId, ringUserId: ownerRing } = db.prepare(`SELECT id, ringUserId FROM "User" WHERE email = ?`).get(email) as { id: string; ringUserId: string });
  await waitFor(
    "the backfill",
    () =>
      (db!.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(ownerId) as { n: number }).n === SYNCED.length,
    {
      timeoutMs: 120_000,
      intervalMs: 200,
    },
  );
  const tag = await owner.json<{ id: number }>("/api/tags", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "late dinner" }),
  });
  expect(tag.status).toBe(201);
  tagId = tag.body.id;
  const days = db.prepare(`SELECT day FROM daily_activity WHERE userId = ? ORDER BY day DESC LIMIT 10`).pluck().all(ownerId) as string[];
  for (const day of days) {
    const r = await owner.fetch(`/api/notes/${day}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "", tags: ["late dinner"] }),
    });
    expect(r.status).toBe(200);
  }
  return app;
}

function state() {
  return fingerprint(
    db!,
    [...STATE_TABLES, "webhook_event", "job"],
    ["updatedAt", "syncedAt", "lastSuccessAt", "lastAttemptAt", "runAt", "attempts", "lockedAt", "lockedBy", "lastError", "status", "processedAt", "error"],
  );
}

/** A refusal: a 4xx whose JSON body is {error:{code,message}}. Returns the status. */
async function expectRefusal(what: string, res: Response | Promise<Response>): Promise<number> {
  const r = await res;
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  tally.requests++;
  tally.statuses[r.status] = (tally.statuses[r.status] ?? 0) + 1;
  expect({ what, status: r.status, clientError: r.status >= 400 && r.status < 500, envelope: asEnvelope(json) !== null }).toEqual({
    what,
    status: r.status,
    clientError: true,
    envelope: true,
  });
  return r.status;
}

async function healthy(a: ProdApp, pid: number | null): Promise<void> {
  const res = await a.request("/api/health");
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  // The same server process as before: it did not die (npm start does not restart it).
  if (pid) expect(serverPid(a.pid!)).toBe(pid);
}

/** A body of `total` bytes made of `piece`, streamed in 64 KB chunks without a length; `head`/`tail` around it. */
function streamed(total: number, piece: string, head = "", tail = ""): { body: ReadableStream<Uint8Array>; sent: () => number } {
  const chunk = Buffer.from(piece.repeat(Math.ceil(65_536 / piece.length)).slice(0, Math.floor(65_536 / piece.length) * piece.length));
  let sent = 0;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (stage === 0) {
        stage = 1;
        if (head) {
          sent += head.length;
          return c.enqueue(Buffer.from(head));
        }
      }
      if (sent < total) {
        sent += chunk.length;
        return c.enqueue(chunk);
      }
      if (stage === 1 && tail) {
        stage = 2;
        return c.enqueue(Buffer.from(tail));
      }
      c.close();
    },
  });
  return { body, sent: () => sent };
}

/** Decodes an HTTP/1.1 answer read off a socket: status and body (content-length, chunked, or up to the close). */
function parseAnswer(raw: Buffer): { status: number; text: string } | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const head = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1] ?? NaN);
  if (!Number.isFinite(status)) return null;
  const headers = new Map(head.slice(1).map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
    const parts: Buffer[] = [];
    for (let i = 0; ;) {
      const eol = body.indexOf("\r\n", i);
      if (eol < 0) break;
      const size = parseInt(body.subarray(i, eol).toString("latin1"), 16);
      if (!Number.isFinite(size) || size === 0) break;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      i = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (headers.has("content-length")) {
    body = body.subarray(0, Number(headers.get("content-length")));
  }
  return { status, text: body.toString("utf8") };
}

/** Whether `raw` holds a complete HTTP/1.1 answer (by content-length or the last chunk). */
function isWholeAnswer(raw: Buffer): boolean {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const head = raw.subarray(0, end).toString("latin1");
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return raw.length - end - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head))
    return (
      raw.subarray(end + 4).includes("\r\n0\r\n\r\n") ||
      raw
        .subarray(end + 4)
        .subarray(0, 5)
        .toString() === "0\r\n\r\n"
    );
  return false;
}

/**
 * A request that may be cut off by the server after its answer: the answer, or how the
 * connection ended. A raw socket rather than fetch or node:http: a server that answers 413
 * early and closes makes those report the interrupted upload (EPIPE) and drop the answer they
 * already received. Like curl, this client stops sending as soon as an answer arrives, and it
 * lets every answer byte be read before its next write.
 */
async function post(
  path: string,
  init: { method: string; headers: Record<string, string>; body: Buffer | ReadableStream<Uint8Array>; duplex?: "half" },
): Promise<{ status: number | string; text: string; ms: number }> {
  const t = performance.now();
  const url = new URL(path, APP_URL);
  const socket = net.connect({ host: url.hostname, port: Number(url.port) });
  const received: Buffer[] = [];
  let ended: string | null = null;
  let whole: () => void = () => {};
  // Done when the server closes, or as soon as a whole answer has arrived.
  const closed = new Promise<void>((resolve) => {
    whole = resolve;
    socket.on("error", (err: NodeJS.ErrnoException) => {
      ended ??= err.code ?? err.message;
    });
    socket.on("close", () => resolve());
  });
  socket.on("data", (c: Buffer) => {
    received.push(c);
    if (isWholeAnswer(Buffer.concat(received))) whole();
  });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject)).catch(() => undefined);
  const declared = Buffer.isBuffer(init.body);
  const head = [`${init.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, "connection: close"];
  for (const [k, v] of Object.entries(init.headers)) head.push(`${k}: ${v}`);
  head.push(declared ? `content-length: ${(init.body as Buffer).length}` : "transfer-encoding: chunked");
  const answered = () => received.length > 0 || socket.destroyed;
  const write = async (chunk: Buffer | string) => {
    if (answered()) return false;
    socket.write(chunk);
    // Let the poll phase read whatever the server sent before the next write.
    await new Promise((r) => setImmediate(r));
    // Blocked by a server that stopped reading: go on when it reads again, answers or closes.
    if (socket.writableNeedDrain && !answered()) await Promise.race([new Promise((r) => socket.once("drain", r).once("close", r)), closed]);
    return !answered();
  };
  if (await write(head.join("\r\n") + "\r\n\r\n")) {
    if (declared) {
      const body = init.body as Buffer;
      for (let i = 0; i < body.length; i += 64 * 1024) if (!(await write(body.subarray(i, i + 64 * 1024)))) break;
    } else {
      const reader = (init.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          await write("0\r\n\r\n");
          break;
        }
        if (!(await write(Buffer.concat([Buffer.from(`${value.length.toString(16)}\r\n`), Buffer.from(value), Buffer.from("\r\n")])))) break;
      }
      await reader.cancel().catch(() => undefined);
    }
  }
  // The answer (if any) is read to the server's close.
  await Promise.race([closed, new Promise((r) => setTimeout(r, 30_000))]);
  socket.destroy();
  const answer = parseAnswer(Buffer.concat(received));
  const ms = Math.round(performance.now() - t);
  return answer ? { ...answer, ms } : { status: `connection ${ended ?? "closed without an answer"}`, text: "", ms };
}

function envelopeOf(text: string) {
  try {
    return asEnvelope(JSON.parse(text));
  } catch {
    return null;
  }
}

describe("[CHAOS 10] hardening", () => {
  it("1 ranges: every route that takes days bounds the span whichever ends are given; the server stays up", async () => {
    const a = await mainApp();
    const pid = serverPid(a.pid!);
    const before = state();
    const abuse = [
      `/api/tags/${tagId}/comparison?metric=activity.steps&to=9999-12-31`,
      `/api/tags/${tagId}/comparison?metric=activity.steps&from=0001-01-01`,
      `/api/tags/${tagId}/comparison?metric=activity.steps&from=2000-01-01&to=2099-12-31`,
      `/api/tags/${tagId}/comparison?metric=activity.steps&lag=99`,
      `/api/metrics/sleep.score?to=9999-12-31`,
      `/api/metrics/sleep.score?from=0001-01-01&to=9999-12-31`,
      `/api/metrics/sleep.score?from=2000-01-01&to=2099-12-31`,
      `/api/days?metric=sleep.score&from=1000-01-01`,
      `/api/days?metric=sleep.score&to=9999-12-31`,
      `/api/correlations?x=sleep.score&y=readiness.score&to=9999-12-31`,
      `/api/correlations?x=sleep.score&y=readiness.score&from=2000-01-01&to=2099-12-31&lag=1`,
      `/api/correlations/strongest?from=2000-01-01&to=2099-12-31`,
      `/api/correlations/strongest?limit=100000000`,
      `/api/notes?to=9999-12-31`,
      `/api/notes?from=2000-01-01&to=2099-12-31`,
      `/api/export?collection=all&format=json&to=9999-12-31`,
      `/api/export?collection=daily_sleep&format=csv&from=2000-01-01&to=2099-12-31`,
      `/api/days/latest?day=9999-12-31`,
      `/api/days/9999-12-31`,
      `/api/notes/0001-01-01`,
      `/api/workouts?to=9999-12-31`,
      `/api/workouts?from=2000-01-01&to=2099-12-31`,
      `/api/workouts?activity=${"x".repeat(200)}`,
      `/api/export?collection=heartrate&format=csv&from=2000-01-01&to=2099-12-31`,
    ];
    const statuses: Record<string, number> = {};
    for (const p of abuse) statuses[p] = await expectRefusal(p, owner.fetch(p));
    await healthy(a, pid);
    // One end inside the window: answered, and bounded.
    const bounded: Record<string, number> = {};
    for (const p of [
      `/api/tags/${tagId}/comparison?metric=activity.steps&to=2099-12-31`,
      `/api/tags/${tagId}/comparison?metric=activity.steps&from=2000-01-01`,
      `/api/metrics/sleep.score?to=2099-12-31`,
      `/api/correlations?x=sleep.score&y=readiness.score&from=2000-01-01`,
      `/api/metrics/heartrate.daytime_mean?to=2099-12-31`,
      `/api/workouts?from=2000-01-01`,
    ]) {
      const r = await owner.json<{ from: string; to: string }>(p);
      expect({ p, status: r.status }).toEqual({ p, status: 200 });
      const days = (Date.parse(r.body.to) - Date.parse(r.body.from)) / 86_400_000 + 1;
      expect(days).toBeLessThanOrEqual(MAX_RANGE_DAYS);
      bounded[p] = days;
    }
    // The pages that take a range in their address fall back to a bounded one.
    for (const p of ["/trends?range=custom&from=2000-01-01&to=2099-12-31", "/trends?range=custom&from=0001-01-01&to=9999-12-31", "/correlations?range=all"]) {
      const r = await owner.fetch(p);
      await r.arrayBuffer();
      expect({ p, status: r.status }).toEqual({ p, status: 200 });
    }
    await healthy(a, pid);
    expect(state()).toEqual(before);
    figures.ranges = { refused: abuse.length, statuses: [...new Set(Object.values(statuses))], boundedDays: Object.values(bounded), serverRssMb: rssMb(pid) };
  });

  it("2 bodies: a 40 MB import of [{},{},…], a webhook body streamed without a length, JSON bodies over their cap → 413/4xx, memory flat, nothing stored", async () => {
    const a = await mainApp();
    const pid = serverPid(a.pid!);
    const before = state();
    const events = () => (db!.prepare(`SELECT COUNT(*) AS n FROM webhook_event`).get() as { n: number }).n;
    const eventsBefore = events();
    const rss: Record<string, [number | null, number | null]> = {};
    const cookie = owner.cookieHeader();
    const same = { cookie, origin: APP_URL, "content-type": "application/json" };
    const head = '{"format":"ringside-export-v1","collections":{"x":[{}';
    const answers: Record<string, { status: number | string; ms: number }> = {};
    const webhookRefusals = () => a.logs().split("webhook notification refused: body too large").length - 1;
    const importRefusals = () => a.logs().split('"status":413,"code":"payload_too_large","msg":"import refused"').length - 1;
    const check = async (name: string, run: () => Promise<{ status: number | string; text: string; ms: number }>) => {
      const r0 = rssMb(pid);
      const refusalsBefore = webhookRefusals();
      const importRefusalsBefore = importRefusals();
      const r = await run();
      const r1 = rssMb(pid);
      rss[name] = [r0, r1];
      answers[name] = { status: r.status, ms: r.ms };
      tally.requests++;
      tally.statuses[r.status] = (tally.statuses[r.status] ?? 0) + 1;
      // The webhook receiver drains only 1 MB of a refused body, then the server closes: a write
      // racing that close can fail (EPIPE) before the client reads the 413. Then the server's
      // own log must show this refusal (and the checks below: up, memory flat, nothing stored).
      if (name.startsWith("webhook") && typeof r.status === "string" && /EPIPE|ECONNRESET/.test(r.status)) {
        await waitFor("the refusal in the server log", () => webhookRefusals() > refusalsBefore, { timeoutMs: 5_000 });
        answers[name] = { status: "413 (server log; upload cut off)", ms: r.ms };
      } else if (name.startsWith("import") && typeof r.status === "string" && /EPIPE|ECONNRESET/.test(r.status)) {
        // The import refuses while the upload still arrives (its 200,001st item) and closes the
        // connection rather than read the rest: the same race, its 413 in the server's log.
        await waitFor("the import's refusal in the server log", () => importRefusals() > importRefusalsBefore, { timeoutMs: 5_000 });
        answers[name] = { status: "413 (server log; upload cut off)", ms: r.ms };
      } else {
        expect({ name, status: r.status, envelope: envelopeOf(r.text) !== null }).toEqual({ name, status: 413, envelope: true });
      }
      await healthy(a, pid);
    };

    // The finding: 40 MB of {"format":…,"collections":{"x":[{},{},…]}} with its length.
    const file = Buffer.from(head + ",{}".repeat(Math.floor((IMPORT_MB * MB - head.length - 3) / 3)) + "]}}");
    await check("import 40 MB, declared", () => post("/api/import", { method: "POST", headers: same, body: file }));
    await check("import 40 MB, chunked", () =>
      post("/api/import", { method: "POST", headers: same, body: streamed(IMPORT_MB * MB, ",{}", head, "]}}").body, duplex: "half" }),
    );
    await check("import 300 MB declared", () => post("/api/import", { method: "POST", headers: same, body: Buffer.alloc(300 * MB, 0x78) }));
    // The exposed path: a webhook body with no content-length.
    let hook = streamed(WEBHOOK_MB * MB, "x");
    await check(`webhook ${WEBHOOK_MB} MB, chunked`, () => {
      hook = streamed(WEBHOOK_MB * MB, "x");
      return post("/api/webhooks/ring", { method: "POST", headers: { "content-type": "application/json" }, body: hook.body, duplex: "half" });
    });
    await check("webhook 150 MB declared", () =>
      post("/api/webhooks/ring", { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.alloc(150 * MB, 0x78) }),
    );
    // A small JSON route: 10 MB streamed, and a body whose length lies.
    await check("tags 10 MB, chunked", () => post("/api/tags", { method: "POST", headers: same, body: streamed(10 * MB, "x").body, duplex: "half" }));
    await check("notes 20 MB, chunked", () =>
      post(`/api/notes/2026-01-01`, { method: "PUT", headers: same, body: streamed(20 * MB, "x").body, duplex: "half" }),
    );

    const growthOf = ([b, a2]: [number | null, number | null]) => (a2 ?? 9999) - (b ?? 0);
    const growth = Math.max(...Object.values(rss).map(growthOf));
    // Nothing is kept of a refused body: the webhook's 150 MB raised the server's memory by
    // about 425 MB in the finding; here by a few MB at most. The import refuses its 40 MB at
    // the 200,001st item and then closes the connection (a client still sending may see a reset): the
    // socket's chunks passing through, not yet collected, raise the resident memory by 50 to
    // 160 MB depending on when the collector runs (more on a loaded machine: 158 and 161 MB
    // with every runner of npm test on 2 cores). Holding the body whole would cost far more:
    // JSON.parse of it alone takes 1,351 MB. Its bound is 256 MB, well within the heap cap.
    expect(growthOf(rss[`webhook ${WEBHOOK_MB} MB, chunked`]!)).toBeLessThan(16);
    expect(growthOf(rss["webhook 150 MB declared"]!)).toBeLessThan(16);
    expect(growth).toBeLessThan(256);
    expect(events()).toBe(eventsBefore);
    expect(state()).toEqual(before);
    figures.bodies = { answers, rssMb: rss, maxRssGrowthMb: growth, webhookBytesOffered: hook.sent() };
  });

  it("3 origin: writes from another site, Origin: null, no origin, or text/plain;charset=application/json → 403/415, nothing stored", async () => {
    const a = await mainApp();
    const pid = serverPid(a.pid!);
    const before = state();
    const day = db!.prepare(`SELECT MAX(day) FROM daily_activity WHERE userId = ?`).pluck().get(ownerId) as string;
    const writes: Array<{ method: string; path: string; body?: string }> = [
      { method: "POST", path: "/api/tags", body: JSON.stringify({ name: "xsite" }) },
      { method: "PATCH", path: `/api/tags/${tagId}`, body: JSON.stringify({ name: "renamed" }) },
      { method: "DELETE", path: `/api/tags/${tagId}` },
      { method: "PUT", path: `/api/notes/${day}`, body: JSON.stringify({ text: "xsite", tags: [] }) },
      { method: "DELETE", path: `/api/notes/${day}` },
      { method: "POST", path: "/api/import", body: JSON.stringify({ format: "ringside-export-v1", collections: {}, tags: [{ name: "imported" }] }) },
      { method: "POST", path: "/api/sync" },
      { method: "PATCH", path: "/api/sync/settings", body: JSON.stringify({ pollMinutes: 5 }) },
      { method: "PATCH", path: "/api/me/preferences", body: JSON.stringify({ theme: "dark" }) },
      { method: "DELETE", path: "/api/data", body: JSON.stringify({ confirm: "DELETE" }) },
    ];
    const otherPort = `http://localhost:${APP_PORT + 1}`;
    const attacks: Array<{ name: string; headers: Record<string, string>; expect: number }> = [
      {
        name: "another port of this host, text/plain;charset=application/json",
        headers: { origin: otherPort, "content-type": "text/plain;charset=application/json" },
        expect: 403,
      },
      { name: "another site, application/json", headers: { origin: "https://evil.example", "content-type": "application/json" }, expect: 403 },
      { name: "Origin: null", headers: { origin: "null", "content-type": "application/json" }, expect: 403 },
      { name: "Sec-Fetch-Site: cross-site", headers: { origin: "", "sec-fetch-site": "cross-site", "content-type": "application/json" }, expect: 403 },
      { name: "no Origin, no Sec-Fetch-Site", headers: { origin: "", "content-type": "application/json" }, expect: 403 },
      {
        name: "same origin, text/plain;charset=application/json",
        headers: { origin: APP_URL, "content-type": "text/plain;charset=application/json" },
        expect: 415,
      },
      { name: "same origin, form-encoded", headers: { origin: APP_URL, "content-type": "application/x-www-form-urlencoded" }, expect: 415 },
    ];
    const statuses: Record<string, number> = {};
    for (const at of attacks) {
      for (const w of writes) {
        if (at.expect === 415 && !w.body) continue; // no body: nothing to mistype
        const status = await expectRefusal(`${at.name}: ${w.method} ${w.path}`, owner.fetch(w.path, { method: w.method, headers: at.headers, body: w.body }));
        expect({ at: at.name, w: `${w.method} ${w.path}`, status }).toEqual({ at: at.name, w: `${w.method} ${w.path}`, status: at.expect });
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }
    // Server actions: Origin: null and a foreign origin get a clean 403 in the envelope (Next's own check stays behind it).
    const disconnect = builtServerActions().find((x) => x.name === "disconnectRing")!;
    for (const origin of ["null", "https://evil.example", otherPort]) {
      const r = await callAction(owner, { id: disconnect.id, page: pagePath(disconnect.pages[0]!), args: [{ form: [["data", "delete"]] }], origin });
      tally.requests++;
      tally.statuses[r.status] = (tally.statuses[r.status] ?? 0) + 1;
      expect({ origin, status: r.status, code: asEnvelope(r.result)?.code }).toEqual({ origin, status: 403, code: "forbidden" });
    }
    await healthy(a, pid);
    expect(state()).toEqual(before);
    // The same writes from the page itself still work (the refusals were not for another reason).
    const ok = await owner.fetch("/api/tags", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "same-origin" }),
    });
    expect(ok.status).toBe(201);
    const okFetch = await owner.fetch("/api/tags", {
      method: "POST",
      headers: { origin: "", "sec-fetch-site": "same-origin", "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ name: "same-origin-2" }),
    });
    expect(okFetch.status).toBe(201);
    figures.origin = {
      refused: Object.values(statuses).reduce((x, y) => x + y, 0),
      statuses,
      actionsRefused: 3,
      sameOriginControl: [ok.status, okFetch.status],
    };
  });

  it("4 secrets and deletes: no start without a real client secret; a signed delete is applied only after the service answers 404", async () => {
    // Outside demo mode: refuses to start, with one message naming the variable (on the
    // suite's port: the main instance makes way meanwhile and comes back on its data).
    const a = await mainApp();
    await a.kill();
    const starts: Record<string, { code: number | null; answered: boolean; named: boolean }> = {};
    for (const [i, [name, secret]] of (
      [
        ["no RING_CLIENT_SECRET", undefined],
        ["the public demo secret", "ringside-demo-secret"],
      ] as const
    ).entries()) {
      const r = await startupAttempt({ name: `hardening-nosecret-${i}`, env: { RING_CLIENT_SECRET: secret } });
      starts[name] = { code: r.code, answered: r.answered, named: r.output.includes("RING_CLIENT_SECRET") };
      expect({ name, exitedWithError: r.code !== null && r.code !== 0, answered: r.answered, named: r.output.includes("RING_CLIENT_SECRET") }).toEqual({
        name,
        exitedWithError: true,
        answered: false,
        named: true,
      });
    }
    await a.start();
    // The demo secret outside demo mode is not a key: a delete signed with it is refused.
    const pid = serverPid(a.pid!);
    const docs = db!.prepare(`SELECT documentId FROM daily_sleep WHERE userId = ? ORDER BY day DESC LIMIT 3`).pluck().all(ownerId) as string[];
    const [still, gone] = docs as [string, string];
    const notify = (objectId: string, secret: string) => {
      const body = JSON.stringify({
        event_type: "delete",
        data_type: "daily_sleep",
        object_id: objectId,
        event_time: clock.date().toISOString(),
        user_id: ownerRing,
      });
      const ts = String(Math.floor(clock.now() / 1000));
      return a.request("/api/webhooks/ring", {
        method: "POST",
        headers: { "content-type": "application/json", "x-oura-timestamp": ts, "x-oura-signature": signWebhook(secret, ts, body) },
        body,
      });
    };
    expect(await expectRefusal("delete signed with the public demo secret", notify(still, "ringside-demo-secret"))).toBe(401);
    // Validly signed, but the document still exists at the service: nothing is deleted.
    const stored = (id: string) =>
      (db!.prepare(`SELECT COUNT(*) AS n FROM daily_sleep WHERE userId = ? AND documentId = ?`).get(ownerId, id) as { n: number }).n;
    const settled = (id: string) =>
      db!.prepare(`SELECT status FROM webhook_event WHERE objectId = ? AND eventType = 'delete'`).pluck().get(id) as string | undefined;
    const r1 = await notify(still, CHAOS_CLIENT.client_secret);
    expect(r1.status).toBe(200);
    await waitFor("the forged delete settled", () => settled(still) && settled(still) !== "queued", { timeoutMs: 30_000 });
    expect({ still: stored(still), status: settled(still) }).toEqual({ still: 1, status: "ignored" });
    // Deleted at the service: the same notification deletes it.
    await emu.deleteDocument(ownerRing, "daily_sleep", gone);
    const r2 = await notify(gone, CHAOS_CLIENT.client_secret);
    expect(r2.status).toBe(200);
    await waitFor("the genuine delete", () => stored(gone) === 0, { timeoutMs: 30_000 });
    const fetched = (await emu.requests({ kind: "data" }))
      .filter((r) => r.path.endsWith(`/daily_sleep/${still}`) || r.path.endsWith(`/daily_sleep/${gone}`))
      .map((r) => r.status);
    await healthy(a, pid);
    figures.secrets = {
      starts,
      forgedDelete: { stored: stored(still), status: settled(still) },
      genuineDelete: { stored: stored(gone) },
      documentFetches: fetched,
    };
  });

  it("5 revoke: disconnect hands back the refresh token as well as the access token", async () => {
    const a = await mainApp();
    const email = `leaver-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const { browser } = await connect(email);
    const ringId = (db!.prepare(`SELECT ringUserId FROM "User" WHERE email = ?`).get(email) as { ringUserId: string }).ringUserId;
    const st = emu.running.emulator.state;
    const live = () => ({
      access: [...st.accessTokens.values()].filter((t) => t.userId === ringId && !t.revoked),
      refresh: [...st.refreshTokens.values()].filter((t) => t.userId === ringId && !t.revoked && t.usedAt === null),
    });
    const { access, refresh } = live();
    expect(access.length).toBeGreaterThan(0);
    expect(refresh.length).toBeGreaterThan(0);
    await emu.clearRequests();
    const disconnect = builtServerActions().find((x) => x.name === "disconnectRing")!;
    const out = await callAction(browser, { id: disconnect.id, page: pagePath(disconnect.pages[0]!), args: [{ form: [["data", "keep"]] }] });
    expect(out.status).toBeLessThan(400);
    const revokes = await waitFor(
      "two revocations",
      async () => {
        const r = await emu.requests({ kind: "revoke" });
        return r.length >= 2 ? r : null;
      },
      { timeoutMs: 15_000 },
    );
    const revoked = new Set(revokes.filter((r) => r.status === 200).map((r) => r.token_fingerprint));
    const result = {
      accessRevoked: access.every((t) => revoked.has(tokenFingerprint(t.value))),
      refreshRevoked: refresh.every((t) => revoked.has(tokenFingerprint(t.value))),
      liveAfter: live().access.length + live().refresh.length,
    };
    expect(result).toEqual({ accessRevoked: true, refreshRevoked: true, liveAfter: 0 });
    // And the service refuses the refresh token now.
    const refreshed = await fetch(`${EMULATOR_URL}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${CHAOS_CLIENT.client_id}:${CHAOS_CLIENT.client_secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh[0]!.value }),
    });
    expect(refreshed.status).toBe(400);
    await refreshed.arrayBuffer();
    figures.revoke = { revokeRequests: revokes.length, statuses: revokes.map((r) => r.status), ...result, refreshAfter: refreshed.status };
    await a.request("/api/health");
  });

  it("6 owner: on a fresh instance the first connect needs the setup code from the log; /setup shows configuration to the owner only", async () => {
    db?.close();
    db = undefined;
    await app?.stop();
    app = await startProdApp({ name: "hardening-owner", env: { ALLOWED_EMAILS: undefined } });
    const a = app;
    const fresh = openAppDb(a.dbFile);
    try {
      // Printed in the server log at start, kept in the data directory readable by the app's user only.
      const logged = await waitFor("the setup code in the log", () => /setup code ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(a.logs())?.[1], {
        timeoutMs: 10_000,
      });
      const file = path.join(a.dataDir, "setup-code");
      expect((fs.statSync(file).mode & 0o777).toString(8)).toBe("600");
      expect(fs.readFileSync(file, "utf8").trim()).toBe(logged.replaceAll("-", ""));
      // Before an owner: /setup without service addresses, variable checks or counts.
      const anon = await (await a.request("/setup")).text();
      const leaks = (html: string) =>
        [EMULATOR_URL, "/oauth/token", "/oauth/revoke", "address(es)", "setup-check-", "RING_SCOPES"].filter((s) => html.includes(s));
      expect(leaks(anon)).toEqual([]);
      expect(anon).toContain("/api/auth/callback/ring");
      const rows = () =>
        (
          fresh.prepare(`SELECT (SELECT COUNT(*) FROM "User") + (SELECT COUNT(*) FROM "Account") + (SELECT COUNT(*) FROM "Session") AS n`).get() as {
            n: number;
          }
        ).n;

      const signInPage = builtServerActions().find((x) => x.name === "connectRing")!;
      /** Sign-in page → "Connect your ring" (with the code typed, or none) → consent → back. */
      const attempt = async (email: string, code: string | null) => {
        const { user_id: ringId } = await emu.createUser(email);
        const browser = new Browser();
        const r = await callAction(browser, { id: signInPage.id, page: "/sign-in", args: [{ form: code === null ? [] : [["setupCode", code]] }] });
        const to = r.redirect?.split(";")[0] ?? "";
        expect(to).toMatch(/\/oauth\/authorize\?/);
        const callback = await consent(new URL(to), email);
        return { browser, landed: await finishConnect(browser, callback), ringId };
      };
      const outcomes: Record<string, string> = {};
      for (const [what, code] of [
        ["no code", null],
        ["a wrong code", "AAAA-BBBB-CCCC"],
        ["the code of another instance", "ZZZZ-2222-YYYY"],
      ] as const) {
        const email = `first-${crypto.randomBytes(3).toString("hex")}@example.test`;
        const { landed, ringId } = await attempt(email, code);
        outcomes[what] = `${landed.pathname}?${landed.searchParams.toString()}`;
        expect({ what, landed: landed.pathname, error: landed.searchParams.get("error") }).toEqual({
          what,
          landed: "/sign-in/error",
          error: code === null ? "setup_code_required" : "setup_code_invalid",
        });
        expect(rows()).toBe(0);
        // The access they just granted went back to the service.
        const revokes = (await emu.requests({ kind: "revoke" })).filter((r) => r.user_id === ringId && r.status === 200);
        expect(revokes.length).toBeGreaterThan(0);
      }
      expect(fs.existsSync(file)).toBe(true);
      // With the code (typed as people type it): the owner; the code is used up.
      const ownerEmail = `first-owner-${crypto.randomBytes(3).toString("hex")}@example.test`;
      const { browser: ownerBrowser, landed } = await attempt(ownerEmail, ` ${logged.toLowerCase()} `);
      expect(landed.pathname).toBe("/");
      expect(fresh.prepare(`SELECT role FROM "User" WHERE email = ?`).pluck().get(ownerEmail)).toBe("owner");
      expect(fs.existsSync(file)).toBe(false);
      outcomes["the code from the log"] = landed.pathname;
      // Once there is an owner: only the owner sees the configuration.
      const afterAnon = await (await a.request("/setup")).text();
      expect(leaks(afterAnon)).toEqual([]);
      expect(afterAnon).not.toContain("/api/auth/callback/ring");
      const asOwner = await (await ownerBrowser.fetch("/setup")).text();
      expect(asOwner).toContain("setup-check-RING_CLIENT_SECRET");
      expect(asOwner).toContain(EMULATOR_URL);
      // A second person still needs an invite (the code is gone).
      const stranger = await attempt(`second-${crypto.randomBytes(3).toString("hex")}@example.test`, logged);
      expect(stranger.landed.searchParams.get("error")).toBe("not_invited");
      expect((fresh.prepare(`SELECT COUNT(*) AS n FROM "User"`).get() as { n: number }).n).toBe(1);
      figures.owner = { codeInLog: true, fileMode: "600", refused: outcomes, anonymousSetupLeaks: 0, ownerSeesChecks: true };
    } finally {
      fresh.close();
    }
  });

  it("7 hsts: Strict-Transport-Security over https (proxy's X-Forwarded-Proto, or a configured https address), never over plain http", async () => {
    // Any instance configured without an https address (the one of case 6 when it ran).
    app ??= await startProdApp({ name: "hardening-plain", env: { ALLOWED_EMAILS: undefined } });
    const a = app;
    const paths = [
      "/",
      "/sign-in",
      "/setup",
      "/api/health",
      "/api/me",
      "/api/webhooks/ring?verification_token=x&challenge=y",
      "/_next/static/none.js",
      "/no-such-page",
    ];
    const hsts = async (base: ProdApp, p: string, headers: Record<string, string> = {}) => {
      const res = await base.request(p, { headers });
      await res.arrayBuffer();
      return res.headers.get("strict-transport-security");
    };
    const seen: Record<string, number> = {};
    for (const p of paths) {
      expect({ p, plain: await hsts(a, p) }).toEqual({ p, plain: null });
      expect({ p, forwardedHttp: await hsts(a, p, { "x-forwarded-proto": "http" }) }).toEqual({ p, forwardedHttp: null });
      expect({ p, forwardedHttps: await hsts(a, p, { "x-forwarded-proto": "https" }) }).toEqual({
        p,
        forwardedHttps: expect.stringMatching(/^max-age=\d{7,}/),
      });
    }
    seen.plainHttp = 0;
    seen.behindHttpsProxy = paths.length;
    await a.stop();
    // Configured https address (AUTH_URL), requests without X-Forwarded-Proto: pages and API answers.
    app = await startProdApp({ name: "hardening-https", env: { AUTH_URL: `https://localhost:${APP_PORT}`, PUBLIC_URL: `https://localhost:${APP_PORT}` } });
    const configured = ["/", "/sign-in", "/setup", "/api/health", "/api/me", "/no-such-page", "/api/days/%"];
    for (const p of configured) expect({ p, configuredHttps: await hsts(app, p) }).toEqual({ p, configuredHttps: expect.stringMatching(/^max-age=\d{7,}/) });
    seen.configuredHttps = configured.length;
    figures.hsts = seen;
    recordFigures("hardening", { ...figures, tally });
  });
});
