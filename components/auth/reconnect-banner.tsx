import type { FormAction } from "@/lib/api/contract";
import { ConnectButton } from "@/components/auth/connect-button";

/**
 * Shown on every page while the person's ring connection needs them to reconnect (the ring
 * service refused the stored access). Sync is paused meanwhile; nothing stored is lost, and
 * reconnecting the same ring account re-links the same person.
 */
export function ReconnectBanner({ statusReason, reconnect }: { statusReason: string | null; reconnect: FormAction }) {
  return (
    <div
      role="alert"
      data-testid="reconnect-banner"
      className="border-b border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-3 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="text-sm">
          <strong>Your ring needs to be reconnected.</strong> The ring service no longer accepts Ringside&apos;s access, so syncing is paused. All your stored
          data is kept.
          {statusReason === "wrong_portal" && (
            <span data-testid="wrong-portal-advice">
              {" "}
              The service&apos;s older token address refuses this app because it belongs to the newer developer portal: the owner must first set{" "}
              <code>RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous</code> and restart Ringside, then reconnect here.
            </span>
          )}
        </p>
        <form action={reconnect}>
          <ConnectButton label="Reconnect" pendingLabel="Opening the ring's consent…" />
        </form>
      </div>
    </div>
  );
}
