import { withUser } from "@/lib/api/handler";
import { AppError } from "@/lib/http/errors";
import { getRingAccountForUser } from "@/lib/ring/tokens";
import { enqueueSyncNow, HISTORY_DELETED_MESSAGE } from "@/lib/sync/jobs";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { getSyncStatus } from "@/lib/sync/status";

export const dynamic = "force-dynamic";

// POST /api/sync – "Sync now": continue backfills, re-check the recent days of every collection
export const POST = withUser(async ({ user }) => {
  const account = await getRingAccountForUser(user.id);
  if (!account) throw new AppError("conflict", "Connect your ring first.");
  if (account.status !== "active") throw new AppError("conflict", "Reconnect your ring to sync again.");
  if (!(await enqueueSyncNow(user.id))) throw new AppError("conflict", HISTORY_DELETED_MESSAGE);
  wakeScheduler();
  return Response.json(await getSyncStatus(user.id), { status: 202, headers: { "cache-control": "no-store" } });
});
