import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { json, type TagsResponse } from "@/lib/api/contract";
import { readTags } from "@/lib/api/v1/read";

// GET /api/v1/tags – the person's tags with the number of days each is on
export const GET = withTokenData(async ({ token }) => json<TagsResponse>(await readTags(token)));
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
