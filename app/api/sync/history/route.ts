import { withUser } from "@/lib/api/handler";
import { AppError } from "@/lib/http/errors";
import { downloadHistoryAgain } from "@/lib/sync/jobs";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { getSyncStatus } from "@/lib/sync/status";

export const dynamic = "force-dynamic";

// POST /api/sync/history – "Download my history again": after "Delete all my data", the person's
// sync runs again and their whole history is queued for download (409 when it was not paused)
export const POST = withUser(async ({ user }) => {
  if (!(await downloadHistoryAgain(user.id))) throw new AppError("conflict", "Your sync is not paused: there is nothing to download again.");
  wakeScheduler();
  return Response.json(await getSyncStatus(user.id), { status: 202, headers: { "cache-control": "no-store" } });
});
