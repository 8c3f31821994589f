import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { env } from "@/lib/env.mjs";
import { currentUser } from "@/lib/services/auth/session";
import { findUsableInvite, INVITE_COOKIE } from "@/lib/auth/invites";
import { countOwners } from "@/lib/db/queries/users";
import { announceSetupCode, isSetupCodeRequired } from "@/lib/auth/setup-code";
import { ConnectButton } from "@/components/auth/connect-button";
import { cn } from "@/components/ui/cn";
import { connectRing } from "@/app/(auth)/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect your ring" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentUser()) redirect("/");
  const params = await searchParams;
  const jar = await cookies();
  const invite = await findUsableInvite(jar.get(INVITE_COOKIE)?.value);
  const hasOwner = (await countOwners()) > 0;
  // The first connect of a real instance needs the one-time code from the server log.
  const askSetupCode = !hasOwner && isSetupCodeRequired();
  if (askSetupCode) await announceSetupCode();
  const needsSetup = env.RING_CLIENT_ID === "ringside-demo" && !env.RINGSIDE_DEMO;
  const authError = typeof params.error === "string" ? params.error : null;

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 p-6">
      <div>
        <h1 className="text-3xl font-semibold">Ringside</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">Your ring&apos;s data, on your own server.</p>
      </div>

      {params.disconnected === "1" && (
        <p role="status" data-testid="disconnected-note" className="rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800">
          Your ring is disconnected and you are signed out. Connect again any time.
        </p>
      )}
      {authError && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          Connecting did not start ({authError.replace(/[^A-Za-z]/g, "").slice(0, 40)}). Please try again.
        </p>
      )}
      {invite ? (
        <p data-testid="invite-note" className="rounded-lg bg-brand-50 p-3 text-sm text-brand-700 dark:bg-slate-800 dark:text-brand-100">
          You have been invited to this Ringside. Connect your ring to join; you will only ever see your own data.
        </p>
      ) : !hasOwner ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Nobody has connected yet: the first person to connect a ring becomes this Ringside&apos;s owner and can invite others.
          {askSetupCode && " To become the owner, enter the setup code printed in the server log when Ringside started."}
        </p>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Already a member? Connect your ring to sign in. New here? You need an invite link from the owner.
        </p>
      )}

      <form action={connectRing} className="flex flex-col gap-4">
        {askSetupCode && (
          <label className="flex flex-col gap-1 text-sm" data-testid="setup-code-field">
            <span className="font-medium">Setup code</span>
            <input
              name="setupCode"
              autoComplete="off"
              spellCheck={false}
              maxLength={32}
              placeholder="XXXX-XXXX-XXXX"
              className={cn(
                "rounded-lg border border-slate-500 bg-white px-3 py-2 font-mono uppercase tracking-wider",
                "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 dark:border-slate-500 dark:bg-slate-900",
              )}
            />
            <span className="text-xs text-slate-500 dark:text-slate-400">
              From the server log (&ldquo;Ringside has no owner yet&rdquo;). Not needed if your e-mail is on this Ringside&apos;s ALLOWED_EMAILS list.
            </span>
          </label>
        )}
        <div>
          <ConnectButton label="Connect your ring" />
        </div>
      </form>

      <p className="text-xs text-slate-500 dark:text-slate-400">
        The ring service asks which data to share. Ringside only reads; you can disconnect at any time from Settings.
      </p>
      {needsSetup && (
        <p className="text-sm">
          <Link href="/setup" className="font-medium text-brand-600 underline underline-offset-2 dark:text-brand-500">
            Setting up with a real ring account? Start here.
          </Link>
        </p>
      )}
    </main>
  );
}
