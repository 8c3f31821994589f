// The Home Assistant publisher's latency, the `mqtt` block of `npm run bench` (run.ts starts this in
// a process of its own; alone: node --import tsx --conditions=react-server e2e/bench/mqtt.ts).
//
// 50 people publish to a private Mosquitto broker, each their sleep score. All of them sync at once
// (every collection, as a poll does), and each brings one planted night, its score changed at the
// emulator, so each person's data version moves once. A person's latency runs from that move (its
// announcement in the process, after the commit: what the publisher hears) to the arrival of the
// state with the planted score at a subscriber acting as Home Assistant. One process does it all, as
// one `ROLE=all` server on SQLite does: the syncs, the publisher and the broker's client share it.
// Prints one line: MQTT_BENCH {"people":50,"publish_p95_ms":…,"publish_p50_ms":…,"publish_max_ms":…,"sync_wall_s":…}
import fs from "node:fs";
import { createTestDatabase } from "@/lib/test/database";
import { percentile, round } from "./stats";

const PEOPLE = Number(process.env.BENCH_MQTT_PEOPLE || 50);
const T = { baseTopic: "ringside", discoveryPrefix: "homeassistant" };

export type MqttFigures = { people: number; publish_p95_ms: number; publish_p50_ms: number; publish_max_ms: number; sync_wall_s: number };

async function main(): Promise<MqttFigures> {
  const { url, dir } = createTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: url,
    DATA_DIR: dir,
    TOKEN_ENCRYPTION_KEY: "0".repeat(63) + "1",
    AUTH_SECRET: "bench-auth-secret-0123456789abcdef",
    LOG_LEVEL: "warn",
    // the chaos suite's emulator helpers name the app in their client's redirect URI: no app listens there
    CHAOS_APP_PORT: process.env.CHAOS_APP_PORT || "9",
    CHAOS_EMULATOR_PORT: process.env.CHAOS_EMULATOR_PORT || "9",
  });
  const { startChaosEmulator } = await import("../chaos/support/emulator");
  const { useEmulatorInProcess, connectMintedPerson } = await import("../chaos/support/in-process");
  const emu = await startChaosEmulator({ port: 0, pageSize: 100, historyDays: 3 });
  useEmulatorInProcess(emu);
  const { startMosquitto } = await import("@/lib/test/mosquitto.mjs");
  const { FakeHomeAssistant } = await import("@/lib/test/home-assistant");
  const broker = await startMosquitto();
  const ha = await FakeHomeAssistant.connect(broker.url, T);
  const app = { db: await import("@/lib/test/prisma"), tokens: await import("@/lib/ring/tokens") };
  const { SyncEngine } = await import("@/lib/sync/engine");
  const { saveHomeAssistantSettings } = await import("@/lib/services/home-assistant");
  const { HomeAssistantPublisher } = await import("@/lib/services/home-assistant-publisher");
  const { watchDataChanges } = await import("@/lib/db/data-changes");
  const { nodeIdOf, stateTopic } = await import("@/lib/home-assistant/topics");
  const engine = new SyncEngine();
  let publisher: InstanceType<typeof HomeAssistantPublisher> | null = null;
  try {
    const people: Array<Awaited<ReturnType<typeof connectMintedPerson>>> = [];
    for (let i = 0; i < PEOPLE; i++) people.push(await connectMintedPerson(app, emu, { tag: `mqtt-${i}`, expiresAt: Math.floor(Date.now() / 1000) + 86_400 }));
    for (let i = 0; i < people.length; i += 5) await Promise.all(people.slice(i, i + 5).map((p) => engine.backfillUser(p.userId)));
    for (const p of people) await saveHomeAssistantSettings(p.userId, { enabled: true, kinds: ["daily_sleep"] });
    publisher = new HomeAssistantPublisher({ broker: { url: broker.url, clientId: null }, topics: T });
    await publisher.start();
    const score = (userId: string) => {
      const s = ha.view.get(stateTopic(T, nodeIdOf(userId)));
      return s ? (JSON.parse(s) as { sleep_score?: { value: number | null } }).sleep_score?.value : undefined;
    };
    await ha.until("everyone's device", () => people.every((p) => score(p.userId) !== undefined), 120_000);

    // each person's newest night gets a planted score that differs from the one published
    const planted = new Map<string, number>();
    for (const p of people) {
      const nights = await emu.documents(p.ringUserId, "daily_sleep");
      const newest = nights.reduce((a, b) => (String(a.day) > String(b.day) ? a : b));
      const value = Number(newest.score) === 42 ? 43 : 42;
      await emu.control("PATCH", `/users/${p.ringUserId}/documents/daily_sleep/${String(newest.id)}`, { score: value });
      planted.set(p.userId, value);
    }
    const moved = new Map<string, number>();
    const watch = await watchDataChanges({ onChange: (id) => id && !moved.has(id) && moved.set(id, performance.now()), onResync: () => undefined });
    const from = ha.received.length;
    const t0 = performance.now();
    await Promise.all(people.map((p) => engine.syncUser(p.userId)));
    const syncWallS = (performance.now() - t0) / 1000;
    const arrived = await ha.until(
      "every planted score at the broker",
      () => {
        const at = new Map<string, number>();
        for (const r of ha.since(from)) {
          const p = people.find((x) => r.topic === stateTopic(T, nodeIdOf(x.userId)));
          if (p && !at.has(p.userId) && r.payload.includes(`"sleep_score":{"value":${planted.get(p.userId)},`)) at.set(p.userId, r.at);
        }
        return at.size === people.length ? at : null;
      },
      120_000,
    );
    await watch.stop();
    const latencies = people.map((p) => arrived.get(p.userId)! - moved.get(p.userId)!);
    if (latencies.some((l) => !Number.isFinite(l))) throw new Error("a person's data version move was not heard");
    return {
      people: people.length,
      publish_p95_ms: round(percentile(latencies, 95), 1),
      publish_p50_ms: round(percentile(latencies, 50), 1),
      publish_max_ms: round(Math.max(...latencies), 1),
      sync_wall_s: round(syncWallS, 2),
    };
  } finally {
    await publisher?.stop();
    await ha.close();
    await broker.stop();
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (figures) => {
    process.stdout.write(`MQTT_BENCH ${JSON.stringify(figures)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`mqtt bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
