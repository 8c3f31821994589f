// The report as a PDF document (issue 45): the same Report the page shows (lib/metrics/report.ts),
// in the issue's order: the summary page, the charts, the events (with the notes and the cycle
// when the person included them), then the methods. Real text in the built-in Helvetica, the
// document's title and language set, the charts as vectors (./charts.tsx). Each section starts a
// new page and says where its figures are explained (docs/report.md); every page carries the
// period, "not a diagnosis" and its number. Plain function components without hooks: the PDF
// renderer runs them with its own React (./render.ts).
import type { ComponentProps } from "react";
import { Document, Link, Page, Text, View } from "@react-pdf/renderer";
import { formatDay } from "@/lib/days";
import { formatNumber } from "@/lib/metrics/format";
import { formatFigure } from "./format";
import {
  REPORT_CHART_GROUPS,
  REPORT_CHART_GROUP_LABELS,
  REPORT_COMPARE_LABELS,
  REPORT_SECTION_LABELS,
  type Report,
  type ReportCycle,
  type ReportEvents,
  type ReportFigure,
  type ReportMean,
  type ReportMethods,
  type ReportNote,
  type ReportSection,
  type ReportSummary,
} from "@/lib/metrics/report";
import { MARKER_LABELS, type Marker } from "@/lib/signals/early-warning";
import { CHART_HEIGHT, ReportChartPdf } from "./charts";
import { styles } from "./styles";
import { REPORT_CYCLE_HEADS, reportCycleNote, reportCycleRows } from "@/components/report/report-cycle";
import { pdfText } from "./text";

/** Where the figures are explained: the docs page's address, when the caller knows the server's origin. */
export type ReportDocumentOptions = { docsUrl?: string };

const day = (d: string) => formatDay(d, { withYear: true, withWeekday: false });
const period = (p: { from: string; to: string }) => `${day(p.from)} to ${day(p.to)}`;

const signedUnit = (m: Pick<ReportMean, "metric">) => m.metric === "readiness.temperature_deviation";

type PdfStyle = ComponentProps<typeof View>["style"];

function T({ children, style }: { children: string; style?: PdfStyle }) {
  return <Text style={style}>{pdfText(children)}</Text>;
}

function DocsRef({ section, docsUrl }: { section: ReportSection; docsUrl?: string }) {
  const anchor = section;
  const words = `How these figures are computed: docs/report.md, "${REPORT_SECTION_LABELS[section]}".`;
  return docsUrl ? (
    <Link src={`${docsUrl}#${anchor}`} style={[styles.ref, styles.link]}>
      {pdfText(words)}
    </Link>
  ) : (
    <T style={styles.ref}>{words}</T>
  );
}

type Column = { head: string; width: number | string; align?: "right" | "left" };

function Table({ columns, rows }: { columns: Column[]; rows: string[][] }) {
  return (
    <View style={styles.table}>
      <View style={styles.headRow} fixed>
        {columns.map((c) => (
          <Text key={c.head} style={[styles.headCell, { width: c.width, textAlign: c.align ?? "left" }]}>
            {pdfText(c.head)}
          </Text>
        ))}
      </View>
      {rows.map((r, i) => (
        <View key={i} style={styles.row} wrap={false}>
          {r.map((cell, j) => (
            <Text key={j} style={[styles.cell, { width: columns[j]!.width, textAlign: columns[j]!.align ?? "left" }]}>
              {pdfText(cell)}
            </Text>
          ))}
        </View>
      ))}
    </View>
  );
}

function KeyValue({ k, v }: { k: string; v: string }) {
  return (
    <View style={styles.keyValue}>
      <T style={styles.key}>{k}</T>
      <T>{v}</T>
    </View>
  );
}

const RANGE_WORDS = { below: "below", within: "within", above: "above" } as const;

