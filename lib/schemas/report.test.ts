// The report's query: the periods, the comparison, the sections, and a clear error for each bad input.
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { reportApiQuerySchema, reportQuerySchema } from "@/lib/schemas/report";
import { comparedPeriod, reportSearchParams, sameDayYearEarlier, DEFAULT_REPORT_SECTIONS } from "@/lib/metrics/report";

const parse = (q: Record<string, string>) => reportQuerySchema.safeParse(q);
const messages = (q: Record<string, string>) => {
  const r = parse(q);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("report query", () => {
  afterEach(() => setClock(undefined));

  it("takes from and to, with no comparison and the default sections", () => {
    expect(parse({ from: "2026-01-01", to: "2026-03-31" }).data).toEqual({
      from: "2026-01-01",
      to: "2026-03-31",
      compare: "none",
      sections: [...DEFAULT_REPORT_SECTIONS],
    });
    expect(DEFAULT_REPORT_SECTIONS).not.toContain("notes");
    expect(DEFAULT_REPORT_SECTIONS).not.toContain("cycle");
  });

  it("resolves the last 30 and 90 days against today (UTC) or `to`, and a calendar month", () => {
    setClock(new ManualClock(Date.UTC(2026, 2, 15, 23, 30)));
    expect(parse({ period: "30d" }).data).toMatchObject({ from: "2026-02-14", to: "2026-03-15" });
    expect(parse({ period: "90d", to: "2026-01-31" }).data).toMatchObject({ from: "2025-11-03", to: "2026-01-31" });
    expect(parse({}).data).toMatchObject({ from: "2026-02-14", to: "2026-03-15" });
    expect(parse({ period: "month", month: "2024-02" }).data).toMatchObject({ from: "2024-02-01", to: "2024-02-29" });
    expect(parse({ month: "2025-12" }).data).toMatchObject({ from: "2025-12-01", to: "2025-12-31" });
  });

  it("orders the sections, whatever order they are asked in", () => {
    expect(parse({ from: "2026-01-01", to: "2026-01-31", sections: "notes, summary,charts" }).data?.sections).toEqual(["summary", "charts", "notes"]);
  });

  it("answers a clear error for each bad input", () => {
    expect(messages({ from: "2025-01-01", to: "2026-01-02" })).toEqual(["from: a report covers at most 366 days (a year)"]);
    expect(messages({ from: "2026-02-01", to: "2026-01-31" })).toEqual(["to: to must not be before from"]);
    expect(messages({ from: "2026-01-01", to: "2026-01-31", sections: "summary,vitals" })[0]).toMatch(/^sections: unknown section vitals/);
    expect(messages({ from: "2026-01-01", to: "2026-01-31", sections: "" })[0]).toMatch(/at least one section/);
    expect(messages({ from: "2026-01-01", to: "2026-01-31", compare: "week" })[0]).toMatch(/^compare: must be one of none, previous, year/);
    expect(messages({ period: "month" })[0]).toMatch(/^month: a month period needs month=YYYY-MM/);
    expect(messages({ period: "custom", from: "2026-01-01" })[0]).toMatch(/^to: a custom period needs both/);
    expect(messages({ from: "2026-13-01", to: "2026-12-31" })[0]).toMatch(/^from: must be a date/);
    expect(messages({ month: "2026-1" })[0]).toMatch(/^month: must be a month/);
    expect(reportApiQuerySchema.safeParse({ format: "docx" }).error?.issues[0]?.message).toMatch(/must be one of json, pdf/);
    expect(reportApiQuerySchema.parse({ from: "2026-01-01", to: "2026-01-31" })).toEqual({
      format: "json",
      query: { from: "2026-01-01", to: "2026-01-31", compare: "none", sections: [...DEFAULT_REPORT_SECTIONS] },
    });
  });

  it("accepts a whole leap year", () => {
    expect(parse({ from: "2024-01-01", to: "2024-12-31" }).success).toBe(true);
  });

  it("round-trips through its URL parameters", () => {
    const q = parse({ from: "2026-01-01", to: "2026-01-31", compare: "year", sections: "summary,notes" }).data!;
    expect(parse(Object.fromEntries(reportSearchParams(q))).data).toEqual(q);
  });
});

describe("compared period", () => {
  it("is the days just before, the same days a year earlier, or none", () => {
    expect(comparedPeriod({ from: "2026-03-01", to: "2026-03-31", compare: "previous" })).toEqual({ from: "2026-01-29", to: "2026-02-28" });
    expect(comparedPeriod({ from: "2026-03-01", to: "2026-03-31", compare: "year" })).toEqual({ from: "2025-03-01", to: "2025-03-31" });
    expect(comparedPeriod({ from: "2026-03-01", to: "2026-03-31", compare: "none" })).toBeNull();
    expect(sameDayYearEarlier("2024-02-29")).toBe("2023-02-28");
  });
});
