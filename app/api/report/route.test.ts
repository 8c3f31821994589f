// GET /api/report (issue 45): the signed-in person's report as a PDF download. On a history the
// test plants through Ringside's own import (lib/test/signal-history.ts, an episode at its end),
// the PDF's text holds the same figures as the report's numbers (the read API's JSON form of the
// same report, built by the same service): every summary mean, the nights with data, each flagged
// night. It opens in a standard reader, is named for its period, and bad queries get their 4xx.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, formatDay } from "@/lib/days";
import { formatFigure } from "@/components/report/pdf/format";
import { pdfText } from "@/components/report/pdf/text";
import type { Report, ReportMean } from "@/lib/metrics/report";
import { plantedHistory } from "@/lib/test/signal-history";

const USER = "u-report-pdf";
const FIRST = "2025-11-01";
const LAST = "2026-03-31";
const FROM = addDays(LAST, -89);
const history = plantedHistory({ from: FIRST, to: LAST, episodeNights: 3 });

const session = vi.hoisted(() => ({ user: null as null | { id: string; email: string; role: "owner" } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => {
    const { AppError } = await import("@/lib/http/errors");
    if (!session.user) throw new AppError("unauthorized", "Sign in first.");
    return session.user;
  },
  currentUser: async () => session.user,
}));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-report-route-"));
afterAll(() => (process.env.KEEP_PDF ? undefined : fs.rmSync(dir, { recursive: true, force: true })));

async function getPdf(query: string): Promise<Response> {
  const { GET } = await import("./route");
  return (GET as unknown as Handler)(new Request(`http://localhost/api/report?${query}`), { params: Promise.resolve({}) });
}

beforeAll(async () => {
  const { db } = await import("@/lib/test/prisma");
  await db.user.create({ data: { id: USER, email: "pdf@example.test", name: "Pat Planted", role: "owner" } });
  session.user = { id: USER, email: "pdf@example.test", role: "owner" };
  const { POST } = await import("@/app/api/import/route");
  const res = await (POST as unknown as Handler)(
    new Request("http://localhost/api/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify(history.file),
    }),
    { params: Promise.resolve({}) },
  );
  expect(res.status).toBe(200);
});

describe("GET /api/report", () => {
  it("answers the person's report as a PDF whose text holds the report's figures", async () => {
    const query = `from=${FROM}&to=${LAST}&compare=previous&sections=summary,charts,events,methods`;
    const res = await getPdf(query);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="ringside-report-${FROM}-to-${LAST}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const file = path.join(dir, "report.pdf");
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));

    // opens and renders every page
    const pages = Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);
    expect(pages).toBeGreaterThanOrEqual(3);
    execFileSync("pdftoppm", ["-r", "15", "-png", file, path.join(dir, "page")], { stdio: ["ignore", "ignore", "pipe"] });
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("page-"))).toHaveLength(pages);

    // the same report as numbers: the service the read API's JSON form answers with
    const { buildReport } = await import("@/lib/services/report");
    const { reportQuerySchema } = await import("@/lib/schemas/report");
    const report: Report = await buildReport(USER, reportQuerySchema.parse(Object.fromEntries(new URLSearchParams(query))));
    const s = report.summary!;
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("Pat Planted");
    expect(text).toContain(`(${s.days} days)`);
    expect(text).toContain(`${s.nightsWithData} of ${s.days}`);
    // each mean in its row, beside its label, at the report's decimals
    const means = [...s.scores, ...s.physiology].filter((m) => m.mean !== null);
    expect(means.length).toBeGreaterThanOrEqual(6);
    const signed = (m: ReportMean) => m.metric === "readiness.temperature_deviation";
    for (const m of means) expect(text, m.label).toContain(`${m.label} ${formatFigure(m.mean, m.unit, m.decimals, signed(m))} ${m.n}`);
    expect(s.earlyWarning.nights.length).toBeGreaterThan(0); // the planted episode
    for (const n of s.earlyWarning.nights) expect(text).toContain(`${formatDay(n.day, { withYear: true, withWeekday: false })} ${n.level}`);
    // each chart's caption (as Helvetica sets it: components/report/pdf/text.ts)
    for (const c of report.charts!) expect(text).toContain(pdfText(c.caption).replace(/\s+/g, " ").slice(0, 60));
  });

  it("a bad query is a 422 that says what is wrong; no session is a 401", async () => {
    for (const [query, why] of [
      [`from=2025-01-01&to=2026-03-31`, /at most 366 days/],
      [`from=${LAST}&to=${FROM}`, /to must not be before from/],
      [`from=${FROM}&to=${LAST}&sections=summary,secrets`, /unknown section secrets/],
      [`from=${FROM}&to=${LAST}&compare=decade`, /must be one of none, previous, year/],
    ] as const) {
      const res = await getPdf(query);
      expect(res.status, query).toBe(422);
      expect(JSON.stringify(await res.json())).toMatch(why);
    }
    const user = session.user;
    session.user = null;
    try {
      expect((await getPdf(`from=${FROM}&to=${LAST}`)).status).toBe(401);
    } finally {
      session.user = user;
    }
  });
});
