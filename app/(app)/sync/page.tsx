import type { Metadata } from "next";
import { requireUser } from "@/lib/services/auth/session";
import { getSyncStatus } from "@/lib/sync/status";
import { SyncClient } from "@/app/(app)/sync/sync-client";
import { Providers } from "@/app/providers";

export const metadata: Metadata = { title: "Sync" };
export const dynamic = "force-dynamic";

// Sync: progress of the history backfill per collection, freshness, errors, "Sync now".
export default async function SyncPage() {
  const user = await requireUser();
  const initial = await getSyncStatus(user.id);
  return (
    <Providers>
      <SyncClient initial={initial} />
    </Providers>
  );
}
