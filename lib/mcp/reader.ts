// Where the MCP server's tools read from. Two implementations of one interface:
// - in the app (/api/mcp): the token's reader over the page services (app/api/mcp/token-reader.ts);
// - in `npm run mcp` (stdio): the running Ringside's read API over HTTP with the token
//   (httpReader below), so only the server ever opens the database, and the token's kinds,
//   rate limit and revocation apply to a local assistant exactly as to anything else.
import type {
  ApiCatalogResponse,
  ApiDayResponse,
  ApiStateResponse,
  CorrelationResponse,
  SeriesResponse,
  SignalsResponse,
  TagComparisonResponse,
  TagsResponse,
  TodayResponse,
} from "@/lib/api/contract";
import type { ApiCycleResponse } from "@/lib/api/contract-cycle";
import type { MetricId } from "@/lib/metrics/catalog";
import type { Report, ReportQuery } from "@/lib/metrics/report";

export type Range = { from: string; to: string };

export type RingsideReader = {
  catalog(): Promise<ApiCatalogResponse>;
  series(metric: MetricId, range: Range): Promise<SeriesResponse>;
  today(day?: string): Promise<TodayResponse>;
  day(day: string): Promise<ApiDayResponse>;
  correlation(q: Range & { x: MetricId; y: MetricId; lag: 0 | 1 }): Promise<CorrelationResponse>;
  tags(): Promise<TagsResponse>;
  tagComparison(id: number, q: { metric: MetricId; lag: 0 | 1; from?: string; to?: string }): Promise<TagComparisonResponse>;
  state(): Promise<ApiStateResponse>;
  signals(range: Range): Promise<SignalsResponse>;
  report(q: ReportQuery): Promise<Report>;
  cycle(range: Range): Promise<ApiCycleResponse>;
};

/** A refusal from Ringside (the error envelope), or Ringside not answering (status 0). */
export class ReaderError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ReaderError";
  }
}

const TIMEOUT_MS = 30_000;

/** The read API of the Ringside at `baseUrl`, with a personal access token. */
export function httpReader(baseUrl: string, token: string, fetchImpl: typeof fetch = fetch): RingsideReader {
  const base = baseUrl.replace(/\/+$/, "");
  async function get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
    const url = `${base}/api/v1${path}${qs.size ? `?${qs}` : ""}`;
    let res: Response;
    try {
      res = await fetchImpl(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new ReaderError(0, "unreachable", `Ringside at ${base} did not answer.`);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: handled below */
    }
    if (!res.ok) {
      const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      const message = typeof e?.message === "string" ? e.message : `Ringside answered ${res.status}.`;
      throw new ReaderError(res.status, typeof e?.code === "string" ? e.code : "error", message);
    }
    if (body === null) throw new ReaderError(res.status, "bad_answer", "Ringside's answer was not JSON (is RINGSIDE_URL the address of a Ringside?).");
    return body as T;
  }
  const seg = encodeURIComponent;
  return {
    catalog: () => get("/metrics"),
    series: (metric, range) => get(`/metrics/${seg(metric)}`, range),
    today: (day) => get("/days/latest", { day }),
    day: (day) => get(`/days/${seg(day)}`),
    correlation: (q) => get("/correlations", { x: q.x, y: q.y, lag: q.lag, from: q.from, to: q.to }),
    tags: () => get("/tags"),
    tagComparison: (id, q) => get(`/tags/${id}/comparison`, { metric: q.metric, lag: q.lag, from: q.from, to: q.to }),
    state: () => get("/state"),
    signals: (range) => get("/signals", range),
    cycle: (range) => get("/cycle", range),
    report: (q) => get("/report", { from: q.from, to: q.to, compare: q.compare, sections: q.sections.join(","), format: "json" }),
  };
}
