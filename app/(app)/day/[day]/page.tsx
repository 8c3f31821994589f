import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { formatDay, isDay } from "@/lib/days";
import { DayClient } from "@/app/(app)/day/[day]/day-client";
import { Providers } from "@/app/providers";

export async function generateMetadata({ params }: { params: Promise<{ day: string }> }): Promise<Metadata> {
  const { day } = await params;
  return { title: isDay(day) ? formatDay(day, { withYear: true }) : "Day" };
}

// One day in full: every document, its sleep periods and curves, the activity timeline, notes.
export default async function DayPage({ params }: { params: Promise<{ day: string }> }) {
  const { day } = await params;
  if (!isDay(day)) notFound();
  return (
    <Providers>
      <DayClient day={day} />
    </Providers>
  );
}
