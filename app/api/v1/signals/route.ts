import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { signalsQuerySchema } from "@/lib/schemas/requests";
import { json, type SignalsResponse } from "@/lib/api/contract";
import { readSignals } from "@/lib/api/v1/read";

// GET /api/v1/signals?from&to – the explained signals by day (early warning, sleep debt,
// regularity, training load) that the token's data kinds allow, each with its inputs and baseline
export const GET = withTokenData(async ({ token, searchParams }) => {
  const range = parseQuery(searchParams, signalsQuerySchema);
  return json<SignalsResponse>(await readSignals(token, range));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
