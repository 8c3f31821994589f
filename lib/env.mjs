// @ts-check
// The one place the environment is read and validated (zod). Imported first by
// next.config.mjs, so a bad variable fails `next build` / `next start` with a message that
// names it. Everything else imports `env` from here instead of reading process.env.
import fs from "node:fs";
import ipaddr from "ipaddr.js";
import { z } from "zod";

const ALL_SCOPES = "email personal daily heartrate workout tag session spo2Daily reproductive_cycle";

/** The built-in emulator's public demo client (README): usable in demo mode only. */
export const DEMO_CLIENT_ID = "ringside-demo";
export const DEMO_CLIENT_SECRET = "ringside-demo-secret";

/** Empty strings count as unset, as in t3's `emptyStringAsUndefined`. */
const opt = (/** @type {z.ZodType} */ schema) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

const TOKEN_KEY_RE = /^[A-Za-z0-9+/_-]{43}=?$|^[0-9a-fA-F]{64}$/;
const TOKEN_KEY_MESSAGE = "must be 32 bytes as 64 hex characters or base64";

/**
 * The token-encryption key kept in a file (TOKEN_ENCRYPTION_KEY_FILE): its one line, checked
 * like TOKEN_ENCRYPTION_KEY. Throws an EnvError naming the variable (never the key).
 * @param {string} file
 * @returns {string}
 */
export function readTokenKeyFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (e) {
    throw envError(`TOKEN_ENCRYPTION_KEY_FILE: cannot read ${file} (${/** @type {NodeJS.ErrnoException} */ (e).code ?? "error"})`);
  }
  if (!TOKEN_KEY_RE.test(text)) throw envError(`TOKEN_ENCRYPTION_KEY_FILE: the key in ${file} ${TOKEN_KEY_MESSAGE}`);
  return text;
}

/** @param {string} message */
function envError(message) {
  const err = new Error(message);
  err.name = "EnvError";
  return err;
}

