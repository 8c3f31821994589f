import "server-only";
import { clock } from "@/lib/clock";
import { env } from "@/lib/env.mjs";
import type { SessionUser } from "@/lib/services/auth/session";
import { findRingAccountByUserId, type RingAccountSummary } from "@/lib/db/queries/accounts";
import { listPendingInvites, type PendingInvite } from "@/lib/db/queries/invites";
import { findUserById, listHouseholdMembers, type HouseholdMember } from "@/lib/db/queries/users";
import { getMetricsOverview, type MetricsOverview } from "@/lib/services/metrics";
import { readSyncGeneration } from "@/lib/db/queries/sync-fence";
import { getPreferences } from "@/lib/services/people";
import { getDataFamily, getPollMinutes } from "@/lib/sync/settings";
import { webhookOverview, type WebhookOverview } from "@/lib/sync/subscriptions";
import type { Preferences } from "@/lib/schemas/requests";
import type { ApiTokenSummary } from "@/lib/services/api-tokens";
import { DATA_KIND_LABELS, DATA_KINDS, type DataKind } from "@/lib/auth/api-scopes";
import { listApiTokenSummaries } from "@/lib/services/api-tokens";

// Everything the Settings page shows, read in one place: the page passes each section its
// part (the sections only render).

export type SettingsPageData = {
  user: SessionUser;
  /** when the page was read (the token's "expires in" is relative to it) */
  now: number;
  connection: {
    account: Pick<RingAccountSummary, "ringUserId" | "status" | "statusReason" | "scope" | "expiresAt"> | null;
    email: string | null;
    /** the scopes Ringside asks for (RING_SCOPES) */
    requestedScopes: readonly string[];
  };
  /** the owner only */
  household: { invites: PendingInvite[]; members: HouseholdMember[] } | null;
  sync: { dataFamily: Awaited<ReturnType<typeof getDataFamily>>; pollMinutes: number; webhooks: WebhookOverview };
  data: MetricsOverview;
  /** "Delete all my data" paused the person's sync: Settings → Your data offers "Download my history again" */
  historyDeleted: boolean;
  preferences: Preferences;
  /** Settings → API: the person's tokens and the data kinds a token can be given */
  api: { tokens: ApiTokenSummary[]; kinds: Array<{ kind: DataKind; label: string }> };
};

export async function getSettingsPageData(user: SessionUser): Promise<SettingsPageData> {
  const [account, person, household, preferences] = await Promise.all([
    findRingAccountByUserId(user.id),
    findUserById(user.id),
    user.role === "owner" ? Promise.all([listPendingInvites(), listHouseholdMembers()]) : null,
    getPreferences(user.id),
  ]);
  return {
    user,
    now: clock.now(),
    connection: { account, email: person?.email ?? null, requestedScopes: env.RING_SCOPES },
    household: household ? { invites: household[0], members: household[1] } : null,
    sync: { dataFamily: await getDataFamily(), pollMinutes: await getPollMinutes(), webhooks: await webhookOverview() },
    data: await getMetricsOverview(user.id),
    historyDeleted: (await readSyncGeneration(user.id))?.paused ?? false,
    preferences,
    api: { tokens: await listApiTokenSummaries(user.id), kinds: DATA_KINDS.map((kind) => ({ kind, label: DATA_KIND_LABELS[kind] })) },
  };
}
