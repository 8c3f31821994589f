import type { Metadata } from "next";
import Link from "next/link";
import { env } from "@/lib/env.mjs";
import { publicOrigin, ringRedirectUri } from "@/lib/auth/origin";
import { currentUser } from "@/lib/services/auth/session";
import { isSetupCodeRequired } from "@/lib/auth/setup-code";
import { countOwners } from "@/lib/db/queries/users";
import { NEWER_PROVIDER_ISSUER } from "@/lib/auth/issuer.mjs";
import { ringOAuth, type RingOAuth } from "@/lib/auth/ring-oauth";
import { SIGN_IN_ERRORS, type SignInErrorCode } from "@/lib/auth/sign-in-errors";
import { UserLimitHelp } from "@/components/auth/user-limit-help";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up a real ring account" };

type Check = { name: string; state: "ok" | "missing" | "default" | "optional"; note: string };

type Provider = { oauth: RingOAuth | null; error: string | null };

async function provider(): Promise<Provider> {
  try {
    return { oauth: await ringOAuth(), error: null };
  } catch (e) {
    return { oauth: null, error: e instanceof Error ? e.message : "the discovery document could not be read" };
  }
}

function endpointNote(value: string | null | undefined, explicit: string | undefined, mode: RingOAuth["mode"] | null): string {
  if (!value) return mode === "newer" ? "not named by the provider's discovery document" : "unknown";
  if (explicit) return `${value} (set explicitly)`;
  return mode === "newer" ? `${value} (from discovery)` : value;
}