const url = z.string().refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
  message: "must be an http(s) URL",
});
/** A host name (ntfy.lan), an address (192.168.1.20, fd00::5) or a CIDR range (192.168.1.0/24). */
const HOST_NAME_RE = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;
const hostOrRange = (/** @type {string} */ v) => {
  const e = v.replace(/^\[(.*)\]$/, "$1");
  return e.includes("/") ? ipaddr.isValidCIDR(e) : ipaddr.isValid(e) || HOST_NAME_RE.test(e);
};
/** An MQTT topic prefix: one or more levels, no wildcards, no empty level, no spaces. */
const TOPIC_RE = /^[^\s/#+]+(\/[^\s/#+]+)*$/;
const TOPIC_MESSAGE = "must be a topic such as ringside or home/ringside (no wildcards, spaces or empty levels)";
const bool = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const intIn = (/** @type {number} */ min, /** @type {number} */ max) => z.coerce.number().int().min(min).max(max);

const serverSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: opt(intIn(1, 65535)),
    HOST: opt(z.string().min(1)),
    DATA_DIR: opt(z.string().min(1)),
    DATABASE_URL: opt(
      z
        .string()
        .regex(
          /^file:[^?]+$|^postgres(ql)?:\/\/[^\s]+$/,
          "must be a SQLite file URL such as file:./data/ringside.db (no ?query) or a PostgreSQL URL such as postgresql://user:password@host:5432/ringside",
        ),
    ),
    DATABASE_POOL_SIZE: opt(intIn(1, 200)),
    AUTH_SECRET: opt(z.string().min(16, "must be at least 16 characters")),
    AUTH_URL: opt(url),
    TOKEN_ENCRYPTION_KEY: opt(z.string().regex(TOKEN_KEY_RE, TOKEN_KEY_MESSAGE)),
    // A file holding the key (a Docker or systemd secret), kept away from the data directory and
    // its backups; read at start.
    TOKEN_ENCRYPTION_KEY_FILE: opt(z.string().min(1)),
    WEBHOOK_VERIFICATION_TOKEN: opt(z.string().min(16, "must be at least 16 characters")),
    RING_API_BASE_URL: opt(url),
    RING_OAUTH_BASE_URL: opt(url),
    RING_OAUTH_ISSUER: opt(url),
    RING_AUTHORIZE_URL: opt(url),
    RING_TOKEN_URL: opt(url),
    RING_REVOKE_URL: opt(url),
    RING_CLIENT_ID: opt(z.string().min(1)),
    RING_CLIENT_SECRET: opt(z.string().min(1)),
    RING_SCOPES: opt(
      z.string().refine(
        (s) =>
          s
            .trim()
            .split(/\s+/)
            .every((x) => ALL_SCOPES.split(" ").includes(x)),
        {
          message: `must be space-separated scopes from: ${ALL_SCOPES}`,
        },
      ),
    ),
    RING_DATA_FAMILY: opt(z.enum(["usercollection", "sandbox"])),
    RING_BACKFILL_START: opt(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")),
    RING_REQUEST_TIMEOUT_MS: opt(intIn(100, 300_000)),
    ALLOWED_EMAILS: opt(z.string()),
    PUBLIC_URL: opt(url),
    SYNC_POLL_MINUTES: opt(intIn(1, 1440)),
    SYNC_TRAILING_DAYS: opt(intIn(1, 90)),
    SYNC_DISABLED: opt(bool),
    JOB_LEASE_SECONDS: opt(intIn(5, 3600)),
    // What this process does: serve requests (web), run the background work (worker), or both (all).
    ROLE: opt(z.enum(["web", "worker", "all"], { message: 'must be "web", "worker" or "all"' })),
    BACKUP_DIR: opt(z.string().min(1)),
    BACKUP_KEEP: opt(intIn(1, 3650)),
    // The copies npm start takes before it migrates (ringside-pre-migrate-*): how many it keeps.
    BACKUP_KEEP_PRE_MIGRATE: opt(intIn(1, 1000)),
    BACKUP_HOUR: opt(intIn(-1, 23)),
    LOG_LEVEL: opt(z.enum(["debug", "info", "warn", "error", "silent"])),
    RINGSIDE_DEMO: opt(bool),
    // The clock pinned to an instant (tests, demonstrations): lib/clock.ts reads it; checked here
    // so that a bad value stops the start with a message naming it.
    RINGSIDE_NOW: opt(
      z
        .string()
        .regex(
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})(?:@\d{1,16})?$/,
          "must be an ISO instant such as 2026-03-01T12:00:00Z, optionally followed by @<epoch ms>",
        )
        .refine((v) => !Number.isNaN(Date.parse(v.split("@")[0] ?? "")), "must be a real instant"),
    ),
    // Personal access tokens (Settings → API): requests per minute per token, and the burst.
    API_RATE_LIMIT: opt(intIn(1, 100_000)),
    // Imports (Settings → Import): the free disk an upload's spool must leave in the data directory.
    IMPORT_MIN_FREE_DISK_MB: opt(intIn(0, 1_000_000)),
    // The instance's mail server for e-mail alerts (Settings → Alerts); unset = no e-mail channel.
    SMTP_HOST: opt(
      z
        .string()
        .max(253)
        .regex(/^[A-Za-z0-9.:[\]-]+$/, "must be a host name or IP address"),
    ),
    SMTP_PORT: opt(intIn(1, 65535)),
    SMTP_SECURE: opt(z.enum(["tls", "starttls", "none"])),
    SMTP_USER: opt(z.string().max(512)),
    SMTP_PASSWORD: opt(z.string().max(512)),
    SMTP_FROM: opt(
      z
        .string()
        .max(320)
        .refine((v) => /^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(v.trim()), {
          message: 'must be an e-mail address, or "Name <address>"',
        }),
    ),
    // Home Assistant over MQTT (docs/home-automation.md): off unless MQTT_URL is set. The broker's
    // address (mqtt:// or mqtts://, a user and password may be in it), or the login apart; the
    // client id; the topic states and availability go under; Home Assistant's discovery prefix.
    MQTT_URL: opt(
      z
        .string()
        .max(2000)
        .refine((v) => /^mqtts?:\/\/[^\s/?#]+(\/)?$/.test(v) && URL.canParse(v), {
          message: "must be a broker address such as mqtt://mqtt.lan:1883 or mqtts://user:password@mqtt.example.net:8883 (no path)",
        }),
    ),
    MQTT_USERNAME: opt(z.string().max(512)),
    MQTT_PASSWORD: opt(z.string().max(512)),
    MQTT_CLIENT_ID: opt(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -")),
    MQTT_BASE_TOPIC: opt(z.string().max(100).regex(TOPIC_RE, TOPIC_MESSAGE)),
    MQTT_DISCOVERY_PREFIX: opt(z.string().max(100).regex(TOPIC_RE, TOPIC_MESSAGE)),
    // Host names, addresses or CIDR ranges on this server's own network that alert channels may
    // post to (ntfy on the LAN); everything that is not a public address is refused otherwise.
    ALERT_ALLOWED_PRIVATE_HOSTS: opt(
      z
        .string()
        .max(4000)
        .refine(
          (v) =>
            v
              .split(",")
              .map((x) => x.trim())
              .filter(Boolean)
              .every(hostOrRange),
          {
            message: "must be a comma-separated list of host names, IP addresses or CIDR ranges such as ntfy.lan,192.168.1.0/24",
          },
        ),
    ),
  })
  .superRefine((e, ctx) => {
    if (e.TOKEN_ENCRYPTION_KEY && e.TOKEN_ENCRYPTION_KEY_FILE) {
      ctx.addIssue({ code: "custom", path: ["TOKEN_ENCRYPTION_KEY_FILE"], message: "set TOKEN_ENCRYPTION_KEY or TOKEN_ENCRYPTION_KEY_FILE, not both" });
    }
    if (e.SMTP_HOST && !e.SMTP_FROM) ctx.addIssue({ code: "custom", path: ["SMTP_FROM"], message: "is required with SMTP_HOST (the sender of alert e-mails)" });
    if (!e.SMTP_USER !== !e.SMTP_PASSWORD) {
      ctx.addIssue({ code: "custom", path: [e.SMTP_USER ? "SMTP_PASSWORD" : "SMTP_USER"], message: "SMTP_USER and SMTP_PASSWORD go together" });
    }
  });

