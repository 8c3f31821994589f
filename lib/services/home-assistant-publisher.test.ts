// Integration: the Home Assistant publisher against a real Mosquitto broker (lib/test/mosquitto.mjs),
// the real emulator and the database (SQLite, and PostgreSQL where its changes arrive by LISTEN),
// watched by a subscriber acting as Home Assistant. One broker for the file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CYCLE_DATA_KIND, DATA_KINDS, type DataKind } from "@/lib/auth/api-scopes";
import { addDays } from "@/lib/days";
import { TEST_TODAY, wornEmail } from "@/lib/test/emulator-kit";
import { discoveryProblems, FakeHomeAssistant } from "@/lib/test/home-assistant";
import { startMosquitto } from "@/lib/test/mosquitto.mjs";
import { sqlRun, sqlValue } from "@/lib/test/sql";
import { waitFor } from "@/lib/test/wait";
import { connectPerson, emulatorControl, emulatorDocuments, startSyncTestEnv, type ConnectedPerson, type SyncTestEnv } from "@/lib/test/sync-kit";
import type { HomeAssistantPublisher } from "@/lib/services/home-assistant-publisher";
import type { SyncEngine } from "@/lib/sync/engine";

const T = { baseTopic: "ringside", discoveryPrefix: "homeassistant" };
const ALL: DataKind[] = [...DATA_KINDS];
const WITHOUT_CYCLE: DataKind[] = DATA_KINDS.filter((k) => k !== CYCLE_DATA_KIND);

let t: SyncTestEnv;
let broker: Awaited<ReturnType<typeof startMosquitto>>;
let ha: FakeHomeAssistant;
let publisher: HomeAssistantPublisher;
let engine: SyncEngine;
let anna: ConnectedPerson;
let bob: ConnectedPerson;
let svc: typeof import("@/lib/services/home-assistant");
let topics: typeof import("@/lib/home-assistant/topics");
let entities: typeof import("@/lib/home-assistant/entities");

const node = (p: { userId: string }) => topics.nodeIdOf(p.userId);
const stateOf = (p: { userId: string }) => {
  const s = ha.view.get(topics.stateTopic(T, node(p)));
  return s ? (JSON.parse(s) as Record<string, { value: unknown; attributes?: Record<string, unknown> }>) : null;
};
const expectedCount = (kinds: DataKind[], tracking: boolean) => entities.entitiesFor(new Set(kinds), tracking).length;

/** Waits until the person's device at the broker has its `count` configs and its state. */
const deviceComplete = (p: { userId: string }, count: number, what: string) =>
  ha.until(what, () => ha.configsOf(node(p)).size === count && stateOf(p) !== null);

async function newPublisher(): Promise<HomeAssistantPublisher> {
  const { HomeAssistantPublisher } = await import("@/lib/services/home-assistant-publisher");
  const p = new HomeAssistantPublisher({ broker: { url: broker.url, clientId: null }, topics: T });
  await p.start();
  return p;
}

beforeAll(async () => {
  t = await startSyncTestEnv({ historyDays: 14 });
  broker = await startMosquitto();
  ha = await FakeHomeAssistant.connect(broker.url, T);
  svc = await import("@/lib/services/home-assistant");
  topics = await import("@/lib/home-assistant/topics");
  entities = await import("@/lib/home-assistant/entities");
  const { SyncEngine } = await import("@/lib/sync/engine");
  const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
  engine = new SyncEngine();
  anna = await connectPerson(t, { email: wornEmail("ha-anna") });
  bob = await connectPerson(t, { email: wornEmail("ha-bob") });
  await sqlRun(`UPDATE "User" SET name = ? WHERE id = ?`, "Anna", anna.userId);
  for (const p of [anna, bob]) {
    await engine.backfillUser(p.userId);
    // both track their cycle; only Anna publishes it (the cycle kind)
    await saveCycleSettings(p.userId, { tracking: true });
  }
  await svc.saveHomeAssistantSettings(anna.userId, { enabled: true, kinds: ALL });
  await svc.saveHomeAssistantSettings(bob.userId, { enabled: true, kinds: WITHOUT_CYCLE });
  publisher = await newPublisher();
}, 240_000);

