import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { auth } from "@/lib/services/auth";
import { AppNav } from "@/components/ui/app-nav";
import { ClockAlign } from "@/components/ui/clock-align";
import { clock } from "@/lib/clock";
import { ReconnectBanner } from "@/components/auth/reconnect-banner";
import { env } from "@/lib/env.mjs";
import { findRingAccountByUserId } from "@/lib/db/queries/accounts";
import { reconnectRing } from "@/app/(app)/settings/actions-connection";
import { getCycleSettings } from "@/lib/services/cycle-entries";

export const dynamic = "force-dynamic";

/** Every page in (app) needs a signed-in person; handlers check again on their own. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user?.id) redirect("/sign-in");
  const [account, cycle] = await Promise.all([findRingAccountByUserId(session.user.id), getCycleSettings(session.user.id)]);
  return (
    <div className="min-h-screen">
      <ClockAlign serverNow={clock.now()} />
      <AppNav isDemo={env.RINGSIDE_DEMO} userLabel={session.user.email ?? session.user.name ?? "You"} showCycle={cycle.tracking} />
      {account?.status === "needs_reconnect" && <ReconnectBanner statusReason={account.statusReason} reconnect={reconnectRing} />}
      <main id="main" className="mx-auto w-full max-w-6xl px-3 py-4 sm:px-6 sm:py-6">
        {children}
      </main>
    </div>
  );
}
