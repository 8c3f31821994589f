"use client";
// "Show as table": a chart's numbers as a real table in a disclosure, its rows built only when
// it is opened. ChartTable takes the rows as a function (a chart drawn in the browser);
// DaysTable takes what a server-drawn chart can hand over (one formatted value a day, strings)
// and builds the same rows in the browser when opened, so the page carries the values once.
import { useState, type ReactNode } from "react";
import { addDays, formatDay } from "@/lib/days";
import { cn } from "@/components/ui/cn";

export type TableColumn = { label: string; numeric?: boolean };
/** One row: the first cell names the row (a day, a time, a stage), the rest are its values. */
export type TableRow = { key: string; cells: ReadonlyArray<ReactNode> };

/**
 * "Show as table": a disclosure with the chart's numbers as a real table (first column a row
 * header). The rows are built only when it is opened, so a year of days costs nothing until then.
 */
export type ChartTableProps = { caption: string; columns: TableColumn[]; rows: () => TableRow[]; label?: string };

export function ChartTable({ caption, columns, rows, label = "Show as table" }: ChartTableProps) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-1.5 text-xs" data-testid="chart-table" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary
        className={cn(
          "inline-block cursor-pointer rounded px-0.5 font-medium text-brand-700 underline-offset-2 hover:underline",
          "focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-100",
        )}
      >
        {label}
        <span className="sr-only">: {caption}</span>
      </summary>
      {open ? (
        <div
          className={cn(
            "mt-1.5 max-h-72 overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600",
            "dark:border-slate-700",
          )}
          tabIndex={0}
          role="region"
          aria-label={caption}
        >
          <table className="w-full border-collapse text-left tabular-nums">
            <caption className="sr-only">{caption}</caption>
            <thead className="sticky top-0 bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              <tr>
                {columns.map((c) => (
                  <th key={c.label} scope="col" className={c.numeric ? "px-2 py-1 text-right font-semibold" : "px-2 py-1 font-semibold"}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows().map((r) => (
                <tr key={r.key} className="border-t border-slate-100 dark:border-slate-800">
                  {r.cells.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row" className="whitespace-nowrap px-2 py-0.5 font-medium">
                        {cell}
                      </th>
                    ) : (
                      <td key={i} className={columns[i]?.numeric ? "px-2 py-0.5 text-right" : "px-2 py-0.5"}>
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}

export type DaysTableProps = {
  caption: string;
  label?: string;
  /** the value column's heading */
  valueLabel: string;
  /** right-aligned values (numbers) */
  numeric?: boolean;
  /** the last day (the values end on it) */
  end: string;
  /** one shown value a day, oldest first ("—" for none) */
  values: readonly string[];
  /** days with a tag (same slots as values): a "Tagged" column */
  marks?: readonly boolean[];
};

/** A series of days (one value each, ending on `end`) as a table, newest first. */
export function DaysTable({ caption, label, valueLabel, numeric, end, values, marks }: DaysTableProps) {
  const n = values.length;
  return (
    <ChartTable
      caption={caption}
      label={label}
      columns={[{ label: "Day" }, { label: valueLabel, numeric }, ...(marks ? [{ label: "Tagged" }] : [])]}
      rows={() =>
        values
          .map((v, i) => ({ key: String(i), cells: [formatDay(addDays(end, i - (n - 1)), { withYear: true }), v, ...(marks ? [marks[i] ? "yes" : ""] : [])] }))
          .reverse()
      }
    />
  );
}
