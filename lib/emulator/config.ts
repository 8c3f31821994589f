// Settings of the ring-service emulator: defaults, environment parsing (zod) and the table
// printed at start. The emulator is a test double, so every value has a safe default.
import { z } from "zod";
import { parsePinnedClock } from "../clock";
import { isDay } from "../days";

export type EmulatorConfig = {
  port: number;
  host: string;
  tokenTtlS: number;
  rateLimit: number;
  appRateLimit: number;
  rateWindowS: number;
  pageSize: number;
  /** Rows per page of the time series (heartrate, ring_battery_level). */
  timeseriesPageSize: number;
  /** Longest start_datetime..end_datetime window of a time-series request, in days; 0 = no limit (the real limit is unknown). */
  timeseriesMaxDays: number;
  webhookDelayMs: number;
  webhookRetryMs: number;
  subscriptionTtlS: number;
  historyDays: number;
  seed: string;
  codeTtlS: number;
  /**
   * Newer identity provider only: what a bare (legacy) scope name such as `daily` in the
   * authorization request does. The public record conflicts (facts §5.6 and the Addendum of
   * 2026-11-23): "ignore" = accepted but silently not granted; "grant" = granted as its
   * `extapi:` equivalent.
   */
  bareScopes: BareScopes;
  /** YYYY-MM-DD override of the data's last day ("today"), for tests. */
  today?: string;
  /**
   * The emulator's clock pinned to an instant (lib/clock.ts's form: an ISO instant, optionally
   * `@<epoch ms>`), running on from there; "today" is its UTC date unless `today` is set.
   */
  now?: string;
};

export const BARE_SCOPE_MODES = ["ignore", "grant"] as const;
export type BareScopes = (typeof BARE_SCOPE_MODES)[number];

export const DEFAULT_SEED = "ringside-emulator-seed-1";

export const DEFAULT_CONFIG: EmulatorConfig = {
  port: 4010,
  host: "localhost",
  tokenTtlS: 86_400,
  rateLimit: 5_000,
  appRateLimit: 25_000,
  rateWindowS: 300,
  pageSize: 100,
  timeseriesPageSize: 1_000,
  timeseriesMaxDays: 0,
  webhookDelayMs: 30_000,
  webhookRetryMs: 2_000,
  subscriptionTtlS: 7_776_000,
  historyDays: 730,
  seed: DEFAULT_SEED,
  codeTtlS: 600,
  bareScopes: "ignore",
};

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine(isDay, { message: "must be a real calendar date" });

const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const emulatorConfigSchema = z.object({
  port: int(0, 65_535),
  host: z.string().min(1),
  tokenTtlS: int(1, 10 * 365 * 86_400),
  rateLimit: int(1, 10_000_000),
  appRateLimit: int(1, 100_000_000),
  rateWindowS: int(1, 86_400),
  pageSize: int(1, 100_000),
  timeseriesPageSize: int(1, 100_000),
  timeseriesMaxDays: int(0, 36_500),
  webhookDelayMs: int(0, 24 * 3_600_000),
  webhookRetryMs: int(1, 24 * 3_600_000),
  subscriptionTtlS: int(1, 10 * 365 * 86_400),
  historyDays: int(1, 36_500),
  seed: z.string().min(1),
  codeTtlS: int(1, 86_400),
  bareScopes: z.enum(BARE_SCOPE_MODES, { message: `must be one of: ${BARE_SCOPE_MODES.join(", ")}` }),
  today: isoDay.optional(),
  now: z
    .string()
    .refine((v) => {
      try {
        parsePinnedClock(v);
        return true;
      } catch {
        return false;
      }
    }, "must be an ISO instant such as 2026-03-01T12:00:00Z, optionally followed by @<epoch ms>")
    .optional(),
});

