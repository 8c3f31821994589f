// Test support: a subscriber acting as Home Assistant on the test's broker (lib/test/mosquitto.mjs),
// and Home Assistant's MQTT discovery schema for the three platforms Ringside uses, written from
// Home Assistant's documented discovery fields (the MQTT sensor, binary sensor and button pages, and
// the discovery page's device, origin and availability blocks), to hold each config against.
import mqtt, { type MqttClient } from "mqtt";

export type Received = { topic: string; payload: string; retain: boolean; at: number };

/**
 * Subscribes to everything under the discovery prefix and the base topic. `view` is what the broker
 * holds for a newcomer plus what arrived since (an empty payload removes a topic). Waits are
 * event-driven: each arriving message looks at the condition again; the deadline only stops a hang.
 */
export class FakeHomeAssistant {
  readonly view = new Map<string, string>();
  readonly received: Received[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly client: MqttClient,
    readonly prefix: string,
  ) {
    client.on("message", (topic, payload, packet) => {
      const text = payload.toString("utf8");
      this.received.push({ topic, payload: text, retain: packet.retain, at: performance.now() });
      if (text === "") this.view.delete(topic);
      else this.view.set(topic, text);
      for (const w of [...this.waiters]) w();
    });
  }

  static async connect(url: string, topics: { baseTopic: string; discoveryPrefix: string }): Promise<FakeHomeAssistant> {
    const client = await mqtt.connectAsync(url, { clientId: `fake-ha-${Math.random().toString(36).slice(2, 10)}`, reconnectPeriod: 500 });
    const ha = new FakeHomeAssistant(client, topics.discoveryPrefix);
    await client.subscribeAsync([`${topics.discoveryPrefix}/#`, `${topics.baseTopic}/#`], { qos: 1 });
    return ha;
  }

