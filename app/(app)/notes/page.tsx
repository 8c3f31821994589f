import type { Metadata } from "next";
import { NotesClient } from "@/app/(app)/notes/notes-client";
import { Providers } from "@/app/providers";

export const metadata: Metadata = { title: "Notes" };

export default async function NotesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const day = Array.isArray(sp.day) ? sp.day[0] : sp.day;
  return (
    <Providers>
      <NotesClient initialDay={day ?? null} />
    </Providers>
  );
}
