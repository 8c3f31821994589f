// The explained signals: what each one is, where docs/signals.md explains it, and the data it
// reads. Pure data, safe in the browser; the maths live beside it (lib/signals/*.ts), the
// reads in lib/services/signals.ts. One declaration: the read API's schemas, the MCP tool, the
// cards' links and the token checks derive from it. The signals charted as metrics are the
// metric catalog's (lib/metrics/signal-metrics.ts).
import type { ResourceName } from "@/lib/resources";

export const SIGNAL_KINDS = ["early_warning", "sleep_debt", "regularity", "training_load"] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

export type SignalDef = {
  kind: SignalKind;
  label: string;
  /** the section of docs/signals.md (served at /docs/signals) that explains it */
  anchor: string;
  /** the data kinds it reads (resources of the registry); a token lacking one does not get the signal */
  reads: readonly ResourceName[];
};

export const SIGNALS: Readonly<Record<SignalKind, SignalDef>> = {
  early_warning: { kind: "early_warning", label: "Early warning", anchor: "early-warning", reads: ["sleep", "daily_readiness", "rest_mode_period"] },
  sleep_debt: { kind: "sleep_debt", label: "Sleep debt", anchor: "sleep-debt", reads: ["sleep", "daily_readiness"] },
  regularity: { kind: "regularity", label: "Regularity", anchor: "regularity", reads: ["sleep"] },
  training_load: { kind: "training_load", label: "Training load", anchor: "training-load", reads: ["daily_activity", "workout", "vO2_max"] },
};

/** Where the page that explains the signals is served (docs/signals.md, rendered at build). */
export const SIGNALS_DOCS_PATH = "/docs/signals";

/** The sections of the signals page the app links to (each signal's, and the normal ranges'). */
export const SIGNALS_DOCS_ANCHORS = ["normal-ranges", ...Object.values(SIGNALS).map((s) => s.anchor)] as const;

/** A heading's anchor on the signals page: "Sleep debt" → "sleep-debt" (as GitHub makes them). */
export function headingAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^a-z0-9 -]/g, "")
    .trim()
    .replace(/ +/g, "-");
}

/** The link to a section of the signals page ("normal-ranges", or a signal's anchor). */
export function signalDocsHref(anchor: string): string {
  return `${SIGNALS_DOCS_PATH}#${anchor}`;
}

/** The most days one request for signals may cover (each day costs a little maths). */
export const SIGNALS_MAX_DAYS = 366;

/** The ISO weekdays (1 = Monday … 7 = Sunday) that are free days unless the person says otherwise. */
export const DEFAULT_FREE_DAYS: readonly number[] = [6, 7];

/** A sleep need the person may set, in minutes (4 h – 12 h). */
export const SLEEP_NEED_LIMITS = { min: 240, max: 720 } as const;
