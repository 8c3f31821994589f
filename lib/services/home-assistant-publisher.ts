import "server-only";
import { createHash, randomBytes } from "node:crypto";
import os from "node:os";
import { clock, type Clock } from "@/lib/clock";
import { logger } from "@/lib/log";
import { claimLease } from "@/lib/db/queries/app-settings";
import { watchDataChanges, type DataChange, type DataChangeWatch } from "@/lib/db/data-changes";
import {
  deleteHomeAssistantRetraction,
  findPublishingPerson,
  hasHomeAssistantRetraction,
  listHomeAssistantRetractions,
  listPublishingPeople,
} from "@/lib/db/queries/home-assistant";
import { BrokerConnection, type BrokerSettings } from "@/lib/home-assistant/connection";
import { discoveryMessages, personLabel, retractionMessages, type RetainedMessage } from "@/lib/home-assistant/discovery";
import { stateDocument } from "@/lib/home-assistant/entities";
import { KeyedThrottle } from "@/lib/home-assistant/throttle";
import {
  availabilityTopic,
  homeAssistantStatusTopic,
  nodeIdOf,
  nodeOfSyncCommand,
  stateTopic,
  syncCommandFilter,
  type Topics,
} from "@/lib/home-assistant/topics";
import { getRingAccountForUser } from "@/lib/ring/tokens";
import { enqueueSyncNow } from "@/lib/sync/jobs";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { homeAssistantEntitiesOf, readHomeAssistantSnapshot } from "@/lib/services/home-assistant";

// The Home Assistant publisher (docs/decisions/0038-home-assistant-over-mqtt.md): one per
// installation, in a process that runs the background work, however many share the database
// (a lease). When a person's data version moves (lib/db/data-changes.ts: a trigger's notification
// on PostgreSQL, the process's own announcement on SQLite) their device is published again, at
// most once a second per person (lib/home-assistant/throttle.ts): the configs when what the device
// has changed (kinds, cycle tracking, name), the state when a value did. Nothing is published, read
// or kept while the broker is away; every (re)connection and every "online" of Home Assistant
// publishes everyone again. A person no longer publishing gets their device emptied
// (HomeAssistantRetraction rows, kept until the broker took the empty messages).

export type PublisherOptions = {
  broker: Omit<BrokerSettings, "clientId"> & { clientId: string | null };
  topics: Topics;
  clock?: Clock;
  /** a person's device is published at most this often (ms) */
  intervalMs?: number;
  /** the lease that makes the publisher one per installation (ms; renewed at a third of it) */
  leaseTtlMs?: number;
  /** a device's "Sync now" is taken at most this often (ms) */
  syncPressIntervalMs?: number;
};

export type PublisherHandle = {
  /** looks at everyone again (the database is back after an outage) */
  resync(): void;
  stop(): Promise<void>;
  /** this process holds the lease and the broker's connection is up */
  readonly connected: boolean;
};

const LEASE = "home-assistant-publisher";
/** The throttle's key of the retractions (never a person's id: those are UUIDs or cuids). */
const RETRACTIONS = "\u0000retractions";

type Published = { configKey: string; state: string };

/** Nodes whose last press is remembered (a press on any topic of the form is counted, known device or not): a bound. */
const MAX_PRESSED_NODES = 256;

const digest = (messages: readonly RetainedMessage[]) =>
  createHash("sha256")
    .update(messages.map((m) => `${m.topic}\n${m.payload}`).join("\n\n"))
    .digest("hex");

export class HomeAssistantPublisher implements PublisherHandle {
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly leaseTtlMs: number;
  private readonly syncPressIntervalMs: number;
  private readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly clientId: string;
  private readonly throttle: KeyedThrottle;
  private readonly stopped = new AbortController();
  private connection: BrokerConnection | null = null;
  private watch: DataChangeWatch | null = null;
  private leaseLoop: Promise<void> | null = null;
  /** what the broker holds of each person, on this connection */
  private readonly published = new Map<string, Published>();
  /** bumped whenever `published` is cleared: a publish in flight across a clear records nothing */
  private publishedEpoch = 0;
  /** node id → person, of everyone seen publishing (a button press names a node); the last press of each node */
  private readonly nodes = new Map<string, string>();
  private readonly lastPress = new Map<string, number>();
  /** "Sync now" presses taken and ignored (too soon, no device, no connection to the ring) */
  readonly presses = { taken: 0, ignored: 0 };

