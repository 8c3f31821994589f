import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { tagComparisonQuerySchema, tagIdParamsSchema } from "@/lib/schemas/requests";
import { json, type TagComparisonResponse } from "@/lib/api/contract";
import { readTagComparison } from "@/lib/api/v1/read";

// GET /api/v1/tags/:id/comparison?metric&lag&from&to – a metric on days with the tag against
// days without it (lag 1: the day after each day), with n and the difference
export const GET = withTokenData<{ id: string }>(async ({ token, params, searchParams }) => {
  const { id } = tagIdParamsSchema.parse(params);
  const q = parseQuery(searchParams, tagComparisonQuerySchema);
  return json<TagComparisonResponse>(await readTagComparison(token, id, q));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