/**
 * @param {Record<string, string | undefined>} source
 */
export function parseEnv(source) {
  const result = serverSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join(".") || "(env)"}: ${i.message}`);
    const err = new Error(`Invalid environment variables:\n${lines.join("\n")}\nSee .env.example for every variable.`);
    err.name = "EnvError";
    throw err;
  }
  const e = result.data;
  const dataDir = e.DATA_DIR ?? "./data";
  const apiBase = (e.RING_API_BASE_URL ?? "http://localhost:4010").replace(/\/+$/, "");
  const oauthBase = (e.RING_OAUTH_BASE_URL ?? apiBase).replace(/\/+$/, "");
  return {
    ...e,
    PORT: e.PORT ?? 3000,
    DATA_DIR: dataDir,
    DATABASE_URL: e.DATABASE_URL ?? `file:${dataDir.replace(/\/+$/, "")}/ringside.db`,
    RING_API_BASE_URL: apiBase,
    RING_OAUTH_BASE_URL: oauthBase,
    RING_AUTHORIZE_URL: e.RING_AUTHORIZE_URL ?? `${oauthBase}/oauth/authorize`,
    RING_TOKEN_URL: e.RING_TOKEN_URL ?? `${apiBase}/oauth/token`,
    RING_REVOKE_URL: e.RING_REVOKE_URL ?? `${apiBase}/oauth/revoke`,
    /**
     * The newer identity provider's issuer (apps from the developer portal), without a trailing
     * slash; unset = the legacy provider. When set, every OAuth endpoint comes from its discovery
     * document (lib/auth/issuer.mjs) unless given explicitly below.
     */
    RING_OAUTH_ISSUER: e.RING_OAUTH_ISSUER?.replace(/\/+$/, ""),
    /** The OAuth addresses that were set explicitly (they win over discovery). */
    RING_OAUTH_EXPLICIT: {
      authorize: e.RING_AUTHORIZE_URL,
      token: e.RING_TOKEN_URL,
      revoke: e.RING_REVOKE_URL,
    },
    RING_CLIENT_ID: e.RING_CLIENT_ID ?? DEMO_CLIENT_ID,
    /** the demo secret only in demo mode; outside it Ringside does not start without one (assertRunnableEnv) */
    RING_CLIENT_SECRET: e.RING_CLIENT_SECRET ?? (e.RINGSIDE_DEMO ? DEMO_CLIENT_SECRET : undefined),
    RING_SCOPES: e.RING_SCOPES?.trim().split(/\s+/) ?? ALL_SCOPES.split(" "),
    RING_DATA_FAMILY: e.RING_DATA_FAMILY ?? "usercollection",
    RING_BACKFILL_START: e.RING_BACKFILL_START ?? "2015-01-01",
    RING_REQUEST_TIMEOUT_MS: e.RING_REQUEST_TIMEOUT_MS ?? 30_000,
    /** PostgreSQL connections per process (each process has its own pool). */
    DATABASE_POOL_SIZE: e.DATABASE_POOL_SIZE ?? 10,
    ALLOWED_EMAILS: (e.ALLOWED_EMAILS ?? "")
      .split(",")
      .map((/** @type {string} */ s) => s.trim().toLowerCase())
      .filter(Boolean),
    SYNC_POLL_MINUTES: e.SYNC_POLL_MINUTES ?? 60,
    SYNC_TRAILING_DAYS: e.SYNC_TRAILING_DAYS ?? 10,
    SYNC_DISABLED: e.SYNC_DISABLED ?? false,
    /** How long a claimed sync job stays a process's (renewed while it runs): a process that died drops its jobs after this. */
    JOB_LEASE_SECONDS: e.JOB_LEASE_SECONDS ?? 120,
    /**
     * "all" (the default): this process serves requests and runs the background work. "web": it
     * serves requests only (jobs it queues wait for a worker). "worker": it runs the scheduler,
     * alerts and the daily backup; keep it out of the load balancer.
     */
    ROLE: /** @type {"web" | "worker" | "all"} */ (e.ROLE ?? "all"),
    BACKUP_DIR: e.BACKUP_DIR ?? `${dataDir.replace(/\/+$/, "")}/backups`,
    BACKUP_KEEP: e.BACKUP_KEEP ?? 14,
    /** Backups taken before migrating (ringside-pre-migrate-*) kept after a start that migrated: the newest ones. */
    BACKUP_KEEP_PRE_MIGRATE: e.BACKUP_KEEP_PRE_MIGRATE ?? 3,
    BACKUP_HOUR: e.BACKUP_HOUR ?? 3,
    LOG_LEVEL: e.LOG_LEVEL ?? "info",
    RINGSIDE_DEMO: e.RINGSIDE_DEMO ?? false,
    API_RATE_LIMIT: e.API_RATE_LIMIT ?? 120,
    /** An import is refused while spooling would leave less free disk than this in the data directory (MB). */
    IMPORT_MIN_FREE_DISK_MB: e.IMPORT_MIN_FREE_DISK_MB ?? 512,
    /** Private host names, addresses and ranges alert channels may reach (none by default). */
    ALERT_ALLOWED_PRIVATE_HOSTS: (e.ALERT_ALLOWED_PRIVATE_HOSTS ?? "")
      .split(",")
      .map((/** @type {string} */ s) => s.trim())
      .filter(Boolean),
    /**
     * The mail server for e-mail alerts, or null when SMTP_HOST is unset. `secure`: "tls" (implicit
     * TLS, the default on port 465), "starttls" (upgrade required, the default otherwise) or
     * "none" (plain, e.g. a relay on the same machine).
     */
    SMTP: e.SMTP_HOST
      ? {
          host: e.SMTP_HOST,
          port: e.SMTP_PORT ?? (e.SMTP_SECURE === "tls" ? 465 : 587),
          secure: /** @type {"tls" | "starttls" | "none"} */ (e.SMTP_SECURE ?? (e.SMTP_PORT === 465 ? "tls" : "starttls")),
          user: e.SMTP_USER,
          password: e.SMTP_PASSWORD,
          from: /** @type {string} */ (e.SMTP_FROM).trim(),
        }
      : null,
    /**
     * Home Assistant over MQTT, or null when MQTT_URL is unset. `url` carries no login: the user
     * and password (MQTT_USERNAME / MQTT_PASSWORD, else the URL's) are apart, and never logged.
     */
    MQTT: e.MQTT_URL ? mqttSettings(e) : null,
    /** true when the ring URLs/credentials were left at the built-in emulator defaults */
    IS_EMULATOR_DEFAULT: !e.RING_API_BASE_URL && !e.RING_CLIENT_ID,
  };
}

/**
 * The broker's settings from the variables (MQTT_URL set).
 * @param {Partial<Record<"MQTT_URL" | "MQTT_USERNAME" | "MQTT_PASSWORD" | "MQTT_CLIENT_ID" | "MQTT_BASE_TOPIC" | "MQTT_DISCOVERY_PREFIX", string>>} e
 */
function mqttSettings(e) {
  const u = new URL(/** @type {string} */ (e.MQTT_URL));
  const username = e.MQTT_USERNAME ?? (u.username ? decodeURIComponent(u.username) : undefined);
  const password = e.MQTT_PASSWORD ?? (u.password ? decodeURIComponent(u.password) : undefined);
  return {
    url: `${u.protocol}//${u.host}`,
    username,
    password,
    /** null: Ringside makes one per start (ringside-<random>) */
    clientId: e.MQTT_CLIENT_ID ?? null,
    baseTopic: e.MQTT_BASE_TOPIC ?? "ringside",
    discoveryPrefix: e.MQTT_DISCOVERY_PREFIX ?? "homeassistant",
  };
}

