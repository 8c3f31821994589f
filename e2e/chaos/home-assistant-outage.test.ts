// 16. The MQTT broker away (production server, a real Mosquitto broker): Home Assistant's broker is
// someone else's service. With the broker stopped for 30 s the server answers 200, a sync goes on and
// its memory stays flat (nothing queued for the broker); within 10 s of the broker's return the
// current state (the night synced during the outage) is published. A subscriber acting as Home
// Assistant watches the broker.
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { nodeIdOf, stateTopic } from "@/lib/home-assistant/topics";
import { FakeHomeAssistant } from "@/lib/test/home-assistant";
import { startMosquitto } from "@/lib/test/mosquitto.mjs";
import { openAppDb } from "./support/app-db";
import { connect } from "./support/browser";
import { startChaosEmulator } from "./support/emulator";
import { ALLOWED_DOMAIN } from "./support/env";
import { recordFigures } from "./support/figures";
import { ensureBuild, rssMb, serverPid, startProdApp } from "./support/prod-app";
import { until } from "./support/processes";

const T = { baseTopic: "ringside", discoveryPrefix: "homeassistant" };
/** How long the broker stays stopped: the 30 s, in both forms of the suite. */
const OUTAGE_MS = 30_000;
/** The state must be at the broker this soon after it is back. */
const BACK_MS = 10_000;
/** "Flat": the server's resident memory at the outage's end against the same load's with the broker there. */
const MEMORY_GROWTH_LIMIT_MB = 20;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("[CHAOS 16] the MQTT broker away", () => {
  it(
    `broker stopped for ${OUTAGE_MS / 1000} s: requests answer 200, the sync goes on, memory stays flat; within ${BACK_MS / 1000} s of its return the current state is published`,
    { timeout: 300_000 },
    async () => {
      ensureBuild();
      const figures: Record<string, unknown> = {};
      const broker = await startMosquitto();
      cleanups.push(() => broker.stop());
      const ha = await FakeHomeAssistant.connect(broker.url, T);
      cleanups.push(() => ha.close());
      const emu = await startChaosEmulator({ pageSize: 50, historyDays: 14 });
      cleanups.push(() => emu.close());
      const app = await startProdApp({ name: "home-assistant-outage", env: { MQTT_URL: broker.url } });
      cleanups.push(() => app.stop());

      // a person, backfilled, who publishes to Home Assistant (the Settings form is the browser spec's:
      // here the row is written, and "Sync now" is the change the server hears)
      const email = `mqtt-${Date.now().toString(36)}@${ALLOWED_DOMAIN}`;
      const ring = await emu.createUser(email, { history_days: 14 });
      const { browser } = await connect(email);
      const db = openAppDb(app.dbFile);
      cleanups.push(() => void db.close());
      const userId = (db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ring.user_id) as { id: string }).id;
      await until(
        "the backfill is done",
        () =>
          (
            db
              .prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NULL AND collection <> 'daily_cycle_phases'`)
              .get(userId) as { n: number }
          ).n === 0,
        120_000,
      );
      const now = new Date().toISOString();
      const writer = new Database(app.dbFile);
      try {
        writer.pragma("busy_timeout = 5000");
        writer
          .prepare(`INSERT INTO home_assistant_publish (userId, enabled, kinds, createdAt, updatedAt) VALUES (?, 1, ?, ?, ?)`)
          .run(userId, JSON.stringify(["daily_sleep", "ring_battery_level"]), now, now);
      } finally {
        writer.close();
      }
      expect((await browser.fetch("/api/sync", { method: "POST" })).status).toBe(202);
      const node = nodeIdOf(userId);
      const state = stateTopic(T, node);
      await ha.until("the device at the broker", () => ha.configsOf(node).size > 0 && ha.view.has(state), 60_000);

      // the same load twice, 30 s each: requests every second and a sync, first with the broker there
      // (the control: the heap grows to where the collector settles under this load, whatever its
      // cap), then with it away. "Flat" is the outage's end against the control's highest sample: what
      // the outage adds, not where the collector happens to run.
      const pages = ["/api/health", "/settings", "/api/days/latest"];
      const server = serverPid(app.pid!)!;
      for (let i = 0; i < 5; i++) for (const p of pages) expect((await browser.fetch(p)).status).toBe(200);
      const runs = () => (db.prepare(`SELECT COUNT(*) AS n FROM job WHERE userId = ? AND status IN ('done', 'failed')`).get(userId) as { n: number }).n;
      const idle = () =>
        (db.prepare(`SELECT COUNT(*) AS n FROM job WHERE userId = ? AND status IN ('queued', 'running')`).get(userId) as { n: number }).n === 0;
      const load = async (statuses: Map<string, number[]>, each: () => void = () => {}): Promise<number[]> => {
        const rss: number[] = [];
        const startedAt = performance.now();
        while (performance.now() - startedAt < OUTAGE_MS) {
          for (const p of pages) {
            const list = statuses.get(p) ?? [];
            list.push((await browser.fetch(p)).status);
            statuses.set(p, list);
          }
          each();
          rss.push(rssMb(server) ?? 0);
          await new Promise((r) => setTimeout(r, 1_000));
        }
        return rss;
      };
      const ranBefore = runs();
      expect((await browser.fetch("/api/sync", { method: "POST" })).status).toBe(202);
      const controlStatuses = new Map<string, number[]>();
      const control = await load(controlStatuses);
      await until("the control's sync", () => runs() > ranBefore && idle(), 60_000);
      expect([...controlStatuses.values()].flat().filter((x) => x !== 200)).toEqual([]);
      const rssBefore = Math.max(...control, rssMb(server)!);

      await broker.pause();
      const statuses = new Map<string, number[]>();
      const nights = await emu.documents(ring.user_id, "daily_sleep");
      const newest = nights.reduce((a, b) => (String(a.day) > String(b.day) ? a : b));
      const planted = Number(newest.score) === 42 ? 43 : 42;
      await emu.control("PATCH", `/users/${ring.user_id}/documents/daily_sleep/${String(newest.id)}`, { score: planted });
      expect((await browser.fetch("/api/sync", { method: "POST" })).status).toBe(202);
      let synced = false;
      const rss = await load(statuses, () => {
        synced ||=
          (db.prepare(`SELECT score FROM daily_sleep WHERE userId = ? AND day = ?`).get(userId, String(newest.day)) as { score: number }).score === planted;
      });
      const rssAfter = rssMb(server)!;
      figures.rssMb = { before: rssBefore, after: rssAfter, peak: Math.max(...rss) };
      expect(Object.fromEntries([...statuses].map(([p, s]) => [p, s.filter((x) => x !== 200)]))).toEqual({
        "/api/health": [],
        "/settings": [],
        "/api/days/latest": [],
      });
      expect(synced).toBe(true);
      expect(rssAfter - rssBefore).toBeLessThanOrEqual(MEMORY_GROWTH_LIMIT_MB);
      expect(app.logs()).toMatch(/the MQTT broker is gone, reconnecting/);

      // the broker returns (empty: it kept nothing): the current state, the planted night, within 10 s
      const from = ha.received.length;
      await broker.resume();
      const backAt = performance.now();
      const published = await ha.until(
        "the current state after the broker's return",
        () =>
          ha
            .since(from)
            .find((r) => r.topic === state && (JSON.parse(r.payload || "{}") as { sleep_score?: { value: unknown } }).sleep_score?.value === planted),
        BACK_MS + 20_000,
      );
      figures.publishedAfterReturnMs = Math.round(published.at - backAt);
      recordFigures("home-assistant-outage", figures);
      expect(published.at - backAt).toBeLessThanOrEqual(BACK_MS);
      expect(ha.view.get(`${T.baseTopic}/status`)).toBe("online");
    },
  );
});
