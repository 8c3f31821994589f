"use client";
import { useQuery } from "@tanstack/react-query";
import { rangeQuery } from "@/components/hooks/api-fetch";
import { cycleQueryKeys, type CycleResponse } from "@/lib/api/contract-cycle";
import type { CyclePhase } from "@/lib/cycle";
import { addDays, diffDays, maxDay } from "@/lib/days";
import { CYCLE_FETCH_MAX_DAYS as MAX_DAYS } from "@/components/cycle/phase";

const phasesOf = (c: CycleResponse): ReadonlyMap<string, CyclePhase> => new Map(c.days.map((d) => [d.day, d.phase]));

/**
 * Each day's phase from `from` to `to` for shading a page's charts (GET /api/cycle), asked only
 * when `tracking` is on; a longer range asks for its newest MAX_DAYS days (older days go unshaded).
 */
export function useCyclePhases(from: string | null, to: string | null, tracking: boolean): ReadonlyMap<string, CyclePhase> | null {
  const start = from && to && diffDays(from, to) + 1 > MAX_DAYS ? maxDay(from, addDays(to, -(MAX_DAYS - 1))) : from;
  const q = useQuery({
    ...rangeQuery<CycleResponse>(cycleQueryKeys.range(start ?? "", to ?? ""), "/api/cycle", { from: start, to }),
    enabled: tracking && !!start && !!to,
    select: phasesOf,
  });
  return tracking ? (q.data ?? null) : null;
}
