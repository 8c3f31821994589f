import { withUser } from "@/lib/api/handler";
import { getSyncStatus } from "@/lib/sync/status";

export const dynamic = "force-dynamic";

// GET /api/sync/status – per-collection progress and freshness of the signed-in person's data
export const GET = withUser(async ({ user }) => {
  return Response.json(await getSyncStatus(user.id), { headers: { "cache-control": "no-store" } });
});
