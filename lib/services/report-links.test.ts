// Report share links: a secret of 256 bits stored only as its hash; a link opens its own report
// for its own person, counts its views, refuses too many a minute (429), and answers 410 once
// revoked or expired (the clock is moved, not waited for); malformed 400, never issued 404.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";
import { sqlRun, sqlValue } from "@/lib/test/sql";
import { REPORT_LINK_VIEWS_PER_MINUTE, createReportLinkInputSchema } from "@/lib/schemas/report-links";

const T0 = Date.parse("2026-03-10T12:00:00Z");

async function person(id: string): Promise<void> {
  const at = new Date(T0).toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
    id,
    `${id}@x.test`,
    at,
    at,
  );
}

const input = (query: string, expiresDays: number | string, label = "") => createReportLinkInputSchema.parse({ query, expiresDays, label });

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("it was not refused");
}

beforeAll(async () => {
  await person("ann");
  await person("bob");
});
afterEach(() => setClock(undefined));

describe("report share links", () => {
  it("creates a link whose secret is 256 random bits, stored only as its SHA-256", async () => {
    setClock(new ManualClock(T0));
    const { createReportLink } = await import("@/lib/services/report-links");
    const { secret, summary } = await createReportLink("ann", input("from=2026-01-01&to=2026-03-01&sections=summary,charts", 7, " Dr.  Lee "));
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(summary).toMatchObject({ label: "Dr. Lee", from: "2026-01-01", to: "2026-03-01", views: 0, state: "open" });
    expect(summary.expiresAt).toBe(new Date(T0 + 7 * 86_400_000).toISOString());
    const stored = String(await sqlValue(`SELECT secretHash FROM report_link WHERE id = ?`, summary.id));
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(secret);
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM report_link WHERE secretHash = ? OR query LIKE ?`, secret, `%${secret}%`))).toBe(0);
  });

  it("opens its own report for its own person, and counts each view with its time", async () => {
    setClock(new ManualClock(T0));
    const { createReportLink, openReportLink, listReportLinkSummaries } = await import("@/lib/services/report-links");
    const { secret, summary } = await createReportLink("bob", input("from=2026-02-01&to=2026-02-28&compare=previous&sections=summary,notes", 1));
    const opened = await openReportLink(secret, { view: true });
    expect(opened).toMatchObject({ userId: "bob", query: { from: "2026-02-01", to: "2026-02-28", compare: "previous", sections: ["summary", "notes"] } });
    await openReportLink(secret, { view: false });
    const listed = (await listReportLinkSummaries("bob")).find((l) => l.id === summary.id)!;
    expect(listed.views).toBe(1);
    expect(listed.lastViewAt).toBe(new Date(T0).toISOString());
    expect((await listReportLinkSummaries("ann")).some((l) => l.id === summary.id)).toBe(false);
  });

  it("answers 410 after revocation and after expiry, 404 for a secret never issued, 400 for a malformed one", async () => {
    const clock = new ManualClock(T0);
    setClock(clock);
    const { createReportLink, openReportLink, revokeReportLinkOf, listReportLinkSummaries } = await import("@/lib/services/report-links");
    const revoked = await createReportLink("ann", input("from=2026-01-01&to=2026-01-31", 30));
    const expiring = await createReportLink("ann", input("from=2026-01-01&to=2026-01-31", 2));
    // someone else cannot revoke it
    expect((await refusal(revokeReportLinkOf("bob", revoked.summary.id))).status).toBe(404);
    await revokeReportLinkOf("ann", revoked.summary.id);
    expect(await refusal(openReportLink(revoked.secret, { view: true }))).toEqual({ status: 410, message: "This link is no longer valid." });
    expect((await refusal(revokeReportLinkOf("ann", revoked.summary.id))).status).toBe(404);

    await openReportLink(expiring.secret, { view: true });
    clock.set(T0 + 2 * 86_400_000);
    expect((await refusal(openReportLink(expiring.secret, { view: true }))).status).toBe(410);
    const states = new Map((await listReportLinkSummaries("ann")).map((l) => [l.id, l.state]));
    expect(states.get(revoked.summary.id)).toBe("revoked");
    expect(states.get(expiring.summary.id)).toBe("expired");

    expect((await refusal(openReportLink("A".repeat(43), { view: true }))).status).toBe(404);
    for (const bad of ["", "short", "A".repeat(44), "x".repeat(42) + "!"]) expect((await refusal(openReportLink(bad, { view: true }))).status).toBe(400);
  });

  it("refuses more than the allowance of views of one link a minute (429), and another link is not affected", async () => {
    const clock = new ManualClock(T0);
    setClock(clock);
    const { createReportLink, openReportLink } = await import("@/lib/services/report-links");
    const busy = await createReportLink("bob", input("from=2026-01-01&to=2026-01-31", 5));
    const quiet = await createReportLink("bob", input("from=2026-01-01&to=2026-01-31", 5));
    for (let i = 0; i < REPORT_LINK_VIEWS_PER_MINUTE; i++) await openReportLink(busy.secret, { view: true });
    expect((await refusal(openReportLink(busy.secret, { view: true }))).status).toBe(429);
    await openReportLink(quiet.secret, { view: true });
    clock.advance(60_000);
    await openReportLink(busy.secret, { view: true });
  });

  it("clears a link 90 days after it closed, when the person makes a new one", async () => {
    const clock = new ManualClock(T0);
    setClock(clock);
    await person("cat");
    const { createReportLink, revokeReportLinkOf, listReportLinkSummaries } = await import("@/lib/services/report-links");
    const old = await createReportLink("cat", input("from=2026-01-01&to=2026-01-31", 3));
    const revoked = await createReportLink("cat", input("from=2026-01-01&to=2026-01-31", 30));
    await revokeReportLinkOf("cat", revoked.summary.id);
    clock.advance(89 * 86_400_000);
    await createReportLink("cat", input("from=2026-01-01&to=2026-01-31", 3));
    expect((await listReportLinkSummaries("cat")).map((l) => l.id)).toContain(revoked.summary.id);
    clock.advance(2 * 86_400_000);
    await createReportLink("cat", input("from=2026-01-01&to=2026-01-31", 3));
    const ids = (await listReportLinkSummaries("cat")).map((l) => l.id);
    // revoked at day 0: cleared after day 90; expired at day 3: kept until day 93
    expect(ids).not.toContain(revoked.summary.id);
    expect(ids).toContain(old.summary.id);
    expect(ids).toHaveLength(3);
  });

  it("refuses an expiry outside 1 to 90 days, an unknown section, a period over a year, to before from", () => {
    const bad = (query: string, days: number | string) => createReportLinkInputSchema.safeParse({ query, expiresDays: days }).success;
    expect(bad("from=2026-01-01&to=2026-01-31", 0)).toBe(false);
    expect(bad("from=2026-01-01&to=2026-01-31", 91)).toBe(false);
    expect(bad("from=2026-01-01&to=2026-01-31", "1.5")).toBe(false);
    expect(bad("from=2026-01-01&to=2026-01-31&sections=summary,secrets", 7)).toBe(false);
    expect(bad("from=2025-01-01&to=2026-01-31", 7)).toBe(false);
    expect(bad("from=2026-02-01&to=2026-01-31", 7)).toBe(false);
    expect(bad("from=2026-01-01&to=2026-01-31", 90)).toBe(true);
    expect(bad("from=2026-01-01&to=2026-01-31", "1")).toBe(true);
  });
});
