import { READ_ONLY, withToken } from "@/lib/api/v1/handler";
import { json, type ApiSyncStatusResponse } from "@/lib/api/contract";
import { readSyncStatus } from "@/lib/api/v1/read";

export const dynamic = "force-dynamic";

// GET /api/v1/sync/status – whether a sync runs, and each readable collection's freshness
export const GET = withToken(async ({ token }) => json<ApiSyncStatusResponse>(await readSyncStatus(token)));
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
