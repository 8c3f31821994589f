import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

/** Any address Ringside does not have: says so, in the app's own page frame, with a way back. */
export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 p-6" data-testid="not-found">
      <h1 className="text-2xl font-semibold">This page does not exist</h1>
      <p className="text-slate-700 dark:text-slate-200">The address may be mistyped, or the page has moved.</p>
      <p>
        <Link href="/" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100">
          Back to Today
        </Link>
      </p>
    </main>
  );
}
