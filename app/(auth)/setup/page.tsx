import type { Metadata } from "next";
import Link from "next/link";
import { env } from "@/lib/env.mjs";
import { publicOrigin, ringRedirectUri } from "@/lib/auth/origin";
import { currentUser } from "@/lib/auth/session";
import { isSetupCodeRequired } from "@/lib/auth/setup-code";
import { countOwners } from "@/lib/db/queries/users";
import { UserLimitHelp } from "@/components/auth/user-limit-help";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up a real ring account" };

type Check = { name: string; state: "ok" | "missing" | "default" | "optional"; note: string };

/** Only presence is shown here, never a secret's value. */
function checks(): Check[] {
  const demoClient = env.RING_CLIENT_ID === "ringside-demo";
  const demoSecret = env.RING_CLIENT_SECRET === "ringside-demo-secret";
  const emulatorApi = env.RING_API_BASE_URL === "http://localhost:4010";
  return [
    {
      name: "RING_CLIENT_ID",
      state: demoClient ? "missing" : "ok",
      note: demoClient ? "still the built-in demo client (works only with the emulator)" : "set",
    },
    {
      name: "RING_CLIENT_SECRET",
      state: demoSecret ? "missing" : "ok",
      note: demoSecret ? "still the built-in demo secret" : "set (value hidden)",
    },
    {
      name: "RING_API_BASE_URL",
      state: emulatorApi ? "missing" : "ok",
      note: emulatorApi ? "points at the local emulator (http://localhost:4010)" : env.RING_API_BASE_URL,
    },
    { name: "RING_AUTHORIZE_URL", state: "ok", note: env.RING_AUTHORIZE_URL },
    { name: "RING_TOKEN_URL", state: "ok", note: env.RING_TOKEN_URL },
    { name: "RING_REVOKE_URL", state: "ok", note: env.RING_REVOKE_URL },
    {
      name: "PUBLIC_URL",
      state: env.PUBLIC_URL || env.AUTH_URL ? "ok" : "optional",
      note: env.PUBLIC_URL || env.AUTH_URL ? "set" : "not set: the address is taken from each request (set it behind a reverse proxy)",
    },
    {
      name: "AUTH_SECRET",
      state: env.AUTH_SECRET ? "ok" : "default",
      note: env.AUTH_SECRET ? "set (value hidden)" : "not set: generated once and kept in the data directory",
    },
    {
      name: "TOKEN_ENCRYPTION_KEY",
      state: env.TOKEN_ENCRYPTION_KEY ? "ok" : "default",
      note: env.TOKEN_ENCRYPTION_KEY ? "set (value hidden)" : "not set: generated once and kept in the data directory (back it up with the database)",
    },
    { name: "RING_SCOPES", state: "ok", note: env.RING_SCOPES.join(" ") },
    {
      name: "ALLOWED_EMAILS",
      state: env.ALLOWED_EMAILS.length > 0 ? "ok" : "optional",
      note: env.ALLOWED_EMAILS.length > 0 ? `${env.ALLOWED_EMAILS.length} address(es)` : "optional: people who may join without an invite link",
    },
  ];
}

