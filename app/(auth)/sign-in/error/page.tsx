import type { Metadata } from "next";
import Link from "next/link";
import { isSignInErrorCode, safeDetail, SIGN_IN_ERRORS } from "@/lib/auth/sign-in-errors";
import { ConnectButton } from "@/components/auth/connect-button";
import { UserLimitHelp } from "@/components/auth/user-limit-help";
import { connectRing } from "@/app/(auth)/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connecting did not work" };

/** Where every failed or refused "Connect your ring" ends: what happened, and a way on. */
export default async function SignInErrorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const code = isSignInErrorCode(params.error) ? params.error : "unknown";
  const text = SIGN_IN_ERRORS[code];
  const detail = safeDetail(typeof params.detail === "string" ? params.detail : null);

  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-5 p-6" data-testid="sign-in-error" data-error-code={code}>
      <h1 className="text-2xl font-semibold">{text.title}</h1>
      <p className="text-slate-700 dark:text-slate-200">{text.message}</p>
      {code === "user_limit" && <UserLimitHelp />}
      {detail && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Technical detail: <code>{detail}</code>
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {text.canRetry && (
          <form action={connectRing}>
            <ConnectButton label="Try again" />
          </form>
        )}
        <Link href="/sign-in" className="text-sm font-medium text-brand-600 underline underline-offset-2 dark:text-brand-500">
          Back to the start
        </Link>
      </div>
    </main>
  );
}