  constructor(private readonly opts: PublisherOptions) {
    this.clock = opts.clock ?? clock;
    this.intervalMs = opts.intervalMs ?? 1_000;
    this.leaseTtlMs = opts.leaseTtlMs ?? 45_000;
    this.syncPressIntervalMs = opts.syncPressIntervalMs ?? 60_000;
    this.clientId = opts.broker.clientId ?? `ringside-${randomBytes(4).toString("hex")}`;
    this.throttle = new KeyedThrottle((key) => (key === RETRACTIONS ? this.retract() : this.publishPerson(key)), {
      intervalMs: this.intervalMs,
      concurrency: 4,
      clock: this.clock,
    });
  }

  get connected(): boolean {
    return this.connection?.connected === true;
  }

  async start(): Promise<void> {
    this.watch = await watchDataChanges({ onChange: (c) => this.changed(c), onResync: () => this.resync() });
    this.leaseLoop = this.holdLease();
  }

  resync(): void {
    if (this.connected) void this.markEveryone();
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    this.throttle.stop();
    await this.watch?.stop();
    await this.leaseLoop;
    const c = this.connection;
    this.connection = null;
    if (c) {
      await c.stop({ topic: availabilityTopic(this.opts.topics), payload: "offline" });
      await claimLease(LEASE, this.holder, 0).catch(() => undefined);
    }
  }

  /** Takes (and renews) the lease; connects while it holds it, disconnects when another process has it. */
  private async holdLease(): Promise<void> {
    while (!this.stopped.signal.aborted) {
      let held = this.connection !== null;
      try {
        held = await claimLease(LEASE, this.holder, this.leaseTtlMs);
      } catch (err) {
        // the database is away: keep what we have, ask again at the next renewal
        logger.warn({ err: err instanceof Error ? err.name : "error" }, "home assistant: the publisher's lease could not be renewed");
      }
      if (this.stopped.signal.aborted) break;
      if (held && !this.connection) this.connect();
      if (!held && this.connection) {
        logger.info({}, "home assistant: another process publishes now");
        const c = this.connection;
        this.connection = null;
        await c.stop();
      }
      await this.clock.sleep(this.leaseTtlMs / 3, this.stopped.signal).catch(() => undefined);
    }
  }

  private connect(): void {
    const t = this.opts.topics;
    const { url, username, password } = this.opts.broker;
    this.connection = new BrokerConnection({
      url,
      username,
      password,
      clientId: this.clientId,
      clock: this.clock,
      will: { topic: availabilityTopic(t), payload: "offline" },
      onConnect: async () => {
        const c = this.connection;
        if (!c) return;
        await c.publish(availabilityTopic(t), "online", { retain: true });
        await c.subscribe([homeAssistantStatusTopic(t), syncCommandFilter(t)]);
        await this.markEveryone();
      },
      onMessage: (topic, payload) => this.received(topic, payload),
      onDisconnect: () => {
        this.throttle.reset();
        this.published.clear();
        this.publishedEpoch++;
      },
    });
    this.connection.start();
  }

