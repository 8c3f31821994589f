import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { addDays } from "@/lib/days";
import { requireUser } from "@/lib/services/auth/session";
import { getCycle } from "@/lib/services/cycle";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import { getPreferences } from "@/lib/services/people";
import { stateToday } from "@/lib/services/person-today";
import { CYCLE_VIEW_PERIODS, CycleView, type CycleViewDays } from "@/components/cycle/cycle-view";
import { editCycleEntryAction, logPeriodStartAction, removeCycleEntryAction } from "@/app/(app)/cycle/actions";

export const metadata: Metadata = { title: "Cycle" };

// The Cycle view: the signed-in person's own cycle up to their today (90 days, 6 months or a
// year: `?days=`). Not there at all while their cycle tracking is off (404, like any page
// that does not exist; so no loading.tsx: its boundary would send the page's 200 first). Drawn
// on the server; the charts load in the browser.
export default async function CyclePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  if (!(await getCycleSettings(user.id)).tracking) notFound();
  const asked = Number((await searchParams).days);
  const days: CycleViewDays = CYCLE_VIEW_PERIODS.find((p) => p.days === asked)?.days ?? 180;
  const [{ today }, preferences] = await Promise.all([stateToday(user.id), getPreferences(user.id)]);
  const cycle = await getCycle({ userId: user.id, from: addDays(today, -(days - 1)), to: today });
  return (
    <CycleView
      cycle={cycle}
      today={today}
      units={preferences.units}
      periodDays={days}
      actions={{ log: logPeriodStartAction, edit: editCycleEntryAction, remove: removeCycleEntryAction }}
    />
  );
}
