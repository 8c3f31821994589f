import type { Metadata } from "next";
import { CalendarClient } from "@/app/(app)/calendar/calendar-client";
import { Providers } from "@/app/providers";

export const metadata: Metadata = { title: "Calendar" };

export default async function CalendarPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return (
    <Providers>
      <CalendarClient initialMetric={one(sp.m) ?? null} initialYear={one(sp.year) ?? null} />
    </Providers>
  );
}
