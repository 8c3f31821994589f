// The report's PDF (issue 45): it opens in a standard reader (poppler's pdftoppm renders every
// page), its text is real (pdftotext finds the person's figures), and its title and language are
// set. The report is a made-up one (lib/test/report-fixture.ts); the figures' agreement with the
// read API is lib/services/report's test. Needs poppler-utils (.ci/run installs it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { addDays, formatDay } from "@/lib/days";
import { formatNumber } from "@/lib/metrics/format";
import { reportFileName, type Report } from "@/lib/metrics/report";
import { reportFixture } from "@/lib/test/report-fixture";
import { renderReportPdf, REPORT_PDF_QUEUE_MAX, reportPdfResponse } from "./render";
import { formatFigure, writtenUnit } from "./format";
import { pdfText } from "./text";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-report-pdf-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function rendered(name: string, report: Parameters<typeof renderReportPdf>[0], docsUrl?: string) {
  const bytes = await renderReportPdf(report, { docsUrl });
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  // the text as a reader extracts it, runs of white space as one space
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  return { bytes, file, info, pages, text };
}

/** pdftoppm renders every page (at a low resolution): one image a page, none empty. */
function renderEveryPage(file: string, pages: number): void {
  const prefix = path.join(dir, path.basename(file, ".pdf"));
  execFileSync("pdftoppm", ["-r", "20", "-png", file, prefix], { stdio: ["ignore", "ignore", "pipe"] });
  const images = fs.readdirSync(dir).filter((f) => f.startsWith(path.basename(prefix) + "-") && f.endsWith(".png"));
  expect(images).toHaveLength(pages);
  for (const img of images) expect(fs.statSync(path.join(dir, img)).size).toBeGreaterThan(100);
}

