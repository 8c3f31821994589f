// The menstrual cycle's shared vocabulary, declared once (issue 43): the phases a day can have,
// the kinds of entry a person logs, the cycle settings and the data kind of a token that reads
// cycle data. Pure, no imports: every layer may use it, the browser and the MCP stdio process included.

export const CYCLE_PHASES = ["menstrual", "follicular", "luteal", "unknown"] as const;
export type CyclePhase = (typeof CYCLE_PHASES)[number];

export const CYCLE_ENTRY_KINDS = ["period_start", "period_end"] as const;
export type CycleEntryKind = (typeof CYCLE_ENTRY_KINDS)[number];

/** a person's own entry: a period start or end on a local day ("YYYY-MM-DD") */
export type CycleEntry = { id: string; day: string; kind: CycleEntryKind };

export type CycleSettings = { tracking: boolean; hormonalContraception: boolean; pregnant: boolean };
export const CYCLE_DEFAULT_SETTINGS: CycleSettings = { tracking: false, hormonalContraception: false, pregnant: false };

/** the data kind of a personal access token that reads cycle data (not a ring resource) */
export const CYCLE_DATA_KIND = "cycle";

/**
 * the ring service's resource of cycle phases: its documents belong to the cycle kind (a reader
 * needs that kind, and the person's tracking on), and nothing of it is fetched or kept while the
 * person does not track their cycle
 */
export const CYCLE_RESOURCE = "daily_cycle_phases";
