import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { formatDay, isDay, isDayInWindow } from "@/lib/days";
import { DayClient } from "@/app/(app)/day/[day]/day-client";
import { Providers } from "@/app/providers";
import { requireUser } from "@/lib/services/auth/session";
import { getCycleSettings, listCycleEntriesFor } from "@/lib/services/cycle-entries";
import { stateToday } from "@/lib/services/person-today";
import { DayCycleLog } from "@/components/cycle/day-cycle-log";
import { logCycleEntryAction, removeCycleEntryAction } from "@/app/(app)/cycle/actions";

export async function generateMetadata({ params }: { params: Promise<{ day: string }> }): Promise<Metadata> {
  const { day } = await params;
  return { title: isDay(day) ? formatDay(day, { withYear: true }) : "Day" };
}

// One day in full: every document, its sleep periods and curves, the activity timeline, notes;
// with cycle tracking on, the day's period entries and their log buttons (the signed-in person's own).
export default async function DayPage({ params }: { params: Promise<{ day: string }> }) {
  const { day } = await params;
  if (!isDay(day)) notFound();
  const user = await requireUser();
  const tracking = (await getCycleSettings(user.id)).tracking;
  const cycle =
    tracking && isDayInWindow(day) ? (
      <DayCycleLog
        day={day}
        entries={await listCycleEntriesFor(user.id, day, day)}
        canLog={day <= (await stateToday(user.id)).today}
        logAction={logCycleEntryAction}
        removeAction={removeCycleEntryAction}
      />
    ) : null;
  return (
    <Providers>
      <DayClient day={day} cycle={cycle} />
    </Providers>
  );
}
