import { describe, expect, it } from "vitest";
import { CYCLE_DATA_KIND, DATA_KINDS, type DataKind } from "@/lib/auth/api-scopes";
import { discoveryMessages, entityConfig, personLabel, retractionMessages, uniqueIdOf } from "@/lib/home-assistant/discovery";
import { ENTITIES, entitiesFor, metricsOf, signalsOf, stateDocument, type HomeAssistantSnapshot } from "@/lib/home-assistant/entities";
import { configTopic, nodeIdOf, nodeOfSyncCommand, stateTopic, syncCommandTopic } from "@/lib/home-assistant/topics";
import { discoveryProblems } from "@/lib/test/home-assistant";

const T = { baseTopic: "ringside", discoveryPrefix: "homeassistant" };
const ALL = new Set<DataKind>(DATA_KINDS);
const WITHOUT_CYCLE = new Set<DataKind>(DATA_KINDS.filter((k) => k !== CYCLE_DATA_KIND));

const snapshot: HomeAssistantSnapshot = {
  metrics: { "sleep.score": { value: 81, day: "2026-03-01" }, "night.total_sleep_duration": { value: 27_000, day: "2026-03-01" } },
  earlyWarning: { day: "2026-03-01", level: "watch", flagged: ["resting_heart_rate"] },
  sleepDebt: null,
  battery: { level: 18, charging: false, inCharger: false, at: "2026-03-01T07:00:00.000Z", freshUntil: "2026-03-01T10:00:00.000Z" },
  bedtime: { day: "2026-03-01", start: "2026-03-01T22:15:00+01:00", end: null },
  lastSyncAt: "2026-03-01T08:00:00.000Z",
  cycle: { day: "2026-03-01", cycleDay: 12, phase: "follicular" },
};

describe("the device's entities", () => {
  it("has the entities the issue lists, each object id once", () => {
    const objects = ENTITIES.map((e) => e.object);
    expect(new Set(objects).size).toBe(objects.length);
    expect(objects).toEqual(
      expect.arrayContaining([
        "readiness",
        "sleep_score",
        "activity_score",
        "lowest_heart_rate",
        "hrv",
        "breathing_rate",
        "temperature_deviation",
        "sleep_duration",
        "sleep_efficiency",
        "steps",
        "active_calories",
        "early_warning",
        "sleep_debt",
        "battery",
        "charging",
        "bedtime_start",
        "bedtime_end",
        "last_sync",
        "sync",
        "cycle_day",
        "cycle_phase",
      ]),
    );
  });

  it("publishes only the kinds chosen; the cycle's entities only with the cycle kind and while tracking", () => {
    const objects = (kinds: Set<DataKind>, tracking: boolean) => entitiesFor(kinds, tracking).map((e) => e.object);
    expect(objects(ALL, true)).toEqual(expect.arrayContaining(["cycle_day", "cycle_phase"]));
    expect(objects(ALL, false)).not.toContain("cycle_day");
    expect(objects(WITHOUT_CYCLE, true)).not.toContain("cycle_phase");
    // with the battery kind alone: the battery, charging, and what needs no kind (last sync, the button)
    expect(objects(new Set<DataKind>(["ring_battery_level"]), true).sort()).toEqual(["battery", "charging", "last_sync", "sync"]);
    // what is read follows: no metric of an unchosen kind, no signal without its kinds
    expect(metricsOf(entitiesFor(new Set<DataKind>(["daily_sleep"]), false))).toEqual(["sleep.score"]);
    expect(signalsOf(entitiesFor(new Set<DataKind>(["sleep", "daily_readiness"]), false))).toEqual(["sleep_debt"]);
  });

  it("the state document holds only the published entities, null where there is nothing (unknown in Home Assistant)", () => {
    const doc = stateDocument(entitiesFor(new Set<DataKind>(["daily_sleep", "sleep", "ring_battery_level"]), false), snapshot);
    expect(Object.keys(doc).sort()).toEqual(
      ["battery", "breathing_rate", "charging", "hrv", "last_sync", "lowest_heart_rate", "sleep_duration", "sleep_efficiency", "sleep_score"].sort(),
    );
    expect(doc.sleep_score).toEqual({ value: 81, attributes: { day: "2026-03-01" } });
    expect(doc.sleep_duration?.value).toBe(7.5);
    expect(doc.hrv?.value).toBeNull();
    expect(doc.charging?.value).toBe("OFF");
    expect(doc).not.toHaveProperty("cycle_phase");
    const withCycle = stateDocument(entitiesFor(ALL, true), snapshot);
    expect(withCycle.cycle_phase?.value).toBe("follicular");
    expect(withCycle.early_warning).toEqual({ value: "watch", attributes: { day: "2026-03-01", flagged: ["resting_heart_rate"] } });
  });
});

