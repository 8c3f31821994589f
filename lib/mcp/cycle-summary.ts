// The get_cycle tool's answer: the cycle's status, the prediction and the cycles, one compact
// row per day (cycle day, phase, ovulation) and the newest day in full. Pure.
import type { ApiCycleResponse } from "@/lib/api/contract-cycle";

export type CycleRow = { day: string; cycle_day: number | null; phase: string; ovulation?: true };

export function summarizeCycle(c: ApiCycleResponse) {
  const newest = c.days.at(-1) ?? null;
  return {
    from: c.from,
    to: c.to,
    status: c.status,
    message: c.message,
    prediction: c.prediction,
    cycles: c.cycles,
    ovulations: c.days.filter((d) => d.ovulation).map((d) => d.day),
    rows: c.days.map((d): CycleRow => ({ day: d.day, cycle_day: d.cycle_day, phase: d.phase, ...(d.ovulation ? { ovulation: true as const } : {}) })),
    newest,
    entries: c.entries,
    note: "Derived from the person's nights and the period starts they logged; not a diagnosis and not contraception. Method: /docs/signals.",
  };
}

/** The answer's first line. */
export function cycleHeadline(s: ReturnType<typeof summarizeCycle>): string {
  if (s.status === "off" || s.status === "not_applicable") return `Cycle ${s.from} to ${s.to}: ${s.message ?? s.status}.`;
  const today = s.newest;
  const now = today && today.cycle_day !== null ? `day ${today.cycle_day} (${today.phase}) on ${today.day}` : "no cycle day yet";
  const next = s.prediction ? `; next period expected ${s.prediction.from} to ${s.prediction.to}` : "";
  return `Cycle ${s.from} to ${s.to}: ${now}${next}; ${s.cycles.length} cycle${s.cycles.length === 1 ? "" : "s"}, ${s.ovulations.length} ovulation${
    s.ovulations.length === 1 ? "" : "s"
  } detected.`;
}