/** @typedef {ReturnType<typeof parseEnv>} Env */

/** Every variable Ringside reads (the README's configuration table and .env.example list them). */
export const ENV_VARIABLES = Object.keys(serverSchema.shape);

/**
 * The configured public address of this Ringside: AUTH_URL (where people sign in; Auth.js
 * builds its redirect URI from it), else PUBLIC_URL (where the ring service reaches the
 * webhook), else null (then each request's own address: lib/auth/origin.ts). The one
 * precedence, for the app and proxy.ts alike.
 * @param {Pick<Env, "AUTH_URL" | "PUBLIC_URL">} e
 * @returns {string | null}
 */
export function configuredPublicUrl(e) {
  return e.AUTH_URL ?? e.PUBLIC_URL ?? null;
}

/**
 * The warning a production start gives without a configured public address (AUTH_URL or
 * PUBLIC_URL): then each request's Host header says where Ringside is, which a request can
 * choose (links in invites and alert messages, the OAuth redirect, the same-origin check).
 * None in demo mode (a browser on this machine).
 * @param {Pick<Env, "AUTH_URL" | "PUBLIC_URL" | "RINGSIDE_DEMO">} e
 * @returns {string | null}
 */
export function publicUrlWarning(e) {
  if (e.RINGSIDE_DEMO || configuredPublicUrl(e)) return null;
  return (
    "WARNING: neither AUTH_URL nor PUBLIC_URL is set. Ringside then takes its public address from each request's Host header, " +
    "which anyone who reaches the server can choose (invite links, links in alert messages, the OAuth redirect). " +
    "Set AUTH_URL to the address people's browsers use, e.g. AUTH_URL=https://ringside.example.net"
  );
}

