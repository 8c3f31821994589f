import type { Metadata } from "next";
import { CalendarClient } from "@/app/(app)/calendar/calendar-client";
import { Providers } from "@/app/providers";
import { requireUser } from "@/lib/services/auth/session";
import { getCycleSettings } from "@/lib/services/cycle-entries";

export const metadata: Metadata = { title: "Calendar" };

export default async function CalendarPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const cycleTracking = (await getCycleSettings(user.id)).tracking;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return (
    <Providers>
      <CalendarClient initialMetric={one(sp.m) ?? null} initialYear={one(sp.year) ?? null} cycleTracking={cycleTracking} />
    </Providers>
  );
}
