import { checkDatabase } from "@/lib/db";
import { errorBody } from "@/lib/http/errors";

export const dynamic = "force-dynamic";

// GET /api/health – liveness and database check for Docker/compose health checks
export async function GET() {
  try {
    await checkDatabase();
    return Response.json({ status: "ok", db: "ok" });
  } catch {
    return Response.json({ status: "error", db: "error", ...errorBody("service_unavailable", "The database does not answer.") }, { status: 503 });
  }
}