/**
 * What a running server needs beyond well-formed variables (checked at start, never at build:
 * an image is built without secrets). Outside demo mode the client secret must be the app's
 * own: webhook signatures are verified with it, and the demo secret is public.
 * A key file (TOKEN_ENCRYPTION_KEY_FILE) must be readable and hold a key.
 * @param {Pick<Env, "RINGSIDE_DEMO" | "RING_CLIENT_SECRET"> & Partial<Pick<Env, "TOKEN_ENCRYPTION_KEY_FILE">>} e
 * @returns {string[]} one message per problem, each naming its variable
 */
export function runtimeEnvProblems(e) {
  if (e.TOKEN_ENCRYPTION_KEY_FILE) {
    try {
      readTokenKeyFile(e.TOKEN_ENCRYPTION_KEY_FILE);
    } catch (err) {
      return [/** @type {Error} */ (err).message];
    }
  }
  if (e.RINGSIDE_DEMO) return [];
  if (!e.RING_CLIENT_SECRET) {
    return [
      "RING_CLIENT_SECRET is not set. Outside demo mode Ringside needs the client secret of your app from the ring service's developer portal " +
        "(it also verifies webhook signatures with it). Set RING_CLIENT_SECRET, or RINGSIDE_DEMO=1 to run the demo against the built-in emulator.",
    ];
  }
  if (e.RING_CLIENT_SECRET === DEMO_CLIENT_SECRET) {
    return [
      "RING_CLIENT_SECRET is the built-in demo secret of the emulator, which is public. " +
        "Outside demo mode set the client secret of your app from the ring service's developer portal, or RINGSIDE_DEMO=1 to run the demo.",
    ];
  }
  return [];
}

/**
 * Throws an EnvError (message naming the variable) when the server must not start.
 * @param {Parameters<typeof runtimeEnvProblems>[0]} e
 */
export function assertRunnableEnv(e) {
  const problems = runtimeEnvProblems(e);
  if (problems.length === 0) return;
  const err = new Error(`Ringside cannot start:\n${problems.map((p) => `  - ${p}`).join("\n")}\nSee .env.example for every variable.`);
  err.name = "EnvError";
  throw err;
}

/** @type {Env} */
export const env = process.env.SKIP_ENV_VALIDATION === "1" ? /** @type {Env} */ (/** @type {unknown} */ (parseEnv({}))) : parseEnv(process.env);

export const RING_SCOPES_ALL = ALL_SCOPES.split(" ");
