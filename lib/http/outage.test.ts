// The database away, as a request and the process see it: which errors are an outage (looking
// through the causes the drivers and Prisma wrap them in), the 503 with Retry-After in the one
// envelope, the remembered state the pages read, and its recovery by the probe.
import { describe, expect, it, vi } from "vitest";
import { classifyDatabaseError, databaseHealth, installDatabaseProbe, noteDatabaseError } from "@/lib/http/outage";
import { toErrorResponse } from "@/lib/http/errors";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("which errors are an outage", () => {
  it("PostgreSQL gone (refused, shut down, connection ended), also wrapped or aggregated; SQLite unreadable; the disk full", () => {
    expect(classifyDatabaseError(refused)).toBe("unreachable");
    expect(classifyDatabaseError(new AggregateError([refused, refused], "all failed"))).toBe("unreachable");
    expect(classifyDatabaseError(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe("unreachable");
    expect(classifyDatabaseError(new Error("Connection terminated unexpectedly"))).toBe("unreachable");
    expect(
      classifyDatabaseError(
        new Error("Invalid `prisma.user.findMany()` invocation", {
          cause: { kind: "postgres", originalCode: "57P03", message: "the database system is starting up" },
        }),
      ),
    ).toBe("unreachable");
    expect(classifyDatabaseError(Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR_WRITE" }))).toBe("unreachable");
    expect(classifyDatabaseError(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toBe("full");
    expect(classifyDatabaseError(new Error("outer", { cause: new Error("database or disk is full") }))).toBe("full");
  });

  it("anything else is not: a bug stays a 500, a conflict its own answer", () => {
    expect(classifyDatabaseError(new TypeError("x is undefined"))).toBeNull();
    expect(classifyDatabaseError(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toBeNull();
    expect(classifyDatabaseError(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBeNull();
    expect(classifyDatabaseError("a string")).toBeNull();
  });
});

describe("what a request gets", () => {
  it("503 in the one envelope with Retry-After: 5 s while away, 60 s for a full disk", async () => {
    const away = toErrorResponse(refused);
    expect(away.status).toBe(503);
    expect(away.headers.get("retry-after")).toBe("5");
    expect(await away.json()).toEqual({ error: { code: "service_unavailable", message: "The database is not reachable; Ringside retries." } });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const full = toErrorResponse(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }));
    spy.mockRestore();
    expect(lines.filter((l) => l.includes('"outage":"full"'))).toHaveLength(1); // the first one at once
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe("60");
    expect(((await full.json()) as { error: { message: string } }).error.message).toMatch(/disk is full/);
    expect(toErrorResponse(new TypeError("bug")).status).toBe(500);
  });
});

describe("the process remembers the outage until the database answers again", () => {
  it("noted once; the probe finds it back; what waits is woken; a full disk is not an outage of reads", async () => {
    let up = true;
    const woken = vi.fn();
    installDatabaseProbe(async () => {
      if (!up) throw refused;
    }, woken);
    const health = databaseHealth();
    await health.fresh(0); // whatever the requests above left: the database answers now
    woken.mockClear();
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    expect(noteDatabaseError(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toBe("full");
    expect(noteDatabaseError(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toBe("full");
    spy.mockRestore();
    expect(lines.filter((l) => l.includes('"outage":"full"'))).toHaveLength(0); // one line a minute at most: said above already
    expect(health.down()).toBeNull();
    expect(noteDatabaseError(refused)).toBe("unreachable");
    expect(health.down()).toBe("unreachable");
    up = false;
    expect(await health.fresh(0)).toBe("unreachable");
    up = true;
    expect(await health.fresh(0)).toBeNull();
    expect(health.down()).toBeNull();
    expect(woken).toHaveBeenCalledTimes(1);
    // a state younger than asked for is answered without probing
    up = false;
    expect(await health.fresh(60_000)).toBeNull();
  });
});