function meanRow(m: ReportMean, compared: boolean): string[] {
  const signed = signedUnit(m);
  const range = m.range ? `${formatFigure(m.range.low, m.unit, m.decimals, signed)} to ${formatFigure(m.range.high, m.unit, m.decimals, signed)}` : "—";
  return [
    m.label,
    formatFigure(m.mean, m.unit, m.decimals, signed),
    String(m.n),
    ...(compared ? [formatFigure(m.compared?.mean, m.unit, m.decimals, signed), formatFigure(m.compared?.delta, m.unit, m.decimals, true)] : []),
    range,
    m.range ? `${RANGE_WORDS[m.range.state]}${m.range.source === "baseline" ? " (baseline band)" : ""}` : "—",
  ];
}

function MeansTable({ means, compared }: { means: ReportMean[]; compared: boolean }) {
  const columns: Column[] = [
    { head: "Measure", width: compared ? "22%" : "30%" },
    { head: "Mean", width: "12%", align: "right" },
    { head: "Days", width: "7%", align: "right" },
    ...(compared
      ? [
          { head: "Compared", width: "12%", align: "right" as const },
          { head: "Change", width: "10%", align: "right" as const },
        ]
      : []),
    { head: "Normal range", width: compared ? "22%" : "27%", align: "right" },
    { head: "Mean is", width: compared ? "15%" : "24%", align: "right" },
  ];
  return <Table columns={columns} rows={means.map((m) => meanRow(m, compared))} />;
}

const figureLine = (f: ReportFigure, unit: string, decimals: number) =>
  `${formatFigure(f.mean, unit, decimals)} mean over ${f.n} ${f.n === 1 ? "day" : "days"}` +
  (f.last ? `; last ${formatFigure(f.last.value, unit, decimals)} on ${day(f.last.day)}` : "");

function SummarySection({ s, docsUrl }: { s: ReportSummary; docsUrl?: string }) {
  const compared = s.compared !== null;
  const ew = s.earlyWarning;
  return (
    <View>
      <T style={styles.h2}>Summary</T>
      <DocsRef section="summary" docsUrl={docsUrl} />
      {s.person.name ? <KeyValue k="Person" v={`${s.person.name}${s.person.age !== null ? `, ${s.person.age} years` : ""}`} /> : null}
      <KeyValue k="Period" v={`${period(s)} (${s.days} days)`} />
      <KeyValue k="Compared with" v={s.compared ? `${REPORT_COMPARE_LABELS[s.compare]}: ${period(s.compared)}` : REPORT_COMPARE_LABELS.none} />
      <KeyValue k="Nights with data" v={`${s.nightsWithData} of ${s.days}`} />
      <KeyValue k="Days with data" v={`${s.daysWithData} of ${s.days}`} />

      <T style={styles.h3}>Scores</T>
      <MeansTable means={s.scores} compared={compared} />
      <T style={styles.h3}>Nightly physiology</T>
      <MeansTable means={s.physiology} compared={compared} />

      <View wrap={false}>
        <T style={styles.h3}>Early warning</T>
        <T style={styles.paragraph}>{`${ew.watch + ew.likely} of ${ew.judged} judged nights flagged: ${ew.likely} likely, ${ew.watch} watch.`}</T>
      </View>
      {ew.nights.length > 0 ? (
        <Table
          columns={[
            { head: "Night", width: "22%" },
            { head: "Level", width: "12%" },
            { head: "Flags", width: "8%", align: "right" },
            { head: "Markers", width: "40%" },
            { head: "Rest mode", width: "18%" },
          ]}
          rows={ew.nights.map((n) => [
            day(n.day),
            n.level,
            String(n.flags),
            n.markers.map((m) => MARKER_LABELS[m as Marker] ?? m).join(", ") || "—",
            n.muted ? "on (not alerted)" : "off",
          ])}
        />
      ) : null}

      <View wrap={false}>
        <T style={styles.h3}>Sleep debt and regularity</T>
        <KeyValue k="Sleep debt" v={figureLine(s.sleepDebt, "h", 1)} />
        <KeyValue k="Sleep Regularity Index (SRI)" v={figureLine(s.regularity.sri, "", 0)} />
        <KeyValue k="Bedtime spread (SD)" v={figureLine(s.regularity.bedtimeSdMin, "min", 0)} />
        <KeyValue k="Wake-time spread (SD)" v={figureLine(s.regularity.wakeTimeSdMin, "min", 0)} />
      </View>
    </View>
  );
}

