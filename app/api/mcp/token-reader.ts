// The MCP server's reader in the app (/api/mcp): the token's reads of lib/api/v1/read.ts, the
// page services narrowed to the token's person and data kinds. Apart from lib/mcp/reader.ts,
// which `npm run mcp` loads, so the stdio server never loads server code.
import "server-only";
import type { TokenPrincipal } from "@/lib/auth/api-tokens";
import {
  readCatalog,
  readCorrelation,
  readCycle,
  readDay,
  readReport,
  readSeries,
  readSignals,
  readState,
  readTagComparison,
  readTags,
  readToday,
} from "@/lib/api/v1/read";
import type { RingsideReader } from "@/lib/mcp/reader";

/** The token's reader, as the MCP server's tools read. */
export function readerFor(p: TokenPrincipal): RingsideReader {
  return {
    catalog: async () => await readCatalog(p),
    series: async (metric, range) => await readSeries(p, metric, range),
    today: async (day) => await readToday(p, day),
    day: (day) => readDay(p, day),
    correlation: async (q) => await readCorrelation(p, q),
    tags: () => readTags(p),
    tagComparison: (id, q) => readTagComparison(p, id, q),
    state: () => readState(p),
    signals: (range) => readSignals(p, range),
    report: (q) => readReport(p, q),
    cycle: (range) => readCycle(p, range),
  };
}
