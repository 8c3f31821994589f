import "server-only";
import { logger } from "@/lib/log";
import { ReconnectRequiredError, RingAccountPausedError, RingApiError, RingRateLimitedError, TokenRefreshError } from "@/lib/ring/errors";
import type { SyncCollection } from "@/lib/resources";
import { SyncStoppedError } from "@/lib/db/queries/sync-fence";
import type { SyncStatus } from "@/lib/db/queries/sync-state";
import type { EngineContext } from "./context";
import { updateRunState } from "./commit";
import type { SyncRun } from "./runs";

// What the engine makes of an error: how the job runner treats it (classifyError), what the
// sync page says (describeError), and what the collection's SyncState records (recordFailure).

function isPausedError(err: unknown): boolean {
  return err instanceof ReconnectRequiredError || err instanceof RingAccountPausedError || (err instanceof RingApiError && err.code === "unauthorized");
}

/** How the job runner should treat an error thrown by the engine. */
export type ErrorClass =
  | { kind: "postpone"; until: number }
  | { kind: "paused" }
  | { kind: "stop"; status: SyncStatus }
  | { kind: "bug" }
  | { kind: "retry" }
  /** the person's sync was stopped (their data deleted, their connection ended, the person removed): nothing more to do */
  | { kind: "stopped" };

export function classifyError(err: unknown): ErrorClass {
  if (err instanceof SyncStoppedError) return { kind: "stopped" };
  if (err instanceof RingRateLimitedError) return { kind: "postpone", until: err.until };
  if (isPausedError(err)) return { kind: "paused" };
  if (err instanceof RingApiError) {
    switch (err.code) {
      case "membership_expired":
        return { kind: "stop", status: "expired" };
      case "not_shared":
        return { kind: "stop", status: "not_shared" };
      case "bad_request":
      case "unprocessable":
      case "not_found":
        return { kind: "bug" };
      default:
        return { kind: "retry" };
    }
  }
  if (err instanceof TokenRefreshError) return { kind: "retry" };
  return { kind: "retry" };
}

/** A message for the sync page (no tokens, no URLs with queries). */
export function describeError(err: unknown): string {
  const c = classifyError(err);
  if (c.kind === "postpone") return `Paused by the ring service's rate limit until ${new Date(c.until).toISOString()}.`;
  if (c.kind === "paused") return "The ring connection needs to be reconnected; syncing is paused.";
  if (c.kind === "stopped") return "Stopped: the data was deleted or the ring disconnected.";
  if (err instanceof RingApiError) {
    if (c.kind === "stop" && c.status === "expired") return "The ring membership has expired: the service does not share this data.";
    if (c.kind === "stop") return "Not shared: the consent for this data was not given. Reconnect and allow it to sync.";
    if (c.kind === "bug") return `The ring service refused Ringside's request (HTTP ${err.status} at ${err.endpoint}). This is a bug in Ringside.`;
    if (err.code === "no_answer") return `The ring service did not answer (${err.detail ?? "network error"}); retrying later.`;
    return `The ring service failed (HTTP ${err.status}); retrying later.`;
  }
  if (err instanceof TokenRefreshError) {
    // The token endpoint failed for a passing reason (5xx, no answer): not an internal error.
    return `The ring service could not renew the access (${err.status ? `HTTP ${err.status}` : "no answer"}); retrying later.`;
  }
  return err instanceof Error ? `Internal error: ${err.message.slice(0, 200)}` : "Internal error.";
}

/**
 * Records what went wrong on the collection's SyncState (fenced by the run: a stopped run records
 * nothing, its state may be gone with the person's data), then rethrows.
 */
export async function recordFailure(ctx: EngineContext, run: SyncRun, collection: SyncCollection, err: unknown, running: SyncStatus): Promise<never> {
  const { userId } = run;
  // a request stopped by the run's signal fails as whatever fetch threw: the run's reason is what happened
  if (run.signal.aborted) throw run.signal.reason as Error;
  const c = classifyError(err);
  if (c.kind === "stopped") throw err;
  const status: SyncStatus = c.kind === "stop" ? c.status : c.kind === "paused" ? "paused" : c.kind === "bug" ? "error" : running;
  try {
    await updateRunState(run, collection, { status, lastError: describeError(err), lastAttemptAt: ctx.now() });
  } catch (dbErr) {
    if (dbErr instanceof SyncStoppedError) throw dbErr;
    logger.error({ userId, collection, err: dbErr instanceof Error ? dbErr.message : String(dbErr) }, "could not record a sync error");
  }
  if (c.kind === "bug" || c.kind === "retry") {
    logger.warn({ userId, collection, kind: c.kind, err: err instanceof Error ? err.message : String(err) }, "sync step failed");
  }
  throw err;
}
