import "server-only";
import mqtt, { type MqttClient } from "mqtt";
import { clock, type Clock } from "@/lib/clock";
import { backoffDelay } from "@/lib/limits/backoff";
import { logger } from "@/lib/log";

// The broker's connection (MQTT.js), kept up on our own terms: a broker outage is not Ringside's.
// - Each connection is a client of its own, made when the last one closed, after a backoff of
//   0.5 s doubling to 5 s (with jitter): MQTT.js's own reconnection (a fixed period) is off.
// - Nothing is queued while the broker is away: a publish without a connection answers false at
//   once, and a closed client is ended with what it held (MQTT.js's offline queue and its store of
//   messages in flight), so memory holds at most what is in flight on one connection. The caller
//   publishes the current state again on the next connection (`onConnect`).
// - The last will ("offline", retained) is the broker's to send when the connection is lost.
// Logs say when the broker is reached and lost, once per outage, never a message's content.

export type BrokerSettings = { url: string; username?: string; password?: string; clientId: string };

export type BrokerConnectionOptions = BrokerSettings & {
  will: { topic: string; payload: string };
  /** the connection is up: subscribe, say "online", publish everything (a publish may already fail again) */
  onConnect: () => Promise<void>;
  onMessage: (topic: string, payload: string) => void;
  /** the connection is gone (the next one is on its way) */
  onDisconnect: () => void;
  clock?: Clock;
};

/** Messages longer than this are not read (a button press or Home Assistant's status are a few bytes). */
const MAX_INCOMING_BYTES = 1024;

export class BrokerConnection {
  private client: MqttClient | null = null;
  private readonly stopped = new AbortController();
  private done: Promise<void> | null = null;
  private readonly clock: Clock;

  constructor(private readonly opts: BrokerConnectionOptions) {
    this.clock = opts.clock ?? clock;
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** Connects, and keeps connecting after every loss, until stop(). */
  start(): void {
    this.done ??= this.loop();
  }

  /** Publishes one message (QoS 1); false when there is no connection or the broker did not take it. */
  async publish(topic: string, payload: string, opts: { retain: boolean }): Promise<boolean> {
    const c = this.client;
    if (!c?.connected) return false;
    try {
      await c.publishAsync(topic, payload, { qos: 1, retain: opts.retain });
      return true;
    } catch {
      return false;
    }
  }

  async subscribe(topics: string[]): Promise<boolean> {
    const c = this.client;
    if (!c?.connected) return false;
    try {
      await c.subscribeAsync(topics, { qos: 1 });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Ends the connection for good. With `farewell` that message is published first (the process
   * stops: "offline"); without it the connection ends cleanly, so the broker drops the last will
   * (another process takes over and has said "online").
   */
  async stop(farewell?: { topic: string; payload: string }): Promise<void> {
    const c = this.client;
    if (c?.connected && farewell) await this.publish(farewell.topic, farewell.payload, { retain: true });
    this.stopped.abort();
    if (c) await c.endAsync(false).catch(() => undefined);
    await this.done;
  }

  private async loop(): Promise<void> {
    let attempt = 0;
    let reached = false;
    let lossLogged = false;
    while (!this.stopped.signal.aborted) {
      // the address given apart (MQTT.js would parse a URL string with the deprecated url.parse)
      const c = mqtt.connect({
        ...brokerAddress(this.opts.url),
        clientId: this.opts.clientId,
        username: this.opts.username,
        password: this.opts.password,
        clean: true,
        keepalive: 30,
        connectTimeout: 10_000,
        reconnectPeriod: 0,
        queueQoSZero: false,
        resubscribe: false,
        timerVariant: "native",
        will: { topic: this.opts.will.topic, payload: Buffer.from(this.opts.will.payload), qos: 1, retain: true },
      });
      let lastError: string | undefined;
      c.on("error", (err: Error & { code?: string | number }) => {
        lastError = typeof err.code === "string" || typeof err.code === "number" ? String(err.code) : err.name;
      });
      c.on("message", (topic, payload) => {
        if (payload.length <= MAX_INCOMING_BYTES) this.opts.onMessage(topic, payload.toString("utf8"));
      });
      const closed = new Promise<void>((resolve) => c.once("close", () => resolve()));
      const connected = await Promise.race([new Promise<boolean>((resolve) => c.once("connect", () => resolve(true))), closed.then(() => false)]);
      if (connected && !this.stopped.signal.aborted) {
        this.client = c;
        attempt = 0;
        lossLogged = false;
        logger.info({ broker: hostOf(this.opts.url), again: reached }, "home assistant: connected to the MQTT broker");
        reached = true;
        try {
          await this.opts.onConnect();
        } catch (err) {
          logger.warn({ err: err instanceof Error ? err.name : "error" }, "home assistant: publishing after the connection failed");
        }
        await closed;
        this.client = null;
        this.opts.onDisconnect();
      }
      // what the closed client still held goes with it
      await c.endAsync(true).catch(() => undefined);
      if (this.stopped.signal.aborted) break;
      if (!lossLogged) {
        logger.warn(
          { broker: hostOf(this.opts.url), error: lastError ?? null },
          reached ? "home assistant: the MQTT broker is gone, reconnecting" : "home assistant: cannot reach the MQTT broker, retrying",
        );
        lossLogged = true;
      }
      await this.clock.sleep(backoffDelay(attempt++, { baseMs: 500, maxMs: 5_000 }), this.stopped.signal).catch(() => undefined);
    }
  }
}

/** The broker's protocol, host and port (mqtt:// 1883, mqtts:// 8883 by default). */
export function brokerAddress(url: string): { protocol: "mqtt" | "mqtts"; host: string; port: number } {
  const u = new URL(url);
  const protocol = u.protocol === "mqtts:" ? "mqtts" : "mqtt";
  return { protocol, host: u.hostname.replace(/^\[(.*)\]$/, "$1"), port: u.port ? Number(u.port) : protocol === "mqtts" ? 8883 : 1883 };
}

/** The broker's host and port, for the log (the URL carries no login: lib/env.mjs). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "?";
  }
}
