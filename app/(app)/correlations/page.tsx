import type { Metadata } from "next";
import { CorrelationsClient } from "@/app/(app)/correlations/correlations-client";

export const metadata: Metadata = { title: "Correlations" };

export default async function CorrelationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  return <CorrelationsClient initial={{ x: one(sp.x), y: one(sp.y), lag: one(sp.lag), range: one(sp.range) }} />;
}