function ChartsSection({ report, docsUrl }: { report: Report; docsUrl?: string }) {
  const charts = report.charts ?? [];
  return (
    <View break>
      <T style={styles.h2}>Charts</T>
      <DocsRef section="charts" docsUrl={docsUrl} />
      {REPORT_CHART_GROUPS.map((g) => {
        const inGroup = charts.filter((c) => c.group === g);
        if (inGroup.length === 0) return null;
        return (
          <View key={g}>
            <Text style={styles.h3} minPresenceAhead={CHART_HEIGHT}>
              {pdfText(REPORT_CHART_GROUP_LABELS[g])}
            </Text>
            {inGroup.map((c) => (
              <ReportChartPdf key={c.id} chart={c} from={report.query.from} />
            ))}
          </View>
        );
      })}
    </View>
  );
}

const minutes = (m: number) => (m >= 60 ? `${Math.floor(m / 60)} h ${String(Math.round(m % 60)).padStart(2, "0")} min` : `${Math.round(m)} min`);

function CountsTable({ counts }: { counts: ReportEvents["workouts"] }) {
  return (
    <Table
      columns={[
        { head: "Type", width: "40%" },
        { head: "Count", width: "15%", align: "right" },
        { head: "Time", width: "25%", align: "right" },
        { head: "Calories", width: "20%", align: "right" },
      ]}
      rows={counts.map((c) => [c.label, String(c.count), minutes(c.minutes), c.calories === null ? "—" : `${formatNumber(c.calories)} kcal`])}
    />
  );
}

function EventsSection({ e, docsUrl }: { e: ReportEvents; docsUrl?: string }) {
  return (
    <View break>
      <T style={styles.h2}>Events</T>
      <DocsRef section="events" docsUrl={docsUrl} />
      <T style={styles.h3}>Workouts by type</T>
      {e.workouts.length ? <CountsTable counts={e.workouts} /> : <T style={styles.muted}>No workouts in the period.</T>}
      <T style={styles.h3}>Sessions by type</T>
      {e.sessions.length ? <CountsTable counts={e.sessions} /> : <T style={styles.muted}>No sessions in the period.</T>}
      <T style={styles.h3}>Tags</T>
      {e.tags.length ? (
        <Table
          columns={[
            { head: "Tag", width: "25%" },
            { head: "From", width: "12%" },
            { head: "Days", width: "8%", align: "right" },
            { head: "On", width: "55%" },
          ]}
          rows={e.tags.map((t) => [t.name, t.source === "own" ? "You" : "Ring app", String(t.days.length), t.days.map(day).join(", ")])}
        />
      ) : (
        <T style={styles.muted}>No tags in the period.</T>
      )}
      <T style={styles.h3}>Rest mode</T>
      {e.restModes.length ? (
        e.restModes.map((r) => <T key={r.from}>{`${day(r.from)} to ${r.to ? day(r.to) : "still on"}`}</T>)
      ) : (
        <T style={styles.muted}>No rest-mode periods in the period.</T>
      )}
    </View>
  );
}

function NotesSection({ notes, docsUrl }: { notes: ReportNote[]; docsUrl?: string }) {
  return (
    <View>
      <T style={styles.h2}>Notes</T>
      <DocsRef section="notes" docsUrl={docsUrl} />
      {notes.length ? (
        <Table
          columns={[
            { head: "Day", width: "18%" },
            { head: "Note", width: "62%" },
            { head: "Tags", width: "20%" },
          ]}
          rows={notes.map((n) => [day(n.day), n.text, n.tags.join(", ")])}
        />
      ) : (
        <T style={styles.muted}>No notes in the period.</T>
      )}
    </View>
  );
}

