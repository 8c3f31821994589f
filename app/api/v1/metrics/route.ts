import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { json, type ApiCatalogResponse } from "@/lib/api/contract";
import { readCatalog } from "@/lib/api/v1/read";

// GET /api/v1/metrics – every metric (label, unit, group, direction; readable by this token or
// not), the data kinds, and which days each readable collection covers
export const GET = withTokenData(async ({ token }) => json<ApiCatalogResponse>(await readCatalog(token)));
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