afterAll(async () => {
  await publisher?.stop();
  await ha?.close();
  await broker?.stop();
  await t?.close();
});

describe("Home Assistant over MQTT (real broker)", () => {
  it("announces each person's device: every config valid for its platform, availability online, the cycle only with the cycle kind", async () => {
    await ha.until("availability online", () => ha.view.get(topics.availabilityTopic(T)) === "online");
    await deviceComplete(anna, expectedCount(ALL, true), "Anna's device");
    await deviceComplete(bob, expectedCount(WITHOUT_CYCLE, true), "Bob's device");
    for (const [topic, payload] of ha.view) {
      if (topic.endsWith("/config")) expect(discoveryProblems(T.discoveryPrefix, topic, payload), topic).toEqual([]);
    }
    const annas = ha.configsOf(node(anna));
    expect(annas.get("cycle_phase")?.config.device).toMatchObject({ name: "Ringside — Anna", identifiers: [`ringside_${node(anna)}`] });
    expect(annas.get("battery")).toMatchObject({ component: "sensor", config: { device_class: "battery", unit_of_measurement: "%" } });
    expect(annas.get("charging")).toMatchObject({ component: "binary_sensor", config: { device_class: "battery_charging" } });
    expect(annas.get("sync")).toMatchObject({ component: "button", config: { command_topic: topics.syncCommandTopic(T, node(anna)) } });
    expect(stateOf(anna)?.cycle_phase?.value).toEqual(expect.any(String));
    expect(stateOf(anna)?.sleep_score?.value).toEqual(expect.any(Number));
    // Bob tracks his cycle but did not give the cycle kind: no cycle entity, no cycle value, ever
    const bobCycle = ha.received.filter((r) => r.topic.includes(node(bob)) && /cycle/.test(r.topic) && r.payload !== "");
    expect(bobCycle).toEqual([]);
    expect(Object.keys(stateOf(bob)!).some((k) => k.startsWith("cycle"))).toBe(false);
  });

  it("a new synced night moves the sleep score's state within 5 s", async () => {
    const before = stateOf(anna)!.sleep_score!.value as number;
    const planted = before === 42 ? 43 : 42;
    // the ring's newest night arrives, and it is planted: its sleep score is `planted`
    await emulatorControl(t, "POST", `/users/${anna.ringUserId}/sync`, { day: TEST_TODAY });
    const nights = await emulatorDocuments(t, anna.ringUserId, "daily_sleep");
    const newest = nights.reduce((a, b) => (String(a.day) > String(b.day) ? a : b));
    expect(String(newest.day) >= addDays(TEST_TODAY, -1)).toBe(true);
    await emulatorControl(t, "PATCH", `/users/${anna.ringUserId}/documents/daily_sleep/${String(newest.id)}`, { score: planted });
    const moved = ha.until("the planted sleep score", () =>
      ha.received.find((r) => r.topic === topics.stateTopic(T, node(anna)) && r.payload.includes(`"sleep_score":{"value":${planted},`)),
    );
    await engine.syncUser(anna.userId);
    const synced = performance.now();
    const message = await moved;
    expect(message.at - synced).toBeLessThanOrEqual(5_000);
  });

  it("the Sync now button schedules a sync of its person, once a minute", async () => {
    const jobs = () => sqlValue(`SELECT COUNT(*) FROM job WHERE userId = ? AND status = 'queued'`, bob.userId).then(Number);
    const queued = await jobs();
    await ha.publish(topics.syncCommandTopic(T, node(bob)), "PRESS");
    await ha.publish(topics.syncCommandTopic(T, node(bob)), "PRESS");
    await ha.publish(topics.syncCommandTopic(T, "rs_0000000000000000"), "PRESS");
    await waitFor("three presses handled", () => publisher.presses.taken + publisher.presses.ignored === 3);
    expect(publisher.presses).toEqual({ taken: 1, ignored: 2 });
    expect(await jobs()).toBeGreaterThan(queued);
  });

  it("when Home Assistant says it is online, every config and state is published again", async () => {
    const from = ha.received.length;
    const wanted = [...ha.view.keys()].filter((k) => (k.includes(node(anna)) || k.includes(node(bob))) && /\/(config|state)$/.test(k));
    expect(wanted.length).toBe(expectedCount(ALL, true) + expectedCount(WITHOUT_CYCLE, true) + 2);
    await ha.publish(`${T.discoveryPrefix}/status`, "online");
    await ha.until("everything again", () => {
      const again = new Set(
        ha
          .since(from)
          .filter((r) => r.payload !== "")
          .map((r) => r.topic),
      );
      return wanted.every((k) => again.has(k));
    });
  });

  it("unique ids hold across a rename and a restart; availability goes offline and online", async () => {
    const ids = () => [...ha.configsOf(node(anna)).values()].map((c) => c.config.unique_id).sort();
    const first = ids();
    await sqlRun(`UPDATE "User" SET name = ? WHERE id = ?`, "Anna Maria", anna.userId);
    await svc.saveHomeAssistantSettings(anna.userId, { enabled: true, kinds: ALL }); // a change: the device is looked at again
    await ha.until("the new name", () => ha.configsOf(node(anna)).get("sleep_score")?.config.device);
    await ha.until("renamed", () => (ha.configsOf(node(anna)).get("sleep_score")?.config.device as { name: string }).name === "Ringside — Anna Maria");
    expect(ids()).toEqual(first);
    const from = ha.received.length;
    await publisher.stop();
    await ha.until("offline", () => ha.view.get(topics.availabilityTopic(T)) === "offline");
    publisher = await newPublisher();
    await ha.until("online again", () => ha.since(from).some((r) => r.topic === topics.availabilityTopic(T) && r.payload === "online"));
    await ha.until("configs again", () => ha.since(from).filter((r) => r.topic.includes(node(anna)) && r.topic.endsWith("/config")).length >= first.length);
    expect(ids()).toEqual(first);
  });

  it("turning it off empties every retained config and the state of that person, and only theirs", async () => {
    await svc.saveHomeAssistantSettings(bob.userId, { enabled: false, kinds: [] });
    await ha.until("Bob's device emptied", () => ha.configsOf(node(bob)).size === 0 && stateOf(bob) === null);
    expect((await svc.getHomeAssistantSettings(bob.userId)).kinds).toEqual(WITHOUT_CYCLE);
    expect(ha.configsOf(node(anna)).size).toBe(expectedCount(ALL, true));
    // a newcomer finds Anna's retained device and nothing of Bob's
    const newcomer = await FakeHomeAssistant.connect(broker.url, T);
    try {
      await newcomer.until("Anna's retained device", () => newcomer.configsOf(node(anna)).size === expectedCount(ALL, true));
      expect([...newcomer.view.keys()].filter((k) => k.includes(node(bob)))).toEqual([]);
    } finally {
      await newcomer.close();
    }
    await waitFor("the retraction done", async () => Number(await sqlValue(`SELECT COUNT(*) FROM home_assistant_retraction`)) === 0);
  });

  it("'Delete all my data' and a member's removal empty the device", async () => {
    const { deleteAllMyData } = await import("@/lib/services/people");
    const { removeMember } = await import("@/lib/services/household");
    const now = new Date().toISOString();
    await sqlRun(
      `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
      "carl",
      "carl@example.test",
      now,
      now,
    );
    await svc.saveHomeAssistantSettings("carl", { enabled: true, kinds: ["daily_sleep"] });
    await deviceComplete({ userId: "carl" }, expectedCount(["daily_sleep"], false), "Carl's device");
    await removeMember(anna.userId, "carl");
    await ha.until("Carl's device emptied", () => ha.configsOf(node({ userId: "carl" })).size === 0 && stateOf({ userId: "carl" }) === null);

    await deleteAllMyData(anna.userId);
    await ha.until("Anna's device emptied", () => ha.configsOf(node(anna)).size === 0 && stateOf(anna) === null);
    expect(await svc.getHomeAssistantSettings(anna.userId)).toMatchObject({ enabled: false });
  });
});