function CycleSection({ cycle, docsUrl }: { cycle: ReportCycle; docsUrl?: string }) {
  const rows = reportCycleRows(cycle);
  return (
    <View>
      <T style={styles.h2}>Cycle</T>
      <DocsRef section="cycle" docsUrl={docsUrl} />
      <T style={styles.muted}>{reportCycleNote(cycle)}</T>
      {rows.length ? <Table columns={REPORT_CYCLE_HEADS.map((head, i) => ({ head, width: i === 1 ? "20%" : "40%" }))} rows={rows} /> : null}
    </View>
  );
}

function MethodsSection({ m, docsUrl }: { m: ReportMethods; docsUrl?: string }) {
  const device = m.device ? [m.device.hardware, m.device.firmware ? `firmware ${m.device.firmware}` : null].filter(Boolean).join(", ") : "";
  const sources = [m.sources.synced ? "synced from the ring's service" : null, m.sources.imported ? "imported from files" : null].filter(Boolean).join("; ");
  return (
    <View break>
      <T style={styles.h2}>Methods</T>
      <DocsRef section="methods" docsUrl={docsUrl} />
      <KeyValue k="Device" v={device || "not known"} />
      <KeyValue k="Data sources" v={sources || "none in the period"} />
      <T style={styles.h3}>Units</T>
      {m.units.map((u) => (
        <KeyValue key={u.label} k={u.label} v={u.unit} />
      ))}
      <T style={styles.h3}>Baselines, normal ranges and signals</T>
      {m.baselines.map((b, i) => (
        <T key={i} style={styles.paragraph}>
          {b}
        </T>
      ))}
      <T style={styles.h3}>Gaps</T>
      {m.gaps.length ? (
        m.gaps.map((g) => <T key={g.from}>{`${period(g)}: ${g.days} days without data`}</T>)
      ) : (
        <T style={styles.muted}>No gaps of several days in the period.</T>
      )}
      <T style={styles.h3}>Not a diagnosis</T>
      <T style={styles.paragraph}>{m.disclaimer}</T>
    </View>
  );
}

/** The report's PDF document. */
export function ReportDocument({ report, docsUrl }: { report: Report } & ReportDocumentOptions) {
  const q = report.query;
  const generated = report.generatedAt.slice(0, 10);
  return (
    <Document
      title={pdfText(report.title)}
      language={report.lang}
      author="Ringside"
      creator="Ringside"
      producer="Ringside"
      subject={pdfText(`Ring data report, ${q.from} to ${q.to}`)}
      creationDate={new Date(report.generatedAt)}
      modificationDate={new Date(report.generatedAt)}
    >
      <Page size="A4" style={styles.page}>
        <T style={styles.title}>{report.title}</T>
        <T style={styles.subtitle}>{`${period(q)} · generated ${day(generated)} by Ringside`}</T>
        {report.summary ? <SummarySection s={report.summary} docsUrl={docsUrl} /> : null}
        {report.charts ? <ChartsSection report={report} docsUrl={docsUrl} /> : null}
        {report.events ? <EventsSection e={report.events} docsUrl={docsUrl} /> : null}
        {report.notes ? <NotesSection notes={report.notes} docsUrl={docsUrl} /> : null}
        {report.cycle ? <CycleSection cycle={report.cycle} docsUrl={docsUrl} /> : null}
        {report.methods ? <MethodsSection m={report.methods} docsUrl={docsUrl} /> : null}
        <View style={styles.footer} fixed>
          <T>{`${report.title} · not a diagnosis`}</T>
          <Text render={({ pageNumber, totalPages }) => `Page ${pageNumber} of ${totalPages}`} />
        </View>
      </Page>
    </Document>
  );
}
