import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, EmulatorConfigError, configFromEnv, formatConfigTable, resolveConfig } from "./config";

describe("configFromEnv", () => {
  it("uses the documented defaults when nothing is set", () => {
    const c = configFromEnv({});
    expect(c).toMatchObject({
      port: 4010,
      host: "localhost",
      tokenTtlS: 86400,
      rateLimit: 5000,
      appRateLimit: 25000,
      rateWindowS: 300,
      pageSize: 100,
      timeseriesPageSize: 1000,
      timeseriesMaxDays: 0,
      webhookDelayMs: 30000,
      webhookRetryMs: 2000,
      subscriptionTtlS: 7776000,
      historyDays: 730,
      codeTtlS: 600,
      bareScopes: "ignore",
    });
    expect(c.seed).toBe(DEFAULT_CONFIG.seed);
    expect(c.today).toBeUndefined();
  });

  it("reads every RING_EMULATOR_* variable, ignoring blanks", () => {
    const c = configFromEnv({
      RING_EMULATOR_PORT: "4011",
      RING_EMULATOR_HOST: "127.0.0.1",
      RING_EMULATOR_TOKEN_TTL_S: "60",
      RING_EMULATOR_RATE_LIMIT: "10",
      RING_EMULATOR_APP_RATE_LIMIT: "20",
      RING_EMULATOR_RATE_WINDOW_S: "5",
      RING_EMULATOR_PAGE_SIZE: "7",
      RING_EMULATOR_TIMESERIES_PAGE_SIZE: "50",
      RING_EMULATOR_TIMESERIES_MAX_DAYS: "30",
      RING_EMULATOR_WEBHOOK_DELAY_MS: "0",
      RING_EMULATOR_WEBHOOK_RETRY_MS: "10",
      RING_EMULATOR_SUBSCRIPTION_TTL_S: "100",
      RING_EMULATOR_HISTORY_DAYS: "1825",
      RING_EMULATOR_SEED: "abc",
      RING_EMULATOR_CODE_TTL_S: "30",
      RING_EMULATOR_TODAY: "2026-01-31",
      RING_EMULATOR_BARE_SCOPES: "grant",
      RING_EMULATOR_UNRELATED: "x",
    });
    expect(c).toEqual({
      port: 4011,
      host: "127.0.0.1",
      tokenTtlS: 60,
      rateLimit: 10,
      appRateLimit: 20,
      rateWindowS: 5,
      pageSize: 7,
      timeseriesPageSize: 50,
      timeseriesMaxDays: 30,
      webhookDelayMs: 0,
      webhookRetryMs: 10,
      subscriptionTtlS: 100,
      historyDays: 1825,
      seed: "abc",
      codeTtlS: 30,
      bareScopes: "grant",
      today: "2026-01-31",
    });
    expect(configFromEnv({ RING_EMULATOR_PORT: "  " }).port).toBe(4010);
  });

  it.each([
    ["RING_EMULATOR_PORT", "abc"],
    ["RING_EMULATOR_PORT", "70000"],
    ["RING_EMULATOR_PAGE_SIZE", "0"],
    ["RING_EMULATOR_TIMESERIES_PAGE_SIZE", "0"],
    ["RING_EMULATOR_TIMESERIES_MAX_DAYS", "-1"],
    ["RING_EMULATOR_RATE_LIMIT", "1.5"],
    ["RING_EMULATOR_HISTORY_DAYS", "-3"],
    ["RING_EMULATOR_TODAY", "2026-02-30"],
    ["RING_EMULATOR_BARE_SCOPES", "sometimes"],
  ])("rejects %s=%s with an error naming the variable", (name, value) => {
    expect(() => configFromEnv({ [name]: value })).toThrow(EmulatorConfigError);
    expect(() => configFromEnv({ [name]: value })).toThrow(name);
  });
});

describe("resolveConfig", () => {
  it("merges overrides over the defaults and validates them", () => {
    expect(resolveConfig({ port: 0, pageSize: 3 })).toMatchObject({ port: 0, pageSize: 3, rateLimit: 5000 });
    expect(() => resolveConfig({ pageSize: -1 })).toThrow(/pageSize/);
  });
});

describe("formatConfigTable", () => {
  it("lists every variable with its value", () => {
    const table = formatConfigTable(configFromEnv({ RING_EMULATOR_PAGE_SIZE: "9" }));
    for (const name of ["RING_EMULATOR_PORT", "RING_EMULATOR_PAGE_SIZE", "RING_EMULATOR_SEED", "RING_EMULATOR_TODAY", "RING_EMULATOR_BARE_SCOPES"])
      expect(table).toContain(name);
    expect(table).toMatch(/RING_EMULATOR_BARE_SCOPES\s+ignore\s/);
    expect(table).toMatch(/RING_EMULATOR_PAGE_SIZE\s+9\s/);
    expect(table).toMatch(/RING_EMULATOR_TODAY\s+\(the clock's UTC date\)/);
    expect(table).toMatch(/RING_EMULATOR_NOW\s+\(real time\)/);
  });

  it("RING_EMULATOR_NOW pins the clock, and today follows it", () => {
    const config = configFromEnv({ RING_EMULATOR_NOW: "2026-02-28T23:59:30Z" });
    expect(config.now).toBe("2026-02-28T23:59:30Z");
    expect(() => configFromEnv({ RING_EMULATOR_NOW: "yesterday" })).toThrow(/RING_EMULATOR_NOW: must be an ISO instant/);
  });
});