/** Only presence is shown here, never a secret's value. */
function checks({ oauth, error }: Provider): Check[] {
  const mode = oauth?.mode ?? (env.RING_OAUTH_ISSUER ? "newer" : "legacy");
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
    {
      name: "RING_OAUTH_ISSUER",
      state: env.RING_OAUTH_ISSUER ? (error ? "missing" : "ok") : "optional",
      note: env.RING_OAUTH_ISSUER
        ? error
          ? `set, but its discovery document cannot be read: ${error}`
          : `${env.RING_OAUTH_ISSUER} \u2014 the newer identity provider (apps registered in the developer portal)`
        : "not set: the legacy identity provider (apps registered in the older portal)",
    },
    { name: "RING_AUTHORIZE_URL", state: oauth ? "ok" : "missing", note: endpointNote(oauth?.authorizeUrl, env.RING_OAUTH_EXPLICIT.authorize, mode) },
    { name: "RING_TOKEN_URL", state: oauth ? "ok" : "missing", note: endpointNote(oauth?.tokenUrl, env.RING_OAUTH_EXPLICIT.token, mode) },
    {
      name: "RING_REVOKE_URL",
      state: oauth?.revokeUrl ? "ok" : "optional",
      note: endpointNote(oauth?.revokeUrl, env.RING_OAUTH_EXPLICIT.revoke, mode),
    },
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
    {
      name: "RING_SCOPES",
      state: "ok",
      note:
        mode === "newer" && oauth
          ? `${env.RING_SCOPES.join(" ")} \u2014 asked for as: ${oauth.requestScope || "(none the provider lists)"}`
          : env.RING_SCOPES.join(" "),
    },
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

/** The errors a person may meet on the way, in the words of the error page. */
const ERRORS_ON_THE_WAY: ReadonlyArray<{ code: SignInErrorCode; cause: string }> = [
  { code: "wrong_portal", cause: "a developer-portal app while RING_OAUTH_ISSUER is unset: set it" },
  { code: "client_rejected", cause: "wrong client id or secret, or the other portal's identity provider" },
  { code: "issuer_mismatch", cause: "the answer named another issuer than RING_OAUTH_ISSUER, or none" },
  { code: "state_mismatch", cause: "an old or duplicated sign-in tab, or cookies cleared mid-way" },
  { code: "state_missing", cause: "the service returned no state (report it)" },
  { code: "provider_unreachable", cause: "the discovery document could not be read just now" },
  { code: "user_limit", cause: "the unapproved app already has 10 people" },
  { code: "denied", cause: "Deny was chosen on the consent page" },
];

export default async function SetupPage() {
  // The configuration (what is missing, the service's addresses, how many e-mails are allowed)
  // is the owner's business: before there is an owner only what is needed to get going shows.
  const hasOwner = (await countOwners()) > 0;
  const isOwner = (await currentUser())?.role === "owner";
  if (hasOwner && !isOwner) return <SetUp />;
  const origin = await publicOrigin();
  const redirectUri = ringRedirectUri(origin);
  // (the provider's discovery is only read for the owner, who sees the checks)
  const list = isOwner ? checks(await provider()) : [];
  const ready = list.every((c) => c.state !== "missing");

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      <div>
        <h1 className="text-3xl font-semibold">Connect a real ring account</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          Out of the box Ringside talks to its built-in ring emulator. To use your own ring, register Ringside as an app with the ring service once, then give
          Ringside the app&apos;s credentials.
        </p>
      </div>

      <section className="space-y-2">
        <h2 className="text-xl font-semibold">1. Register the app</h2>
        <p>In the ring service&apos;s developer portal, create an application and register exactly this redirect URI:</p>
        <pre data-testid="redirect-uri" className="whitespace-pre-wrap break-all rounded-lg bg-slate-900 p-3 text-sm text-slate-100">
          {redirectUri}
        </pre>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          It must match character for character (scheme, host, port, path). If people reach Ringside under another address, set PUBLIC_URL to that address first
          and register the URI shown then.
        </p>
      </section>

      <section className="space-y-2" data-testid="setup-portals">
        <h2 className="text-xl font-semibold">2. Set the environment for your portal and restart</h2>
        <p>Which portal was the application registered in? That decides the identity provider Ringside must use.</p>
        <h3 className="font-semibold">Newer developer portal (applications registered today)</h3>
        <pre
          data-testid="setup-env-newer"
          className="whitespace-pre-wrap break-all rounded-lg bg-slate-900 p-3 text-sm text-slate-100"
        >{`RING_OAUTH_ISSUER=${NEWER_PROVIDER_ISSUER}
RING_CLIENT_ID=<client id from the portal>
RING_CLIENT_SECRET=<client secret from the portal>
RING_API_BASE_URL=https://api.ouraring.com
PUBLIC_URL=${origin}`}</pre>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Ringside reads the provider&apos;s discovery document at start and takes every sign-in address and scope name from it; a wrong RING_OAUTH_ISSUER stops
          Ringside with a message naming it.
        </p>
        <h3 className="font-semibold">Older portal</h3>
        <pre
          data-testid="setup-env-legacy"
          className="whitespace-pre-wrap break-all rounded-lg bg-slate-900 p-3 text-sm text-slate-100"
        >{`# leave RING_OAUTH_ISSUER unset
RING_CLIENT_ID=<client id from the portal>
RING_CLIENT_SECRET=<client secret from the portal>
RING_API_BASE_URL=https://api.ouraring.com
RING_OAUTH_BASE_URL=https://cloud.ouraring.com
PUBLIC_URL=${origin}`}</pre>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          The explicit addresses RING_AUTHORIZE_URL, RING_TOKEN_URL and RING_REVOKE_URL still override either way. A developer-portal app set up as an older one
          is refused at the older token address; the error page then says to set RING_OAUTH_ISSUER.
        </p>
      </section>

      {!hasOwner && isSetupCodeRequired() && (
        <section className="space-y-2" data-testid="setup-code-help">
          <h2 className="text-xl font-semibold">3. Become the owner</h2>
          <p>
            The first person to connect becomes this Ringside&apos;s owner. That first connect needs the one-time setup code Ringside printed in its server log
            when it started (&ldquo;Ringside has no owner yet&rdquo;): enter it on the sign-in page. People whose e-mail is listed in ALLOWED_EMAILS need no
            code.
          </p>
        </section>
      )}

      {isOwner && (
        <section className="space-y-2" data-testid="setup-checks">
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
                <tr
                  key={c.name}
                  data-testid={`setup-check-${c.name}`}
                  data-state={c.state}
                  className="border-b border-slate-100 align-top dark:border-slate-800"
                >
                  <td className="py-1 pr-3 font-mono text-xs">{c.name}</td>
                  <td className="py-1 pr-3">
                    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${BADGE[c.state].cls}`}>{BADGE[c.state].label}</span>
                  </td>
                  <td className="break-all py-1 text-slate-700 dark:text-slate-300">{c.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section className="space-y-2">
        <h2 className="text-xl font-semibold">What the errors on the way mean</h2>
        <table className="w-full text-left text-sm" data-testid="setup-errors">
          <tbody>
            {ERRORS_ON_THE_WAY.map((e) => (
              <tr key={e.code} className="border-b border-slate-100 align-top dark:border-slate-800">
                <td className="py-1 pr-3 font-medium">{SIGN_IN_ERRORS[e.code].title}</td>
                <td className="py-1 text-slate-700 dark:text-slate-300">{e.cause}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

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