describe("the report's PDF", () => {
  it("a 90-day report opens, every page renders, its text holds the person's figures, its title and language are set", async () => {
    const report = reportFixture({ from: "2026-01-01", days: 90, name: "Ada Fixture" });
    const { bytes, file, info, pages, text } = await rendered(reportFileName(report.query), report, "https://ringside.example/docs/report");
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pages).toBeGreaterThanOrEqual(4); // summary, charts (several pages), events, methods
    renderEveryPage(file, pages);

    expect(info).toMatch(/^Title:\s+Ringside report, 2026-01-01 to 2026-03-31$/m);
    expect(bytes.toString("latin1")).toMatch(/\/Lang \(en\)/);

    // who and when, the means with their change and range, the flagged nights, debt and regularity
    const s = report.summary!;
    expect(text).toContain("Ada Fixture, 41 years");
    expect(text).toContain("1 Jan 2026 to 31 Mar 2026 (90 days)");
    expect(text).toContain(`${s.nightsWithData} of 90`);
    expect(text).toContain("52.3 bpm");
    expect(text).toContain(`${formatNumber(52.3 - 1.25, 1)} bpm`); // the compared period's mean
    expect(text).toContain("Days Compared Change");
    expect(text).toContain("+1.3 bpm"); // the change
    expect(text).toContain("49.3 bpm to 55.3 bpm"); // the normal range
    expect(text).toContain("+0.13 °C");
    expect(text).toContain("96.4%");
    expect(text).toContain("81.4");
    for (const n of s.earlyWarning.nights) expect(text).toContain(formatDay(n.day, { withYear: true, withWeekday: false }));
    expect(text).toContain(`${s.earlyWarning.watch + s.earlyWarning.likely} of ${s.earlyWarning.judged} judged nights flagged`);
    expect(text).toContain("Resting heart rate");
    expect(text).toContain("1.7 h mean");
    // the need the debt was measured against: its range and its source (a key's value may wrap onto a second line)
    expect(text.replace(/\s+/g, " ")).toContain("7 h 24 min (7 h 08 min – 7 h 40 min), estimated from 84 nights, on 31 Mar 2026");
    expect(text).toContain("78 mean over"); // the SRI, whole points

    // charts with their captions, events, notes, the cycle, methods and "not a diagnosis"
    for (const c of report.charts!) expect(text).toContain(c.caption);
    expect(text).toContain("7-day mean");
    expect(text).toContain("Normal range");
    expect(text).toContain("Running");
    expect(text).toContain("alcohol");
    expect(text).toContain("Slept badly after a late flight.");
    expect(text).toContain("Not tracked");
    expect(text).toContain("not a diagnosis");
    expect(text).toContain("docs/report.md");
    expect(text).toMatch(/Page 1 of \d+/);
  });

  it("leaves out every section the report does not hold", async () => {
    const report = reportFixture({ from: "2026-01-01", days: 30, compare: "none", sections: ["summary", "methods"] });
    const { file, pages, text } = await rendered("summary-only.pdf", report);
    renderEveryPage(file, pages);
    expect(text).toContain("Lowest heart rate");
    expect(text).not.toContain("Days Compared Change"); // no comparison columns
    expect(text).toContain("No comparison");
    expect(text).not.toContain("Charts");
    expect(text).not.toContain("Workouts by type");
    expect(text).not.toContain("Slept badly");
    expect(text).not.toContain("Cycle");
    expect(text).toContain("Methods");
  });

  it("a year's report renders whole, its charts as vector paths (no image in the file)", async () => {
    const report = reportFixture({ from: "2025-01-01", days: 365, compare: "year" });
    const { bytes, file, pages, text } = await rendered("year.pdf", report);
    renderEveryPage(file, pages);
    expect(text).toContain("1 Jan 2025 to 31 Dec 2025 (365 days)");
    expect(bytes.toString("latin1")).not.toMatch(/\/Subtype\s*\/Image/);

    // every page numbered of the whole; each chart's title and caption on one page (no chart cut across pages)
    const pageTexts = Array.from({ length: pages }, (_, i) =>
      execFileSync("pdftotext", ["-f", String(i + 1), "-l", String(i + 1), file, "-"], { encoding: "utf8" }).replace(/\s+/g, " "),
    );
    pageTexts.forEach((t, i) => expect(t).toContain(`Page ${i + 1} of ${pages}`));
    for (const c of report.charts!) {
      const onPages = pageTexts.flatMap((t, i) => (t.includes(pdfText(c.caption)) ? [i] : []));
      expect(onPages, c.id).toHaveLength(1);
      expect(pageTexts[onPages[0]!], c.id).toContain(c.title);
    }
  });

  it("a table row taller than a page goes on over the next page, nothing lost or cut", async () => {
    // a year's days twice over: taller than a page (a tag on every day of a year fits on one)
    const report = reportFixture({ from: "2025-01-01", days: 365 });
    const days = Array.from({ length: 730 }, (_, i) => addDays("2024-01-01", i));
    report.tags = [{ name: "every day", source: "own", days }];
    const { file, pages, text } = await rendered("long-row.pdf", report);
    renderEveryPage(file, pages);
    const onPage = (day: string) =>
      Array.from({ length: pages }, (_, i) => i + 1).filter((p) =>
        execFileSync("pdftotext", ["-f", String(p), "-l", String(p), file, "-"], { encoding: "utf8" })
          .replace(/\s+/g, " ")
          .includes(formatDay(day, { withYear: true, withWeekday: false })),
      );
    const [first, last] = [onPage(days[0]!), onPage(days[729]!)];
    expect(first).toHaveLength(1);
    expect(last).toHaveLength(1);
    expect(last[0]!).toBeGreaterThan(first[0]!); // the row went on over the next pages
    for (const d of [days[0]!, days[365]!, days[729]!]) expect(text).toContain(formatDay(d, { withYear: true, withWeekday: false }));
    expect(text).toContain("Rest mode");
  });

  it("a report made during a back-fill says so at the top, its empty charts say No data in this period, and no axis repeats a label", async () => {
    const report = reportFixture({ from: "2026-01-01", days: 90, downloading: { from: "2026-02-14" } });
    const none = (xs: readonly unknown[]) => xs.map(() => null);
    // the sleep charts empty (the sleep periods not downloaded yet); steps flat at a few counts (one label a step apart)
    report.charts = report.charts!.map((c) =>
      c.group !== "sleep"
        ? c.id === "activity.steps" && c.kind === "line"
          ? { ...c, decimals: 0, value: c.value.map((v, i) => (v === null ? null : 3 + (i % 2))), avg7: none(c.avg7), low: none(c.low), high: none(c.high) }
          : c
        : c.kind === "line"
          ? { ...c, value: none(c.value), avg7: none(c.avg7), low: none(c.low), high: none(c.high) }
          : c.kind === "stages"
            ? { ...c, deep: none(c.deep), rem: none(c.rem), light: none(c.light), awake: none(c.awake) }
            : { ...c, bedtime: none(c.bedtime), wakeTime: none(c.wakeTime) },
    );
    const empty = report.charts.filter((c) => c.group === "sleep");
    expect(empty.length).toBeGreaterThanOrEqual(3);
    const { file, pages, text } = await rendered("downloading.pdf", report);
    renderEveryPage(file, pages);
    const firstPage = execFileSync("pdftotext", ["-f", "1", "-l", "1", file, "-"], { encoding: "utf8" });
    expect(firstPage).toContain("History still downloading: data from 14 Feb 2026 on.");
    expect(text.split("No data in this period").length - 1).toBe(empty.length);
    expect(text.split("The history is still downloading.").length - 1).toBe(empty.length);
    for (const c of empty) expect(text).toContain(c.caption);

    // the value axes' labels: numbers right-aligned against the plot's left edge (x = 71 pt); a chart's run of them ends at
    // the first other word below them (its legend)
    const words = [
      ...execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" }).matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)</g),
    ];
    const axes: string[][] = [];
    let open = false;
    let last = 0;
    for (const [, yMin, xMax, word] of words) {
      const y = Number(yMin);
      if (Math.abs(Number(xMax) - 71) < 0.5 && /^[−-]?[\d.,:]+$/.test(word!)) {
        if (!open) axes.push([]);
        axes.at(-1)!.push(word!);
        open = true;
        last = y;
      } else if (open && y > last + 1) open = false;
    }
    expect(axes.length).toBeGreaterThanOrEqual(report.charts.length - empty.length);
    for (const labels of axes) expect(new Set(labels).size, labels.join(", ")).toBe(labels.length);
  });

  it("a note in any script comes out as text Helvetica can set, never as stray glyphs", async () => {
    const report = reportFixture({ from: "2026-01-01", days: 30, noteText: "Fièvre −0,5 °C ≤ 2 nuits → mieux. Łódź. 日本" });
    const { text } = await rendered("note.pdf", report);
    expect(text).toContain("Fièvre -0,5 °C <= 2 nuits -> mieux. Lódz. ??");
  });
});

