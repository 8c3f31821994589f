// A report's share link over HTTP: its PDF (/r/<secret>/pdf) and the gate proxy.ts asks before
// its page (/r/<secret>) is drawn. Open: the PDF with a meaningful file name, the link's headers
// (noindex, no referrer, no cache) and no cookie. Refused, with a plain page that names nobody:
// malformed 400, never issued 404, revoked 410, expired 410 (the clock is moved, not waited
// for), too many views 429 with Retry-After. Never a 500.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { ManualClock, setClock } from "@/lib/clock";
import { sqlRun } from "@/lib/test/sql";
import { REPORT_LINK_VIEWS_PER_MINUTE, createReportLinkInputSchema } from "@/lib/schemas/report-links";

const T0 = Date.parse("2026-03-10T12:00:00Z");
const PERSON = { id: "pat", name: "Pat Quietly", email: "pat.quietly@example.test" };

beforeAll(async () => {
  const at = new Date(T0).toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, name, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, ?, 'owner', 'metric', 'system', ?, ?)`,
    PERSON.id,
    PERSON.name,
    PERSON.email,
    at,
    at,
  );
});
afterEach(() => setClock(undefined));

async function link(days = 7, query = "from=2026-02-01&to=2026-02-28&sections=summary,methods") {
  const { createReportLink } = await import("@/lib/services/report-links");
  return createReportLink(PERSON.id, createReportLinkInputSchema.parse({ query, expiresDays: days, label: "Dr. Lee" }));
}

async function pdf(secret: string): Promise<Response> {
  const { GET } = await import("@/app/(share)/r/[secret]/pdf/route");
  return GET(new Request(`http://localhost/r/${secret}/pdf`), { params: Promise.resolve({ secret }) });
}

async function page(secret: string): Promise<Response> {
  const { installReportLinkGate } = await import("@/lib/services/report-links");
  installReportLinkGate();
  const { proxy } = await import("@/proxy");
  return proxy(new NextRequest(`http://localhost/r/${secret}`));
}

function expectLinkHeaders(res: Response): void {
  expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("cache-control")).toContain("no-store");
  expect(res.headers.get("set-cookie")).toBeNull();
}

async function expectRefused(res: Response, status: number, words: string): Promise<void> {
  expect(res.status).toBe(status);
  expectLinkHeaders(res);
  const body = await res.text();
  expect(body).toContain(words);
  for (const hint of [PERSON.name, PERSON.email, PERSON.id, "Dr. Lee", "2026-02"]) expect(body).not.toContain(hint);
}

