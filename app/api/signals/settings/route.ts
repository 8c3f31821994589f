import { parseJsonBody, withUser } from "@/lib/api/handler";
import { updateSignalSettingsBodySchema } from "@/lib/schemas/requests";
import { json, type SignalSettings } from "@/lib/api/contract";
import { getSignalSettings, saveSignalSettings } from "@/lib/services/signals";

// GET /api/signals/settings – the sleep need the person set (minutes, null: estimated) and their free days
export const GET = withUser(async ({ user }) => json<SignalSettings>(await getSignalSettings(user.id)));

// PATCH /api/signals/settings – changes the sleep need and/or the free days (Settings → Signals)
export const PATCH = withUser(async ({ user, req }) =>
  json<SignalSettings>(await saveSignalSettings(user.id, await parseJsonBody(req, updateSignalSettingsBodySchema))),
);
