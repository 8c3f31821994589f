import { z } from "zod";
import { AppError } from "@/lib/http/errors";
import { parseJsonBody, withUser } from "@/lib/api/handler";
import { changeDataFamily, changePollMinutes } from "@/lib/sync/admin";
import { dataFamilySchema, getDataFamily, getPollMinutes, pollMinutesSchema } from "@/lib/sync/settings";
import { webhookOverview } from "@/lib/sync/subscriptions";

export const dynamic = "force-dynamic";

const syncSettingsInputSchema = z
  .object({ dataFamily: dataFamilySchema.optional(), pollMinutes: pollMinutesSchema.optional() })
  .strict()
  .refine((v) => v.dataFamily !== undefined || v.pollMinutes !== undefined, { message: "Give dataFamily or pollMinutes." });

async function currentSettings() {
  return { dataFamily: await getDataFamily(), pollMinutes: await getPollMinutes(), webhooks: await webhookOverview() };
}

// GET /api/sync/settings – instance-wide sync settings (data family, poll interval, webhooks)
export const GET = withUser(async () => Response.json(await currentSettings()));

// PATCH /api/sync/settings – owner only: switch the data family (clears synced data) or the poll interval
export const PATCH = withUser(async ({ req, user }) => {
  if (user.role !== "owner") throw new AppError("forbidden", "Only the owner of this Ringside can change sync settings.");
  const input = await parseJsonBody(req, syncSettingsInputSchema);
  if (input.pollMinutes !== undefined) await changePollMinutes(input.pollMinutes);
  const switched = input.dataFamily !== undefined ? await changeDataFamily(input.dataFamily) : false;
  return Response.json({ ...(await currentSettings()), switched });
});
