import { formatDistanceStrict } from "date-fns";
import { collectionsForScopes, missingCollections, normalizeScopes, SCOPE_LABELS, scopeBrings, SHARED_ITEM_LABELS } from "@/lib/auth/scopes";
import type { SettingsPageData } from "@/lib/api/contract";
import type { FormAction } from "@/lib/api/contract";
import { ConnectButton } from "@/components/auth/connect-button";
import { DisconnectForm } from "@/components/auth/disconnect-form";

const STATUS_TEXT: Record<string, string> = {
  active: "Active",
  needs_reconnect: "Needs reconnect",
  disconnected: "Disconnected",
};

const REASON_TEXT: Record<string, string> = {
  invalid_grant: "the ring service no longer accepts the stored access (it was revoked, or used elsewhere)",
  token_unreadable: "the stored access cannot be read (the encryption key changed)",
  no_refresh_token: "the ring service gave no renewable access",
  wrong_portal:
    "the ring service's older token address refuses this app: it belongs to the newer developer portal. " +
    "The owner sets RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous, restarts Ringside, then you reconnect",
  disconnected_by_user: "you disconnected",
};

function tokenState(status: string, expiresAt: number | null, now: number): string {
  if (status !== "active") return STATUS_TEXT[status] ?? status;
  if (expiresAt === null) return "Active";
  const ms = expiresAt * 1000 - now;
  if (ms <= 0) return "Active \u00b7 access expired, renews on the next sync";
  return `Active \u00b7 access expires in ${formatDistanceStrict(expiresAt * 1000, now)}, renewed automatically`;
}

/** Settings → Connection: which ring account, what it shares, the token's state; reconnect and disconnect. */
export function ConnectionSection({
  account,
  email,
  requestedScopes,
  role,
  reconnect,
  disconnect,
  now,
}: SettingsPageData["connection"] & { role: SettingsPageData["user"]["role"]; reconnect: FormAction; disconnect: FormAction; now: number }) {
  const granted = normalizeScopes(account?.scope ?? "");
  const shared = collectionsForScopes(granted);
  const notShared = missingCollections(granted);
  const requestedButMissing = normalizeScopes(requestedScopes).filter((s) => !granted.includes(s));
  const status = account?.status ?? "disconnected";

  return (
    <section
      aria-labelledby="connection-heading"
      data-testid="connection-section"
      data-status={status}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 sm:p-6"
    >
      <h2 id="connection-heading" className="text-lg font-semibold">
        Connection
      </h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-500 dark:text-slate-400">Ring account</dt>
        <dd data-testid="ring-user-id" className="break-all font-mono text-xs sm:text-sm">
          {account?.ringUserId ?? "not connected"}
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">E-mail</dt>
        <dd data-testid="ring-email">{email ?? "not shared"}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Role</dt>
        <dd>{role === "owner" ? "Owner of this Ringside" : "Member"}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Status</dt>
        <dd data-testid="token-state">
          {tokenState(status, account?.expiresAt ?? null, now)}
          {account?.statusReason && status !== "active" && REASON_TEXT[account.statusReason] && (
            <span className="text-slate-500 dark:text-slate-400"> ({REASON_TEXT[account.statusReason]})</span>
          )}
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Shared scopes</dt>
        <dd data-testid="granted-scopes" data-scopes={granted.join(" ")}>
          {granted.length > 0 ? (
            <ul className="list-disc pl-5">
              {granted.map((s) => (
                <li key={s} data-scope={s}>
                  <span className="font-medium">{SCOPE_LABELS[s]}</span>
                  <span className="text-slate-600 dark:text-slate-400">: {scopeBrings(s).join("; ")}</span>
                </li>
              ))}
            </ul>
          ) : (
            "none"
          )}
        </dd>
      </dl>

      {notShared.length > 0 ? (
        <div
          data-testid="not-shared"
          data-items={notShared.join(" ")}
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <p className="font-medium">Not shared with Ringside, so not shown:</p>
          <ul className="mt-1 list-disc pl-5">
            {notShared.map((i) => (
              <li key={i}>{SHARED_ITEM_LABELS[i]}</li>
            ))}
          </ul>
          <p className="mt-2">
            To add {notShared.length === 1 ? "it" : "them"}, reconnect and tick the matching boxes on the ring&apos;s consent page. Everything already stored is
            kept.
          </p>
        </div>
      ) : (
        shared.length > 0 && (
          <p data-testid="all-shared" className="text-sm text-slate-600 dark:text-slate-300">
            Everything Ringside can show is shared.
          </p>
        )
      )}
      {requestedButMissing.length > 0 && notShared.length === 0 && (
        <p className="text-xs text-slate-500 dark:text-slate-400">Also not shared (not used by Ringside): {requestedButMissing.join(", ")}.</p>
      )}

      <div className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800 sm:flex-row sm:items-start">
        <form action={reconnect}>
          <ConnectButton
            label={notShared.length > 0 ? "Reconnect to share more" : "Reconnect"}
            pendingLabel="Opening the ring's consent…"
            variant={status === "needs_reconnect" ? "primary" : "secondary"}
          />
        </form>
        {account && <DisconnectForm action={disconnect} />}
      </div>
    </section>
  );
}
