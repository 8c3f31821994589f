import { verifyPragmas } from "@/lib/db";
import { errorBody } from "@/lib/api/errors";
import { ensureSchedulerStarted } from "@/lib/sync/scheduler";
import { ensureBackupScheduleStarted } from "@/lib/db/backup-schedule";
import { announceSetupCode } from "@/lib/auth/setup-code";

export const dynamic = "force-dynamic";

// GET /api/health – liveness and database check for Docker/compose health checks
export async function GET() {
  try {
    await verifyPragmas();
    ensureSchedulerStarted();
    ensureBackupScheduleStarted();
    // `npm start` asks here as soon as the server listens: the start-up log shows the setup code.
    await announceSetupCode();
    return Response.json({ status: "ok", db: "ok" });
  } catch {
    return Response.json({ status: "error", db: "error", ...errorBody("service_unavailable", "The database does not answer.") }, { status: 503 });
  }
}