const BADGE: Record<Check["state"], { label: string; cls: string }> = {
  ok: { label: "set", cls: "bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-200" },
  missing: { label: "needed", cls: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200" },
  default: { label: "automatic", cls: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100" },
  optional: { label: "optional", cls: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100" },
};

export default async function SetupPage() {
  // The configuration (what is missing, the service's addresses, how many e-mails are allowed)
  // is the owner's business: before there is an owner only what is needed to get going shows.
  const hasOwner = (await countOwners()) > 0;
  const isOwner = (await currentUser())?.role === "owner";
  if (hasOwner && !isOwner) return <SetUp />;
  const origin = await publicOrigin();
  const redirectUri = ringRedirectUri(origin);
  const list = checks();
  const ready = list.every((c) => c.state !== "missing");

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      <div>
        <h1 className="text-3xl font-semibold">Connect a real ring account</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          Out of the box Ringside talks to its built-in ring emulator. To use your own ring, register Ringside as an app
          with the ring service once, then give Ringside the app&apos;s credentials.
        </p>
      </div>

      <section className="space-y-2">
        <h2 className="text-xl font-semibold">1. Register the app</h2>
        <p>In the ring service&apos;s developer portal, create an application and register exactly this redirect URI:</p>
        <pre data-testid="redirect-uri" className="overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100">
          {redirectUri}
        </pre>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          It must match character for character (scheme, host, port, path). If people reach Ringside under another address,
          set PUBLIC_URL to that address first and register the URI shown then.
        </p>
      </section>

      <section className="space-y-2">
        <h2 className="text-xl font-semibold">2. Set the environment and restart</h2>
        <pre className="overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100">{`RING_CLIENT_ID=<client id from the portal>
RING_CLIENT_SECRET=<client secret from the portal>
RING_API_BASE_URL=<the service's API host>
RING_OAUTH_BASE_URL=<host of the authorization page, if different>
# only if the portal's documentation gives other addresses:
RING_AUTHORIZE_URL=<authorization address, e.g. the alternative …/authorize>
RING_TOKEN_URL=<token address of the portal your app was registered in>
PUBLIC_URL=${origin}`}</pre>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Apps registered in the newer developer portal use a different token address than older apps; if connecting fails
          with &ldquo;does not recognise this Ringside&rdquo;, RING_TOKEN_URL is the usual cause.
        </p>
      </section>

      {!hasOwner && isSetupCodeRequired() && (
        <section className="space-y-2" data-testid="setup-code-help">
          <h2 className="text-xl font-semibold">3. Become the owner</h2>
          <p>
            The first person to connect becomes this Ringside&apos;s owner. That first connect needs the one-time setup code
            Ringside printed in its server log when it started (&ldquo;Ringside has no owner yet&rdquo;): enter it on the sign-in
            page. People whose e-mail is listed in ALLOWED_EMAILS need no code.
          </p>
        </section>
      )}

      {isOwner && <section className="space-y-2" data-testid="setup-checks">
        <h2 className="text-xl font-semibold">3. Check</h2>
        <p data-testid="setup-ready" className={ready ? "font-medium text-green-700 dark:text-green-400" : "font-medium text-red-700 dark:text-red-400"}>
          {ready ? "Everything needed is set. Connect your ring to finish." : "Some settings are still missing (marked \u201cneeded\u201d)."}
        </p>
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-700">
              <th className="py-1 pr-3 font-medium">Variable</th>
              <th className="py-1 pr-3 font-medium">State</th>
              <th className="py-1 font-medium">Value / note</th>
            </tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr key={c.name} data-testid={`setup-check-${c.name}`} data-state={c.state} className="border-b border-slate-100 align-top dark:border-slate-800">
                <td className="py-1 pr-3 font-mono text-xs">{c.name}</td>
                <td className="py-1 pr-3">
                  <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${BADGE[c.state].cls}`}>{BADGE[c.state].label}</span>
                </td>
                <td className="break-all py-1 text-slate-700 dark:text-slate-300">{c.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>}

      <UserLimitHelp />

      <p>
        <Link href="/sign-in" className="font-medium text-brand-600 underline underline-offset-2 dark:text-brand-500">
          Back to Connect your ring
        </Link>
      </p>
    </main>
  );
}

/** What everyone but the owner sees once the instance has its owner. */
function SetUp() {
  return (
    <main className="mx-auto max-w-3xl space-y-4 p-6" data-testid="setup-done">
      <h1 className="text-3xl font-semibold">This Ringside is set up</h1>
      <p className="text-slate-600 dark:text-slate-300">Its owner sees the configuration here after signing in.</p>
      <p>
        <Link href="/sign-in" className="font-medium text-brand-600 underline underline-offset-2 dark:text-brand-500">
          Connect your ring
        </Link>
      </p>
    </main>
  );
}
