import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { getDayParamsSchema } from "@/lib/schemas/requests";
import { json, type ApiDayResponse } from "@/lib/api/contract";
import { readDay } from "@/lib/api/v1/read";

// GET /api/v1/days/:day – one day's documents, its sleep periods (hypnogram, heart rate, HRV),
// the activity timeline and the note with its tags
export const GET = withTokenData<{ day: string }>(async ({ token, params }) => {
  const { day } = getDayParamsSchema.parse(params);
  return json<ApiDayResponse>(await readDay(token, day));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
