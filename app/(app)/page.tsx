import type { Metadata } from "next";
import { requireUser } from "@/lib/services/auth/session";
import { getTodaySummary } from "@/lib/services/metrics";
import { getPreferences } from "@/lib/services/people";
import { getSignals } from "@/lib/services/signals";
import { listNotes } from "@/lib/services/tags";
import { getSyncStatus } from "@/lib/sync/status";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { addDays } from "@/lib/days";
import { SPARK_DAYS } from "@/lib/metrics/today";
import { normaliseSyncStatus } from "@/components/dashboard/freshness";
import { RECENT_NIGHTS } from "@/components/signals/today-signals";
import { TodayView } from "@/app/(app)/today-view";
import { CycleCard } from "@/components/cycle/cycle-card";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import { cycleApplies, getCycleToday } from "@/lib/services/cycle";
import { logPeriodStartAction } from "@/app/(app)/cycle/actions";
import { stateToday } from "@/lib/services/person-today";
import { getMissingReason } from "@/lib/services/missing-nights";
import { historyDownloading } from "@/lib/services/history";

export const metadata: Metadata = { title: "Today" };

// Today: the newest day of each collection. Everything is read here (the same functions as
// GET /api/days/latest, /api/me/preferences, /api/notes, /api/sync/status and /api/signals)
// and drawn on the server; the signals, the slowest part, stream in when computed.
export default async function TodayPage() {
  const user = await requireUser();
  const [today, preferences, syncStatus, cycleSettings, personToday, downloading] = await Promise.all([
    getTodaySummary(user.id),
    getPreferences(user.id),
    getSyncStatus(user.id),
    getCycleSettings(user.id),
    stateToday(user.id),
    historyDownloading(user.id),
  ]);
  // last night, if it has no main sleep: why (on the charger, not downloaded yet…)
  const missing = await getMissingReason(user.id, personToday.today);
  // the Cycle card only for a person with cycle tracking on (the one-tap log first on a phone)
  const cycle = cycleSettings.tracking ? (
    <CycleCard today={await getCycleToday(user.id)} message={cycleApplies(cycleSettings).message} logAction={logPeriodStartAction} />
  ) : null;
  const day = today.day;
  const signals = day
    ? getSignals({ userId: user.id, from: addDays(day, -(RECENT_NIGHTS - 1)), to: day }).catch((err: unknown) => {
        logger.error({ userId: user.id, error: err instanceof Error ? err.name : "error" }, "Today's signals failed");
        return null;
      })
    : Promise.resolve(null);
  // tags for the sparklines' marks (a collection's newest day may be a few days older)
  const notes = day ? await listNotes({ userId: user.id, from: addDays(day, -(SPARK_DAYS + 13)), to: day }) : [];
  return (
    <TodayView
      today={today}
      units={preferences.units}
      taggedDays={notes.filter((d) => d.tags.length || d.ringTags.length).map((d) => d.day)}
      syncStatus={normaliseSyncStatus(syncStatus)}
      signals={signals}
      isDemo={env.RINGSIDE_DEMO}
      cycle={cycle}
      missingNight={missing ? { day: personToday.today, reason: missing } : null}
      downloading={downloading}
    />
  );
}
