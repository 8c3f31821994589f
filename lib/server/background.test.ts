import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env.mjs";
import { backgroundPlan } from "@/lib/server/background";

describe("ROLE: what a process runs", () => {
  it("all (the default) serves and works; web only serves; worker (and any working process on PostgreSQL) polls the job table often", () => {
    expect(parseEnv({}).ROLE).toBe("all");
    expect(backgroundPlan({ role: "all", syncDisabled: false })).toEqual({
      sync: true,
      dailyBackup: true,
      homeAssistant: false,
      setupCode: true,
      idleMs: undefined,
    });
    expect(backgroundPlan({ role: "web", syncDisabled: false })).toEqual({
      sync: false,
      dailyBackup: false,
      homeAssistant: false,
      setupCode: true,
      idleMs: undefined,
    });
    expect(backgroundPlan({ role: "worker", syncDisabled: false })).toEqual({
      sync: true,
      dailyBackup: true,
      homeAssistant: false,
      setupCode: false,
      idleMs: 2_000,
    });
    // on PostgreSQL every working process polls often: another process may have queued the jobs
    expect(backgroundPlan({ role: "all", syncDisabled: false, sharedDatabase: true }).idleMs).toBe(2_000);
    expect(backgroundPlan({ role: "web", syncDisabled: false, sharedDatabase: true }).idleMs).toBeUndefined();
    // SYNC_DISABLED stops the scheduler and alerts whatever the role; the backup stays.
    expect(backgroundPlan({ role: "worker", syncDisabled: true })).toMatchObject({ sync: false, dailyBackup: true });
    // the Home Assistant publisher: with a broker, in a process that works (sync on or off), never in a web process
    expect(backgroundPlan({ role: "worker", syncDisabled: true, mqtt: true }).homeAssistant).toBe(true);
    expect(backgroundPlan({ role: "all", syncDisabled: false, mqtt: true }).homeAssistant).toBe(true);
    expect(backgroundPlan({ role: "web", syncDisabled: false, mqtt: true }).homeAssistant).toBe(false);
  });

  it("a role that is not one of the three stops the start with a message naming it", () => {
    expect(parseEnv({ ROLE: "worker" }).ROLE).toBe("worker");
    expect(() => parseEnv({ ROLE: "both" })).toThrow(/ROLE: must be "web", "worker" or "all"/);
  });
});