describe("discovery", () => {
  const node = nodeIdOf("person-1");

  it("every config is valid for Home Assistant's platform: required keys, the device block, availability, classes and units", () => {
    for (const m of discoveryMessages(T, { node, name: "Anna" }, entitiesFor(ALL, true))) {
      expect(m.payload, m.topic).not.toBe("");
      expect(discoveryProblems("homeassistant", m.topic, m.payload), m.topic).toEqual([]);
    }
  });

  it("the schema check refuses what Home Assistant refuses", () => {
    const sleep = ENTITIES.find((e) => e.object === "sleep_score")!;
    const good = entityConfig(T, { node, name: "Anna" }, sleep);
    const topic = configTopic(T, "sensor", node, "sleep_score");
    const problems = (patch: Record<string, unknown>) => discoveryProblems("homeassistant", topic, JSON.stringify({ ...good, ...patch }));
    expect(problems({})).toEqual([]);
    expect(problems({ state_topic: undefined })).toContain("required key missing: state_topic");
    expect(problems({ device: { name: "x" } })).toContain("device: identifiers or connections required");
    expect(problems({ availability: undefined })).toContain("no availability");
    expect(problems({ device_class: "enum" })).toContain("an enum sensor needs options");
    expect(problems({ device_class: "battery", unit_of_measurement: "V" })).toContain("unit V is not valid with device_class battery");
    expect(problems({ device_class: "timestamp" })).toContain("a timestamp sensor takes no state_class");
    expect(problems({ colour: "red" })).toContain("extra key not allowed: colour");
    expect(discoveryProblems("homeassistant", "homeassistant/sensor/a b/x/config", JSON.stringify(good))).not.toEqual([]);
  });

  it("unique ids come from the person's id alone: the same after a rename, different for another person", () => {
    const entities = entitiesFor(ALL, true);
    const ids = (name: string, userId = "person-1") =>
      discoveryMessages(T, { node: nodeIdOf(userId), name }, entities).map((m) =>
        m.payload ? (JSON.parse(m.payload) as { unique_id: string }).unique_id : null,
      );
    expect(ids("Anna")).toEqual(ids("Anna Maria"));
    expect(ids("Anna")).not.toEqual(ids("Anna", "person-2"));
    expect(uniqueIdOf(node, "sleep_score")).toBe(`ringside_${node}_sleep_score`);
    expect(node).toMatch(/^rs_[0-9a-f]{16}$/);
    expect(node).not.toContain("person-1");
    const device = JSON.parse(discoveryMessages(T, { node, name: "Anna" }, entities)[0]!.payload) as { device: { name: string } };
    expect(device.device.name).toBe("Ringside — Anna");
  });

  it("an entity not published is an empty retained config (it disappears); a retraction empties every config and the state", () => {
    const msgs = discoveryMessages(T, { node, name: "Anna" }, entitiesFor(WITHOUT_CYCLE, true));
    const byTopic = new Map(msgs.map((m) => [m.topic, m.payload]));
    expect(byTopic.get(configTopic(T, "sensor", node, "cycle_phase"))).toBe("");
    expect(byTopic.get(configTopic(T, "sensor", node, "sleep_score"))).not.toBe("");
    const gone = retractionMessages(T, node);
    expect(gone.every((m) => m.payload === "")).toBe(true);
    expect(gone.map((m) => m.topic)).toEqual([...msgs.map((m) => m.topic), stateTopic(T, node)]);
  });

  it("names the device after the person, never empty", () => {
    expect(personLabel("Anna", "a@x.test")).toBe("Anna");
    expect(personLabel(null, "bob@x.test")).toBe("bob");
    expect(personLabel("  ", null)).toBe("person");
  });

  it("reads a button press's node only from its own topic", () => {
    expect(nodeOfSyncCommand(T, syncCommandTopic(T, node))).toBe(node);
    expect(nodeOfSyncCommand(T, `ringside/${node}/state`)).toBeNull();
    expect(nodeOfSyncCommand(T, "ringside/../sync/press")).toBeNull();
    expect(nodeOfSyncCommand({ ...T, baseTopic: "home/ringside" }, `home/ringside/${node}/sync/press`)).toBe(node);
  });
});
