// The report on the page: the same Report the PDF and the read API give (lib/metrics/report.ts),
// in the same order (summary, charts, events, notes, tags, cycle, methods), each section saying where
// its figures are explained (docs/report.md). Rendered on the server, no script: the report page
// and a share link's page draw it alike. In print, each section starts a new page and no chart
// or table row is cut across one.
import type { ReactNode } from "react";
import {
  REPORT_CHART_GROUPS,
  REPORT_CHART_GROUP_LABELS,
  REPORT_COMPARE_LABELS,
  REPORT_DOCS_PATH,
  REPORT_SECTION_LABELS,
  type Report,
  type ReportCount,
  type ReportCycle,
  type ReportEvents,
  type ReportMean,
  type ReportMethods,
  type ReportNote,
  type ReportSection,
  type ReportSummary,
  type ReportTag,
} from "@/lib/metrics/report";
import { MARKER_LABELS, type Marker } from "@/lib/signals/early-warning";
import { downloadingLine } from "@/lib/metrics/report";
import { formatNumber } from "@/lib/metrics/format";
import { ReportChartView } from "@/components/report/report-chart";
import { REPORT_CYCLE_HEADS, reportCycleNote, reportCycleRows } from "@/components/report/report-cycle";
import {
  REPORT_EMPTY_DOWNLOADING,
  reportDay,
  reportFigureLine,
  reportMeanCells,
  reportMeanHeads,
  reportMinutes,
  reportPeriod,
  reportPerson,
  reportSleepNeedLine,
} from "@/components/report/report-text";

const DOWNLOADING = [
  "rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950",
  "dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100 print:border-slate-400 print:bg-white print:text-black",
].join(" ");

function Section({ id, first, children }: { id: ReportSection; first?: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby={`report-${id}`} data-testid={`report-section-${id}`} className={first ? "space-y-3" : "space-y-3 print:break-before-page"}>
      <h2 id={`report-${id}`} className="text-xl font-semibold">
        {REPORT_SECTION_LABELS[id]}
      </h2>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        How these figures are computed:{" "}
        <a className="underline" href={`${REPORT_DOCS_PATH}#${id}`}>
          the report&apos;s methods, &ldquo;{REPORT_SECTION_LABELS[id]}&rdquo;
        </a>
        .
      </p>
      {children}
    </section>
  );
}

function H3({ children }: { children: ReactNode }) {
  return <h3 className="pt-2 text-base font-semibold">{children}</h3>;
}

