import { signIn } from "@/lib/auth";

export const dynamic = "force-dynamic";

export default function SignInPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 p-6">
      <h1 className="text-3xl font-semibold">Ringside</h1>
      <p className="text-slate-600 dark:text-slate-300">Your ring&apos;s data, on your own server.</p>
      <form
        action={async () => {
          "use server";
          await signIn("ring", { redirectTo: "/" });
        }}
      >
        <button className="w-full rounded-lg bg-brand-600 px-4 py-3 font-medium text-white hover:bg-brand-700" type="submit">
          Connect your ring
        </button>
      </form>
    </main>
  );
}
