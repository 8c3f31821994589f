import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { json, type ApiStateResponse } from "@/lib/api/contract";
import { readState } from "@/lib/api/v1/read";
import { stateToday } from "@/lib/services/person-today";

// GET /api/v1/state – the newest scores, last night's vital signs, the ring's battery and the
// bedtime window, each with its freshness, in one small document (home automation polls it;
// the tag also covers the person's time zone and today, which the ages count from)
export const GET = withTokenData(async ({ token }) => json<ApiStateResponse>(await readState(token)), {
  scope: async (token) => {
    const { timeZone, today } = await stateToday(token.userId);
    return `${timeZone} ${today}`;
  },
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