describe("the render queue", () => {
  it(`holds at most ${REPORT_PDF_QUEUE_MAX} reports (building or waiting to be drawn); past that, 503 with when to come back, and it frees as they end`, async () => {
    const report = reportFixture({ from: "2026-01-01", days: 30, name: "Ada Queue" });
    let release!: () => void;
    const held = new Promise<Report>((r) => (release = () => r(report)));
    const queued = Array.from({ length: REPORT_PDF_QUEUE_MAX }, () => reportPdfResponse(() => held));
    let built = 0;
    const refused = await reportPdfResponse(async () => {
      built++;
      return report;
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503, code: "service_unavailable", details: { retryAfterS: expect.any(Number) } });
    expect(built).toBe(0);
    const { toErrorResponse } = await import("@/lib/http/errors");
    expect(Number(toErrorResponse(refused).headers.get("retry-after"))).toBeGreaterThan(0);
    release();
    for (const res of await Promise.all(queued)) expect(res.status).toBe(200);
    // a build that fails frees its place too
    await expect(reportPdfResponse(() => Promise.reject(new Error("no database")))).rejects.toThrow("no database");
    expect((await reportPdfResponse(async () => report)).status).toBe(200);
  });
});

describe("formatFigure", () => {
  it("writes the number at the report's decimals with its unit, a sign for changes, ±0 for none, — for no value", () => {
    expect(formatFigure(52.34, "bpm", 1)).toBe("52.3 bpm");
    expect(formatFigure(96.4, "%", 1)).toBe("96.4%");
    expect(formatFigure(78, "score", 0)).toBe("78");
    expect(formatFigure(0.21, "°C", 2, true)).toBe("+0.21 °C");
    expect(formatFigure(-1.5, "ms", 1, true)).toBe("−1.5 ms");
    expect(formatFigure(0.004, "°C", 2, true)).toBe("±0 °C");
    expect(formatFigure(null, "bpm", 1)).toBe("—");
    expect([writtenUnit("bpm"), writtenUnit("score"), writtenUnit("")]).toEqual(["bpm", "", ""]);
  });
});

describe("pdfText", () => {
  it("keeps Windows-1252, turns Ringside's signs into plain ones, strips accents outside the set, and marks the rest", () => {
    expect(pdfText("52.3 bpm · +0.13 °C — ±1 … “ok” € é")).toBe("52.3 bpm · +0.13 °C — ±1 … “ok” € é");
    expect(pdfText("−1.3 ≤ 2 ≥ 1 → SpO₂")).toBe("-1.3 <= 2 >= 1 -> SpO2");
    expect(pdfText("Łódź ő")).toBe("Lódz o");
    expect(pdfText("日本\u0000")).toBe("???");
  });
});
