// The cycle's part of the dashboard API's contract (beside lib/api/contract.ts): the answers of
// GET /api/cycle and /api/v1/cycle, Today's card, the server actions' states and the React
// Query keys. Types and key builders only, so the browser may import it.
import type { CycleEntry, CycleSettings } from "@/lib/cycle";
import type { CycleResponse, getCycleToday } from "@/lib/services/cycle";

export type { CycleResponse };

/**
 * GET /api/v1/cycle: the cycle without the nights' temperature (that is the readiness kind's
 * value, which a token with only the cycle kind may not read).
 */
export type ApiCycleResponse = Omit<CycleResponse, "temperature">;

/** Today's cycle day, phase and next period window (the Cycle card); null with tracking off or paused. */
export type CycleToday = NonNullable<Awaited<ReturnType<typeof getCycleToday>>>;

type ErrorField = { error?: { code: string; message: string } };

/** Settings → Your cycle: the settings as saved, or the refusal. */
export type CycleSettingsState = { settings?: CycleSettings } & ErrorField;
/** Settings → Your cycle → "Remove cycle data": what was deleted, or the refusal. */
export type CycleRemoveState = { deleted?: { entries: number; documents: number } } & ErrorField;
/** "Log period start" (Today, the Day page) and the Cycle view's edits: the entry, or the refusal; `at` tells one outcome from the next. */
export type CycleEntryState = { entry?: CycleEntry; removed?: boolean; at?: number } & ErrorField;
/** A cycle entry action run from a form (useActionState). */
export type CycleEntryAction = (prev: CycleEntryState, form: FormData) => Promise<CycleEntryState>;

/** GET /api/cycle?from&to (the same answer as GET /api/v1/cycle) */
export const cycleQueryKeys = {
  all: ["cycle"] as const,
  range: (from: string, to: string) => ["cycle", { from, to }] as const,
};