/** Environment variable → config key, with the meaning printed in the settings table. */
export const ENV_VARIABLES: ReadonlyArray<{ name: string; key: keyof EmulatorConfig; meaning: string }> = [
  { name: "RING_EMULATOR_PORT", key: "port", meaning: "port (0 = any free port)" },
  { name: "RING_EMULATOR_HOST", key: "host", meaning: "host name to bind and to advertise" },
  { name: "RING_EMULATOR_TOKEN_TTL_S", key: "tokenTtlS", meaning: "access-token lifetime, server-side flow (s)" },
  { name: "RING_EMULATOR_RATE_LIMIT", key: "rateLimit", meaning: "requests per window, per access token" },
  { name: "RING_EMULATOR_APP_RATE_LIMIT", key: "appRateLimit", meaning: "requests per window, per application" },
  { name: "RING_EMULATOR_RATE_WINDOW_S", key: "rateWindowS", meaning: "rolling rate-limit window (s)" },
  { name: "RING_EMULATOR_PAGE_SIZE", key: "pageSize", meaning: "documents per list page" },
  { name: "RING_EMULATOR_TIMESERIES_PAGE_SIZE", key: "timeseriesPageSize", meaning: "rows per page of heartrate and ring_battery_level" },
  {
    name: "RING_EMULATOR_TIMESERIES_MAX_DAYS",
    key: "timeseriesMaxDays",
    meaning: "longest time-series window in days (400 beyond it); 0 = no limit",
  },
  { name: "RING_EMULATOR_WEBHOOK_DELAY_MS", key: "webhookDelayMs", meaning: "data change → notification delay (ms)" },
  { name: "RING_EMULATOR_WEBHOOK_RETRY_MS", key: "webhookRetryMs", meaning: "first delivery retry (ms), then doubling, 10 retries" },
  { name: "RING_EMULATOR_SUBSCRIPTION_TTL_S", key: "subscriptionTtlS", meaning: "webhook subscription lifetime (s)" },
  { name: "RING_EMULATOR_HISTORY_DAYS", key: "historyDays", meaning: "days of history a new user has" },
  { name: "RING_EMULATOR_SEED", key: "seed", meaning: "seed of the data generator" },
  { name: "RING_EMULATOR_CODE_TTL_S", key: "codeTtlS", meaning: "authorization-code lifetime (s)" },
  {
    name: "RING_EMULATOR_BARE_SCOPES",
    key: "bareScopes",
    meaning: "newer provider: bare scope names (daily) are ignored (not granted) or granted as extapi: names",
  },
  { name: "RING_EMULATOR_TODAY", key: "today", meaning: "fixed last day of the data (YYYY-MM-DD); unset = the clock's UTC date" },
  { name: "RING_EMULATOR_NOW", key: "now", meaning: "the clock pinned to an ISO instant (optionally @<epoch ms>), running on from there; unset = real time" },
];

export class EmulatorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmulatorConfigError";
  }
}

function formatIssues(error: z.ZodError, nameOf: (key: string) => string): string {
  return error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? "");
      return `${nameOf(key)}: ${issue.message}`;
    })
    .join("; ");
}

/** Validates a full config; throws EmulatorConfigError naming the offending keys. */
export function validateConfig(config: EmulatorConfig): EmulatorConfig {
  const parsed = emulatorConfigSchema.safeParse(config);
  if (!parsed.success) throw new EmulatorConfigError(`Invalid emulator setting: ${formatIssues(parsed.error, (k) => k)}`);
  return parsed.data;
}

/** Defaults merged with overrides (tests); environment variables are NOT read here. */
export function resolveConfig(overrides: Partial<EmulatorConfig> = {}): EmulatorConfig {
  const merged: EmulatorConfig = { ...DEFAULT_CONFIG };
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  return validateConfig(merged);
}

/**
 * Reads RING_EMULATOR_* variables. Blank values count as unset. A bad value throws an
 * EmulatorConfigError whose message names the variable.
 */
export function configFromEnv(env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>): EmulatorConfig {
  const raw: Record<string, unknown> = { ...DEFAULT_CONFIG };
  const numericKeys = new Set<keyof EmulatorConfig>(
    (Object.keys(DEFAULT_CONFIG) as Array<keyof EmulatorConfig>).filter((k) => typeof DEFAULT_CONFIG[k] === "number"),
  );
  const problems: string[] = [];
  for (const { name, key } of ENV_VARIABLES) {
    const value = env[name]?.trim();
    if (value === undefined || value === "") continue;
    if (numericKeys.has(key)) {
      if (!/^-?\d+$/.test(value)) {
        problems.push(`${name}: must be an integer, got "${value}"`);
        continue;
      }
      raw[key] = Number(value);
    } else {
      raw[key] = value;
    }
  }
  if (problems.length > 0) throw new EmulatorConfigError(`Invalid emulator setting: ${problems.join("; ")}`);
  const parsed = emulatorConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const nameOf = (key: string) => ENV_VARIABLES.find((v) => v.key === key)?.name ?? key;
    throw new EmulatorConfigError(`Invalid emulator setting: ${formatIssues(parsed.error, nameOf)}`);
  }
  return parsed.data;
}

/** The settings table printed by main.ts. */
export function formatConfigTable(config: EmulatorConfig): string {
  const rows = ENV_VARIABLES.map(({ name, key, meaning }) => [
    name,
    String(config[key] ?? (key === "now" ? "(real time)" : "(the clock's UTC date)")),
    meaning,
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), ["variable", "value", "meaning"][i]!.length));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(["variable", "value", "meaning"]), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