function Muted({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-600 dark:text-slate-300">{children}</p>;
}

function Table({ caption, heads, rows, numeric = [] }: { caption: string; heads: string[]; rows: string[][]; numeric?: number[] }) {
  const align = (i: number) => (numeric.includes(i) ? "text-right tabular-nums" : "text-left");
  return (
    // a region that scrolls sideways on a narrow screen: reachable and named for the keyboard
    <div className="overflow-x-auto print:overflow-visible" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-700">
            {heads.map((h, i) => (
              <th key={h} scope="col" className={`px-2 py-1 font-medium ${align(i)}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="break-inside-avoid border-b border-slate-200 dark:border-slate-800">
              {r.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className={`px-2 py-1 font-normal ${align(j)}`}>
                    {cell}
                  </th>
                ) : (
                  <td key={j} className={`px-2 py-1 ${align(j)}`}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyValues({ items }: { items: Array<[string, string]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium">{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Means({ caption, means, compared }: { caption: string; means: ReportMean[]; compared: boolean }) {
  const heads = reportMeanHeads(compared);
  return <Table caption={caption} heads={heads} rows={means.map((m) => reportMeanCells(m, compared))} numeric={heads.map((_, i) => i).slice(1)} />;
}

function SummarySection({ s }: { s: ReportSummary }) {
  const compared = s.compared !== null;
  const ew = s.earlyWarning;
  return (
    <Section id="summary" first>
      <KeyValues
        items={[
          ...(reportPerson(s.person) ? [["Person", reportPerson(s.person)] as [string, string]] : []),
          ["Period", `${reportPeriod(s)} (${s.days} days)`],
          ["Compared with", s.compared ? `${REPORT_COMPARE_LABELS[s.compare]}: ${reportPeriod(s.compared)}` : REPORT_COMPARE_LABELS.none],
          ["Nights with data", `${s.nightsWithData} of ${s.days}`],
          ["Days with data", `${s.daysWithData} of ${s.days}`],
        ]}
      />
      <H3>Scores</H3>
      <Means caption="Means of the scores" means={s.scores} compared={compared} />
      <H3>Nightly physiology</H3>
      <Means caption="Means of the nightly physiology" means={s.physiology} compared={compared} />
      <H3>Early warning</H3>
      <p className="text-sm" data-testid="report-flagged">
        {`${ew.watch + ew.likely} of ${ew.judged} judged nights flagged: ${ew.likely} likely, ${ew.watch} watch.`}
      </p>
      {ew.nights.length > 0 && (
        <Table
          caption="Nights early warning flagged"
          heads={["Night", "Level", "Flags", "Markers", "Rest mode"]}
          numeric={[2]}
          rows={ew.nights.map((n) => [
            reportDay(n.day),
            n.level,
            String(n.flags),
            n.markers.map((m) => MARKER_LABELS[m as Marker] ?? m).join(", ") || "—",
            n.muted ? "on (not alerted)" : "off",
          ])}
        />
      )}
      <H3>Sleep debt and regularity</H3>
      <KeyValues
        items={[
          ["Sleep debt", reportFigureLine(s.sleepDebt, "h", 1)],
          ["Sleep need", reportSleepNeedLine(s.sleepNeed)],
          ["Sleep Regularity Index (SRI)", reportFigureLine(s.regularity.sri, "", 0)],
          ["Bedtime spread (SD)", reportFigureLine(s.regularity.bedtimeSdMin, "min", 0)],
          ["Wake-time spread (SD)", reportFigureLine(s.regularity.wakeTimeSdMin, "min", 0)],
        ]}
      />
    </Section>
  );
}

function ChartsSection({ report, first }: { report: Report; first: boolean }) {
  const charts = report.charts ?? [];
  return (
    <Section id="charts" first={first}>
      {REPORT_CHART_GROUPS.map((g) => {
        const inGroup = charts.filter((c) => c.group === g);
        if (inGroup.length === 0) return null;
        return (
          <div key={g} className="space-y-3">
            <H3>{REPORT_CHART_GROUP_LABELS[g]}</H3>
            <div className="grid gap-3 lg:grid-cols-2 print:block print:space-y-3">
              {inGroup.map((c) => (
                <ReportChartView key={c.id} chart={c} from={report.query.from} emptyReason={report.downloading ? REPORT_EMPTY_DOWNLOADING : null} />
              ))}
            </div>
          </div>
        );
      })}
    </Section>
  );
}

function Counts({ caption, counts }: { caption: string; counts: ReportCount[] }) {
  return (
    <Table
      caption={caption}
      heads={["Type", "Count", "Time", "Calories"]}
      numeric={[1, 2, 3]}
      rows={counts.map((c) => [c.label, String(c.count), reportMinutes(c.minutes), c.calories === null ? "—" : `${formatNumber(c.calories)} kcal`])}
    />
  );
}

function EventsSection({ e, first }: { e: ReportEvents; first: boolean }) {
  return (
    <Section id="events" first={first}>
      <H3>Workouts by type</H3>
      {e.workouts.length ? <Counts caption="Workouts by type" counts={e.workouts} /> : <Muted>No workouts in the period.</Muted>}
      <H3>Sessions by type</H3>
      {e.sessions.length ? <Counts caption="Sessions by type" counts={e.sessions} /> : <Muted>No sessions in the period.</Muted>}
      <H3>Rest mode</H3>
      {e.restModes.length ? (
        <ul className="list-disc pl-5 text-sm">
          {e.restModes.map((r) => (
            <li key={r.from}>{`${reportDay(r.from)} to ${r.to ? reportDay(r.to) : "still on"}`}</li>
          ))}
        </ul>
      ) : (
        <Muted>No rest-mode periods in the period.</Muted>
      )}
    </Section>
  );
}

function NotesSection({ notes, first }: { notes: ReportNote[]; first: boolean }) {
  return (
    <Section id="notes" first={first}>
      {notes.length ? (
        <Table caption="Notes" heads={["Day", "Note", "Tags"]} rows={notes.map((n) => [reportDay(n.day), n.text, n.tags.join(", ")])} />
      ) : (
        <Muted>No notes in the period.</Muted>
      )}
    </Section>
  );
}

function TagsSection({ tags, first }: { tags: ReportTag[]; first: boolean }) {
  return (
    <Section id="tags" first={first}>
      {tags.length ? (
        <Table
          caption="Tags and their days"
          heads={["Tag", "From", "Days", "On"]}
          numeric={[2]}
          rows={tags.map((t) => [t.name, t.source === "own" ? "You" : "Ring app", String(t.days.length), t.days.map(reportDay).join(", ")])}
        />
      ) : (
        <Muted>No tags in the period.</Muted>
      )}
    </Section>
  );
}

function CycleSection({ cycle, first }: { cycle: ReportCycle; first: boolean }) {
  const rows = reportCycleRows(cycle);
  return (
    <Section id="cycle" first={first}>
      <Muted>{reportCycleNote(cycle)}</Muted>
      {rows.length ? <Table caption="Cycles" heads={REPORT_CYCLE_HEADS} rows={rows} /> : null}
    </Section>
  );
}

function MethodsSection({ m, first }: { m: ReportMethods; first: boolean }) {
  const device = m.device ? [m.device.hardware, m.device.firmware ? `firmware ${m.device.firmware}` : null].filter(Boolean).join(", ") : "";
  const sources = [m.sources.synced ? "synced from the ring's service" : null, m.sources.imported ? "imported from files" : null].filter(Boolean).join("; ");
  return (
    <Section id="methods" first={first}>
      <KeyValues
        items={[
          ["Device", device || "not known"],
          ["Data sources", sources || "none in the period"],
        ]}
      />
      <H3>Units</H3>
      <KeyValues items={m.units.map((u) => [u.label, u.unit] as [string, string])} />
      <H3>Baselines, normal ranges and signals</H3>
      {m.baselines.map((b, i) => (
        <p key={i} className="text-sm">
          {b}
        </p>
      ))}
      <H3>Gaps</H3>
      {m.gaps.length ? (
        <ul className="list-disc pl-5 text-sm">
          {m.gaps.map((g) => (
            <li key={g.from}>{`${reportPeriod(g)}: ${g.days} days without data`}</li>
          ))}
        </ul>
      ) : (
        <Muted>No gaps of several days in the period.</Muted>
      )}
      <H3>Not a diagnosis</H3>
      <p className="text-sm">{m.disclaimer}</p>
    </Section>
  );
}

/** The report's sections, in the report's order; the first one does not start a new printed page. */
export function ReportView({ report }: { report: Report }) {
  const shown: ReportSection[] = [];
  const first = (id: ReportSection) => (shown.push(id), shown.length === 1);
  return (
    <div className="space-y-8" data-testid="report">
      {report.downloading ? (
        <p role="status" data-testid="history-downloading" className={DOWNLOADING}>
          {downloadingLine(report.downloading, reportDay)} Its charts fill in as it arrives.
        </p>
      ) : null}
      {report.summary && first("summary") && <SummarySection s={report.summary} />}
      {report.charts && <ChartsSection report={report} first={first("charts")} />}
      {report.events && <EventsSection e={report.events} first={first("events")} />}
      {report.notes && <NotesSection notes={report.notes} first={first("notes")} />}
      {report.tags && <TagsSection tags={report.tags} first={first("tags")} />}
      {report.cycle && <CycleSection cycle={report.cycle} first={first("cycle")} />}
      {report.methods && <MethodsSection m={report.methods} first={first("methods")} />}
    </div>
  );
}