describe("a share link's PDF", () => {
  it("downloads the report as a PDF with a meaningful name, no cookie, noindex and no referrer", async () => {
    setClock(new ManualClock(T0));
    const { secret } = await link();
    const res = await pdf(secret);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="ringside-report-2026-02-01-to-2026-02-28.pdf"');
    expectLinkHeaders(res);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("answers 400 for a malformed secret, 404 for one never issued, 410 once revoked or expired", async () => {
    const clock = new ManualClock(T0);
    setClock(clock);
    await expectRefused(await pdf("not-a-secret"), 400, "not a report link");
    await expectRefused(await pdf("B".repeat(43)), 404, "no report at this address");
    const revoked = await link();
    const { revokeReportLinkOf } = await import("@/lib/services/report-links");
    await revokeReportLinkOf(PERSON.id, revoked.summary.id);
    await expectRefused(await pdf(revoked.secret), 410, "This link is no longer valid.");
    const expiring = await link(1);
    clock.set(T0 + 86_400_000);
    await expectRefused(await pdf(expiring.secret), 410, "This link is no longer valid.");
  });
});

describe("a share link's PDF when the render queue is full", () => {
  it("answers 503 with Retry-After and counts no view; once the queue frees, the PDF comes", async () => {
    setClock(new ManualClock(T0));
    const open = await link();
    const { REPORT_PDF_QUEUE_MAX, reportPdfResponse } = await import("@/components/report/pdf/render");
    const { buildReport } = await import("@/lib/services/report");
    const { listReportLinkSummaries } = await import("@/lib/services/report-links");
    const views = async () => (await listReportLinkSummaries(PERSON.id)).find((l) => l.id === open.summary.id)?.views;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const query = { from: "2026-02-01", to: "2026-02-28", compare: "none" as const, sections: ["summary" as const] };
    const held = Array.from({ length: REPORT_PDF_QUEUE_MAX }, () => reportPdfResponse(() => gate.then(() => buildReport(PERSON.id, query))));
    try {
      const res = await pdf(open.secret);
      await expectRefused(res, 503, "try again");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await views()).toBe(0);
    } finally {
      release();
    }
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
    expect((await pdf(open.secret)).status).toBe(200);
    expect(await views()).toBe(1);
  });
});

describe("a share link's page (the gate in proxy.ts)", () => {
  it("lets an open link's page be drawn and counts the view; refuses a revoked, expired, unknown or malformed one with its status", async () => {
    const clock = new ManualClock(T0);
    setClock(clock);
    const open = await link(2);
    const res = await page(open.secret);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-middleware-next")).toBe("1");
    const { listReportLinkSummaries, revokeReportLinkOf } = await import("@/lib/services/report-links");
    expect((await listReportLinkSummaries(PERSON.id)).find((l) => l.id === open.summary.id)?.views).toBe(1);

    await expectRefused(await page("%20"), 400, "not a report link");
    await expectRefused(await page("C".repeat(43)), 404, "no report at this address");
    clock.set(T0 + 2 * 86_400_000);
    await expectRefused(await page(open.secret), 410, "This link is no longer valid.");
    const revoked = await link(5);
    await revokeReportLinkOf(PERSON.id, revoked.summary.id);
    await expectRefused(await page(revoked.secret), 410, "This link is no longer valid.");
  });

  it("draws only for GET and HEAD: any other method, or a server action's Next-Action header, answers 405 with Allow and counts nothing", async () => {
    setClock(new ManualClock(T0));
    const { installReportLinkGate } = await import("@/lib/services/report-links");
    installReportLinkGate();
    const open = await link();
    const views = async () => {
      const { listReportLinkSummaries } = await import("@/lib/services/report-links");
      return (await listReportLinkSummaries(PERSON.id)).find((l) => l.id === open.summary.id)?.views;
    };
    const { proxy } = await import("@/proxy");
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      for (const path of [`/r/${open.secret}`, `/r/${open.secret}/pdf`]) {
        const res = await proxy(new NextRequest(`http://localhost${path}`, { method, ...(method === "POST" ? { body: "[]" } : {}) }));
        expect({ method, path, status: res.status, allow: res.headers.get("allow") }).toEqual({ method, path, status: 405, allow: "GET, HEAD" });
        expect(res.headers.get("x-middleware-next")).toBeNull();
        expectLinkHeaders(res);
      }
    }
    // a server action's request, whatever its method and origin, never reaches the page
    const actions: Array<NonNullable<ConstructorParameters<typeof NextRequest>[1]> & { method: string }> = [
      { method: "POST", headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8", origin: "http://localhost" }, body: "[]" },
      { method: "GET", headers: { "next-action": "0".repeat(42) } },
    ];
    for (const init of actions) {
      const res = await proxy(new NextRequest(`http://localhost/r/${open.secret}`, init));
      expect({ method: init.method, status: res.status }).toEqual({ method: init.method, status: 405 });
      expect(res.headers.get("x-middleware-next")).toBeNull();
    }
    expect(await views()).toBe(0);
    // GET and HEAD go through the gate: each is a view
    expect((await page(open.secret)).status).toBe(200);
    expect((await proxy(new NextRequest(`http://localhost/r/${open.secret}`, { method: "HEAD" }))).headers.get("x-middleware-next")).toBe("1");
    expect(await views()).toBe(2);
  });

  it("answers 429 with Retry-After past the link's views a minute, the PDF counted with the page", async () => {
    setClock(new ManualClock(T0));
    const busy = await link();
    for (let i = 0; i < REPORT_LINK_VIEWS_PER_MINUTE - 1; i++) expect((await page(busy.secret)).status).toBe(200);
    expect((await pdf(busy.secret)).status).toBe(200);
    const res = await page(busy.secret);
    await expectRefused(res, 429, "opened too often");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await pdf(busy.secret)).status).toBe(429);
  });
});
