import type { Metadata } from "next";
import { WorkoutsClient } from "@/app/(app)/workouts/workouts-client";
import { Providers } from "@/app/providers";

export const metadata: Metadata = { title: "Workouts" };

// Workouts: the filterable list, weekly minutes and calories by activity and intensity, and each
// workout's heart-rate curve. The URL carries the view (range, activity, intensity, workout).
export default async function WorkoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  return (
    <Providers>
      <WorkoutsClient initial={{ range: one(sp.range), activity: one(sp.activity), intensity: one(sp.intensity), workout: one(sp.w) }} />
    </Providers>
  );
}
