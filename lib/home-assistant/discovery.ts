import { ENTITIES, type EntityDef } from "@/lib/home-assistant/entities";
import { availabilityTopic, configTopic, stateTopic, syncCommandTopic, type Topics } from "@/lib/home-assistant/topics";

// Home Assistant's MQTT discovery: one retained config message per entity of a person's device
// (docs/home-automation.md#home-assistant-over-mqtt). An entity the person does not publish (a
// kind not chosen, the cycle while not tracking) gets an empty retained config, which removes it
// from Home Assistant; so does every entity of a device that is retracted. Pure.

/** One message to the broker: retained, an empty payload removing what was retained there. */
export type RetainedMessage = { topic: string; payload: string };

export type DeviceOf = { node: string; name: string };

/** The device's name in Home Assistant. */
export const deviceName = (personName: string) => `Ringside — ${personName}`;

/** The person's name as the device shows it: their name, else their e-mail's local part, else "person". */
export function personLabel(name: string | null, email: string | null): string {
  const n = name?.trim() || email?.split("@")[0]?.trim() || "person";
  return n.length > 64 ? `${n.slice(0, 63)}…` : n;
}

export const uniqueIdOf = (node: string, object: string) => `ringside_${node}_${object}`;

/** The discovery config of one entity (the keys of Home Assistant's MQTT platforms). */
export function entityConfig(t: Topics, device: DeviceOf, e: EntityDef): Record<string, unknown> {
  const state = stateTopic(t, device.node);
  const config: Record<string, unknown> = {
    name: e.name,
    unique_id: uniqueIdOf(device.node, e.object),
    availability: [{ topic: availabilityTopic(t), payload_available: "online", payload_not_available: "offline" }],
    device: { identifiers: [`ringside_${device.node}`], name: deviceName(device.name), manufacturer: "Ringside", model: "Ring wellness data" },
    origin: { name: "Ringside" },
  };
  if (e.component === "button") {
    Object.assign(config, { command_topic: syncCommandTopic(t, device.node), payload_press: "PRESS" });
  } else {
    Object.assign(config, {
      state_topic: state,
      value_template: `{{ value_json.${e.object}.value }}`,
      json_attributes_topic: state,
      json_attributes_template: `{{ (value_json.${e.object}.attributes or {}) | tojson }}`,
    });
  }
  if (e.component === "binary_sensor") Object.assign(config, { payload_on: "ON", payload_off: "OFF" });
  if (e.deviceClass) config.device_class = e.deviceClass;
  if (e.stateClass) config.state_class = e.stateClass;
  if (e.unit) config.unit_of_measurement = e.unit;
  if (e.options) config.options = [...e.options];
  if (e.icon) config.icon = e.icon;
  if (e.diagnostic) config.entity_category = "diagnostic";
  if (e.precision !== undefined) config.suggested_display_precision = e.precision;
  return config;
}

/** Every entity's config message: the person's entities configured, the others emptied. */
export function discoveryMessages(t: Topics, device: DeviceOf, published: readonly EntityDef[]): RetainedMessage[] {
  const on = new Set(published.map((e) => e.object));
  return ENTITIES.map((e) => ({
    topic: configTopic(t, e.component, device.node, e.object),
    payload: on.has(e.object) ? JSON.stringify(entityConfig(t, device, e)) : "",
  }));
}

/** What empties a device at the broker: every entity's config, and the retained state. */
export function retractionMessages(t: Topics, node: string): RetainedMessage[] {
  return [...ENTITIES.map((e) => ({ topic: configTopic(t, e.component, node, e.object), payload: "" })), { topic: stateTopic(t, node), payload: "" }];
}
