// The report on the page: the sections in the report's order, only those included (notes, tags
// and the cycle only when asked for; Events lists no tags), the summary's figures as the report holds them, every chart an SVG
// with an accessible name and a caption in words, kept whole in print, each section after the
// first on a new printed page. The report is a made-up one (lib/test/report-fixture.ts).
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { reportFixture } from "@/lib/test/report-fixture";
import { ReportView } from "@/components/report/report-view";
import { reportFigure, reportMeanCells, reportSleepNeedLine } from "@/components/report/report-text";

/** Text as React writes it into HTML. */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const html = (r: Parameters<typeof ReportView>[0]["report"]) => renderToStaticMarkup(<ReportView report={r} />);

describe("ReportView", () => {
  it("shows the included sections in the report's order, each after the first on a new printed page", () => {
    const out = html(reportFixture({ from: "2026-01-01", days: 90 }));
    const order = ["summary", "charts", "events", "notes", "tags", "cycle", "methods"].map((s) => out.indexOf(`data-testid="report-section-${s}"`));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const sections = out.match(/<section[^>]*>/g)!;
    expect(sections[0]).not.toContain("print:break-before-page");
    for (const s of sections.slice(1)) expect(s).toContain("print:break-before-page");
    expect(out).toContain("Not tracked");
  });

  it("leaves out what the report left out (notes, tags and cycle by default)", () => {
    const out = html(reportFixture({ from: "2026-01-01", days: 30, sections: ["summary", "charts", "events", "methods"], noteText: "private words" }));
    expect(out).not.toContain("report-section-notes");
    expect(out).not.toContain("report-section-tags");
    expect(out).not.toContain("report-section-cycle");
    expect(out).not.toContain("private words");
    // the person's tags are in no section of the default report, Events included
    expect(out).not.toContain("alcohol");
    const onlyEvents = html(reportFixture({ from: "2026-01-01", days: 30, sections: ["events"] }));
    expect(onlyEvents).toContain("report-section-events");
    expect(onlyEvents).not.toContain("report-section-summary");
    expect(onlyEvents.match(/<section[^>]*>/)![0]).not.toContain("print:break-before-page");
  });

  it("writes the summary's means, changes and flagged nights as the report holds them", () => {
    const report = reportFixture({ from: "2026-01-01", days: 90, compare: "previous" });
    const out = html(report);
    for (const m of [...report.summary!.scores, ...report.summary!.physiology]) {
      for (const cell of reportMeanCells(m, true)) expect(out).toContain(esc(cell));
    }
    const ew = report.summary!.earlyWarning;
    expect(out).toContain(`${ew.watch + ew.likely} of ${ew.judged} judged nights flagged`);
    expect(out).toContain(reportFigure(report.summary!.sleepDebt.mean, "h", 1));
    expect(out).toContain(esc(reportSleepNeedLine(report.summary!.sleepNeed)));
    expect(reportSleepNeedLine(report.summary!.sleepNeed)).toBe("7 h 24 min (7 h 08 min – 7 h 40 min), estimated from 84 nights, on 31 Mar 2026");
    expect(reportSleepNeedLine({ ...report.summary!.sleepNeed!, needAtLeast: true })).toMatch(/^at least 7 h 24 min, .* the debt is a lower bound\)$/);
    expect(reportSleepNeedLine(null)).toBe("—");
  });

  it("draws every chart as an SVG with an accessible name and its caption, never cut across a printed page", () => {
    const report = reportFixture({ from: "2026-01-01", days: 90 });
    const out = html(report);
    const figures = out.match(/<figure[^>]*>/g)!;
    expect(figures).toHaveLength(report.charts!.length);
    for (const f of figures) expect(f).toContain("break-inside-avoid");
    for (const c of report.charts!) {
      expect(out).toContain(`<figcaption class="mt-1 text-sm text-slate-600 dark:text-slate-300">${esc(c.caption)}</figcaption>`);
    }
    expect(out.match(/<svg[^>]*role="img"[^>]*aria-label="[^"]+"/g)).toHaveLength(report.charts!.length);
    expect(out).toMatch(/<path d="M[\d.]+ [\d.]+L/);
  });
});