  /** Everyone's device is published again (a new connection, Home Assistant's "online", a resync). */
  private async markEveryone(): Promise<void> {
    // what the broker holds is published again (still at most once a second a person)
    this.published.clear();
    this.publishedEpoch++;
    this.throttle.mark(RETRACTIONS);
    try {
      for (const p of await listPublishingPeople()) {
        this.nodes.set(nodeIdOf(p.userId), p.userId);
        this.throttle.mark(p.userId);
      }
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.name : "error" }, "home assistant: the people who publish could not be read");
    }
  }

  private changed(change: DataChange): void {
    if (!this.connected) return; // the next connection publishes everything
    if (change === null) void this.markEveryone();
    else this.throttle.mark(change);
  }

  private received(topic: string, payload: string): void {
    const t = this.opts.topics;
    if (topic === homeAssistantStatusTopic(t)) {
      if (payload.trim() === "online") {
        logger.info({}, "home assistant: Home Assistant is online, publishing everything again");
        void this.markEveryone();
      }
      return;
    }
    const node = nodeOfSyncCommand(t, topic);
    if (node) void this.pressed(node);
  }

  /** "Sync now" on a device: a sync of that person, at most once a minute. */
  private async pressed(node: string): Promise<void> {
    // taken or not, decided before anything is awaited: presses in a burst are one
    const now = this.clock.now();
    if (now - (this.lastPress.get(node) ?? Number.NEGATIVE_INFINITY) < this.syncPressIntervalMs) {
      this.presses.ignored++;
      logger.info({ node }, "home assistant: sync now pressed again too soon, ignored");
      return;
    }
    if (this.lastPress.size >= MAX_PRESSED_NODES) for (const [n, at] of this.lastPress) if (now - at >= this.syncPressIntervalMs) this.lastPress.delete(n);
    if (this.lastPress.size >= MAX_PRESSED_NODES) {
      this.presses.ignored++;
      return;
    }
    this.lastPress.set(node, now);
    try {
      let userId = this.nodes.get(node);
      if (!userId) {
        for (const p of await listPublishingPeople()) this.nodes.set(nodeIdOf(p.userId), p.userId);
        userId = this.nodes.get(node);
      }
      if (!userId || !(await findPublishingPerson(userId))) {
        this.presses.ignored++;
        return;
      }
      const account = await getRingAccountForUser(userId);
      if (account?.status !== "active") {
        this.presses.ignored++;
        logger.info({ userId }, "home assistant: sync now pressed without an active ring connection, ignored");
        return;
      }
      await enqueueSyncNow(userId);
      wakeScheduler();
      this.presses.taken++;
      logger.info({ userId }, "home assistant: sync now pressed");
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.name : "error" }, "home assistant: sync now failed");
    }
  }

  /** Publishes what the broker should hold and does not. */
  private async publishAll(messages: readonly RetainedMessage[]): Promise<boolean> {
    const c = this.connection;
    if (!c) return false;
    const ok = await Promise.all(messages.map((m) => c.publish(m.topic, m.payload, { retain: true })));
    return ok.every(Boolean);
  }

  private async publishPerson(userId: string): Promise<void> {
    if (!this.connected) return;
    const node = nodeIdOf(userId);
    const epoch = this.publishedEpoch;
    try {
      const person = await findPublishingPerson(userId);
      if (!person) {
        // not (or no longer) publishing: their device is emptied when it is to be (in this person's
        // turn, so never beside a publish of theirs still in flight)
        if (await hasHomeAssistantRetraction(node)) await this.retractNode(node, userId);
        return;
      }
      this.nodes.set(node, userId);
      const t = this.opts.topics;
      const entities = await homeAssistantEntitiesOf(userId, person.kinds);
      const configs = discoveryMessages(t, { node, name: personLabel(person.name, person.email) }, entities);
      const configKey = digest(configs);
      const before = this.published.get(userId);
      if (before?.configKey !== configKey && !(await this.publishAll(configs))) return;
      const state = JSON.stringify(stateDocument(entities, await readHomeAssistantSnapshot(userId, entities)));
      if (before?.state !== state && !(await this.publishAll([{ topic: stateTopic(t, node), payload: state }]))) return;
      // everything was asked again meanwhile: what this turn sent is not taken as held, the next turn sends it
      if (epoch === this.publishedEpoch) this.published.set(userId, { configKey, state });
    } catch (err) {
      logger.warn({ userId, err: err instanceof Error ? err.name : "error" }, "home assistant: a device could not be published");
    }
  }

  /**
   * Every device waiting to be emptied (a new connection: some may have waited for it). A device of
   * someone this process knows is left to their own turn; the others (a removed member's, one
   * retracted while no publisher ran) are emptied here.
   */
  private async retract(): Promise<void> {
    if (!this.connected) return;
    try {
      for (const node of await listHomeAssistantRetractions()) {
        const userId = this.nodes.get(node);
        if (userId) this.throttle.mark(userId);
        else if (!(await this.retractNode(node))) return;
      }
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.name : "error" }, "home assistant: devices could not be removed");
    }
  }

  /** Empties one device at the broker; its row goes once the broker took every message. */
  private async retractNode(node: string, userId?: string): Promise<boolean> {
    if (!(await this.publishAll(retractionMessages(this.opts.topics, node)))) return false;
    await deleteHomeAssistantRetraction(node);
    if (userId) this.published.delete(userId);
    logger.info({ node }, "home assistant: a device was removed");
    return true;
  }
}

/** Starts the publisher with the environment's broker (background work, MQTT_URL set). */
export async function startHomeAssistantPublisher(opts: PublisherOptions): Promise<HomeAssistantPublisher> {
  const p = new HomeAssistantPublisher(opts);
  await p.start();
  return p;
}