  /** Resolves with the condition's first truthy value, looked at now and at each message; rejects naming `what` after the deadline. */
  until<T>(what: string, check: () => T, timeoutMs = 30_000): Promise<NonNullable<T>> {
    return new Promise((resolve, reject) => {
      const look = () => {
        let v: T;
        try {
          v = check();
        } catch (err) {
          done();
          reject(err as Error);
          return;
        }
        if (v) {
          done();
          resolve(v as NonNullable<T>);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`never happened: ${what}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(look);
      };
      this.waiters.add(look);
      look();
    });
  }

  /** Messages received from index `from` on. */
  since(from: number): Received[] {
    return this.received.slice(from);
  }

  /** The configs the view holds under the prefix for one node, by object id. */
  configsOf(node: string): Map<string, { component: string; config: Record<string, unknown> }> {
    const out = new Map<string, { component: string; config: Record<string, unknown> }>();
    for (const [topic, payload] of this.view) {
      const m = new RegExp(`^${this.prefix}/([^/]+)/${node}/([^/]+)/config$`).exec(topic);
      if (m) out.set(m[2]!, { component: m[1]!, config: JSON.parse(payload) as Record<string, unknown> });
    }
    return out;
  }

  /** Publishes as Home Assistant does (its birth message: "online" on <prefix>/status; a button press). */
  async publish(topic: string, payload: string, retain = false): Promise<void> {
    await this.client.publishAsync(topic, payload, { qos: 1, retain });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

// ---------------------------------------------------------------------------------------------
// Home Assistant's MQTT discovery schema (documented fields), for sensor, binary_sensor and button

/** Keys every MQTT entity takes in discovery. */
const COMMON = [
  "availability",
  "availability_mode",
  "availability_template",
  "availability_topic",
  "default_entity_id",
  "device",
  "enabled_by_default",
  "encoding",
  "entity_category",
  "entity_picture",
  "icon",
  "json_attributes_template",
  "json_attributes_topic",
  "name",
  "object_id",
  "origin",
  "payload_available",
  "payload_not_available",
  "platform",
  "qos",
  "unique_id",
];

const KEYS: Record<string, { required: string[]; optional: string[] }> = {
  sensor: {
    required: ["state_topic"],
    optional: [
      "device_class",
      "expire_after",
      "force_update",
      "last_reset_value_template",
      "options",
      "state_class",
      "suggested_display_precision",
      "unit_of_measurement",
      "value_template",
    ],
  },
  binary_sensor: {
    required: ["state_topic"],
    optional: ["device_class", "expire_after", "force_update", "off_delay", "payload_off", "payload_on", "value_template"],
  },
  button: { required: ["command_topic"], optional: ["command_template", "device_class", "payload_press", "retain"] },
};

const SENSOR_DEVICE_CLASSES = new Set(
  (
    "absolute_humidity apparent_power aqi area atmospheric_pressure battery blood_glucose_concentration carbon_dioxide carbon_monoxide current " +
    "data_rate data_size date distance duration energy energy_distance energy_storage enum frequency gas humidity illuminance irradiance moisture " +
    "monetary nitrogen_dioxide nitrogen_monoxide nitrous_oxide ozone ph pm1 pm10 pm25 power power_factor precipitation precipitation_intensity " +
    "pressure reactive_energy reactive_power signal_strength sound_pressure speed sulphur_dioxide temperature timestamp volatile_organic_compounds " +
    "volatile_organic_compounds_parts voltage volume volume_flow_rate volume_storage water weight wind_direction wind_speed"
  ).split(" "),
);
const BINARY_SENSOR_DEVICE_CLASSES = new Set(
  (
    "battery battery_charging carbon_monoxide cold connectivity door garage_door gas heat light lock moisture motion moving occupancy opening plug " +
    "power presence problem running safety smoke sound tamper update vibration window"
  ).split(" "),
);
const BUTTON_DEVICE_CLASSES = new Set(["identify", "restart", "update"]);
const STATE_CLASSES = new Set(["measurement", "measurement_angle", "total", "total_increasing"]);
/** Units a device class accepts (for the classes Ringside uses and the common ones). */
const DEVICE_CLASS_UNITS: Record<string, ReadonlySet<string>> = {
  battery: new Set(["%"]),
  duration: new Set(["d", "h", "min", "s", "ms", "µs"]),
  temperature: new Set(["°C", "°F", "K"]),
  humidity: new Set(["%"]),
};
/** Device classes whose state is not a number: no state class, no unit. */
const NON_NUMERIC = new Set(["date", "enum", "timestamp"]);
const DEVICE_KEYS = new Set([
  "configuration_url",
  "connections",
  "hw_version",
  "identifiers",
  "manufacturer",
  "model",
  "model_id",
  "name",
  "serial_number",
  "suggested_area",
  "sw_version",
  "via_device",
]);
const AVAILABILITY_KEYS = new Set(["topic", "payload_available", "payload_not_available", "value_template"]);
const ORIGIN_KEYS = new Set(["name", "sw_version", "support_url"]);
const ID_RE = /^[a-zA-Z0-9_-]+$/;

const isString = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/**
 * What is wrong with a discovery message (topic and payload) for Home Assistant: an empty list when
 * it would be taken. Checks the topic's form, the platform's required and known keys, the device
 * block (identifiers), availability, device and state classes, units and enum options.
 */
export function discoveryProblems(prefix: string, topic: string, payload: string): string[] {
  const problems: string[] = [];
  const m = new RegExp(`^${prefix}/([^/]+)/([^/]+)/([^/]+)/config$`).exec(topic);
  if (!m) return [`topic ${topic} is not <prefix>/<component>/<node_id>/<object_id>/config`];
  const [, component, node, object] = m as unknown as [string, string, string, string];
  if (!ID_RE.test(node) || !ID_RE.test(object)) problems.push(`node_id and object_id must be [a-zA-Z0-9_-]: ${node}/${object}`);
  const keys = KEYS[component];
  if (!keys) return [...problems, `unknown platform ${component}`];
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return [...problems, "payload is not JSON"];
  }
  if (typeof c !== "object" || c === null || Array.isArray(c)) return [...problems, "payload is not an object"];
  const known = new Set([...COMMON, ...keys.required, ...keys.optional]);
  for (const k of Object.keys(c)) if (!known.has(k)) problems.push(`extra key not allowed: ${k}`);
  for (const k of keys.required) if (!isString(c[k])) problems.push(`required key missing: ${k}`);
  for (const k of ["state_topic", "command_topic", "json_attributes_topic"]) {
    if (k in c && (!isString(c[k]) || /[#+]/.test(c[k] as string))) problems.push(`${k} must be a topic without wildcards`);
  }
  if (!isString(c.unique_id)) problems.push("unique_id is required with a device");
  if (!(c.name === null || isString(c.name))) problems.push("name must be a string or null");
  // the device block: at least identifiers or connections
  const d = c.device as Record<string, unknown> | undefined;
  if (typeof d !== "object" || d === null) problems.push("device block missing");
  else {
    for (const k of Object.keys(d)) if (!DEVICE_KEYS.has(k)) problems.push(`device: extra key not allowed: ${k}`);
    const ids = d.identifiers;
    const hasIds = isString(ids) || (Array.isArray(ids) && ids.length > 0 && ids.every(isString));
    if (!hasIds && !(Array.isArray(d.connections) && d.connections.length > 0)) problems.push("device: identifiers or connections required");
    if ("name" in d && !isString(d.name)) problems.push("device: name must be a string");
  }
  if ("origin" in c) {
    const o = c.origin as Record<string, unknown>;
    if (typeof o !== "object" || o === null || !isString(o.name)) problems.push("origin: name required");
    else for (const k of Object.keys(o)) if (!ORIGIN_KEYS.has(k)) problems.push(`origin: extra key not allowed: ${k}`);
  }
  // availability: a list of topics (not with availability_topic)
  if ("availability" in c) {
    if ("availability_topic" in c) problems.push("availability and availability_topic are exclusive");
    const a = c.availability;
    if (!Array.isArray(a) || a.length === 0) problems.push("availability must be a non-empty list");
    else
      for (const item of a) {
        const i = item as Record<string, unknown>;
        if (typeof i !== "object" || i === null || !isString(i.topic)) problems.push("availability: each entry needs a topic");
        else for (const k of Object.keys(i)) if (!AVAILABILITY_KEYS.has(k)) problems.push(`availability: extra key ${k}`);
      }
  } else if (!("availability_topic" in c)) problems.push("no availability");
  if ("entity_category" in c && !["config", "diagnostic"].includes(String(c.entity_category))) problems.push("entity_category must be config or diagnostic");
  if ("icon" in c && !/^[a-z0-9-]+:[a-z0-9-]+$/.test(String(c.icon))) problems.push("icon must be prefix:name");
  if ("qos" in c && ![0, 1, 2].includes(c.qos as number)) problems.push("qos must be 0, 1 or 2");
  // classes, units and options
  const dc = c.device_class as string | undefined;
  const classes = component === "sensor" ? SENSOR_DEVICE_CLASSES : component === "binary_sensor" ? BINARY_SENSOR_DEVICE_CLASSES : BUTTON_DEVICE_CLASSES;
  if (dc !== undefined && !classes.has(dc)) problems.push(`device_class ${dc} is not one of ${component}'s`);
  if (component === "sensor") {
    const sc = c.state_class as string | undefined;
    const unit = c.unit_of_measurement as string | undefined;
    if (sc !== undefined && !STATE_CLASSES.has(sc)) problems.push(`state_class ${sc} is not valid`);
    if (dc && NON_NUMERIC.has(dc) && sc !== undefined) problems.push(`a ${dc} sensor takes no state_class`);
    if (dc && NON_NUMERIC.has(dc) && unit !== undefined) problems.push(`a ${dc} sensor takes no unit_of_measurement`);
    if (dc && DEVICE_CLASS_UNITS[dc] && (unit === undefined || !DEVICE_CLASS_UNITS[dc].has(unit)))
      problems.push(`unit ${unit} is not valid with device_class ${dc}`);
    if ("options" in c) {
      const o = c.options;
      if (!Array.isArray(o) || o.length === 0 || !o.every(isString)) problems.push("options must be a non-empty list of strings");
      if (dc !== undefined && dc !== "enum") problems.push("options need device_class enum");
      if (sc !== undefined || unit !== undefined) problems.push("options take no state_class or unit");
    } else if (dc === "enum") problems.push("an enum sensor needs options");
    if ("suggested_display_precision" in c && !(Number.isInteger(c.suggested_display_precision) && (c.suggested_display_precision as number) >= 0))
      problems.push("suggested_display_precision must be a non-negative integer");
  }
  for (const k of ["value_template", "json_attributes_template", "command_template"]) {
    if (k in c && !isString(c[k])) problems.push(`${k} must be a template string`);
  }
  return problems;
}
