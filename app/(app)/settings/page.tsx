import type { Metadata } from "next";
import { requireUser } from "@/lib/services/auth/session";
import { getSettingsPageData } from "@/lib/services/settings";
import { ConnectionSection } from "@/components/settings/connection-section";
import { DataSectionClient } from "@/components/settings/data-section-client";
import { HouseholdSection } from "@/components/settings/household-section";
import { ImportSection } from "@/components/settings/import-section";
import { PreferencesForm } from "@/components/settings/preferences-form";
import { SyncSection } from "@/components/settings/sync-section";
import { AlertsSection } from "@/components/settings/alerts-section";
import { ApiSection } from "@/components/settings/api-section";
import { ReportLinksSection } from "@/components/settings/report-links-section";
import { listReportLinkSummaries } from "@/lib/services/report-links";
import { revokeReportLinkAction } from "@/app/(app)/report/actions";
import { SignalSettingsSection } from "@/components/settings/signal-settings";
import { getSignalSettings } from "@/lib/services/signals";
import { CycleSection } from "@/components/settings/cycle-section";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import { removeCycleDataAction, saveCycleSettingsAction } from "@/app/(app)/settings/actions-cycle";
import { getAlertsOverview } from "@/lib/services/alerts";
import { publicOrigin } from "@/lib/auth/origin";
import { createInviteLink, disconnectRing, reconnectRing, removeMemberAction, revokeInvite } from "@/app/(app)/settings/actions-connection";
import { createApiTokenAction, revokeApiTokenAction } from "@/app/(app)/settings/actions-api";
import {
  saveAlertSettingsAction,
  addAlertRuleAction,
  toggleAlertRuleAction,
  removeAlertRuleAction,
  addAlertChannelAction,
  toggleAlertChannelAction,
  removeAlertChannelAction,
  confirmAlertChannelAction,
  resendAlertConfirmationAction,
  sendAlertTestAction,
  sendAlertRuleTestAction,
} from "@/app/(app)/settings/actions-alerts";
import { Providers } from "@/app/providers";
import { HomeAutomationSection } from "@/components/settings/home-automation-section";
import { getHomeAssistantSettings } from "@/lib/services/home-assistant";
import { saveHomeAssistantAction } from "@/app/(app)/settings/actions-home-automation";

export const metadata: Metadata = { title: "Settings" };

// The page reads everything once (lib/services/settings.ts) and hands each section its part
// and the server actions it submits to; the sections only render.
export default async function SettingsPage() {
  const user = await requireUser();
  const [s, alerts, origin, signals, reportLinks, cycle, homeAssistant] = await Promise.all([
    getSettingsPageData(user),
    getAlertsOverview(user.id),
    publicOrigin(),
    getSignalSettings(user.id),
    listReportLinkSummaries(user.id),
    getCycleSettings(user.id),
    getHomeAssistantSettings(user.id),
  ]);
  return (
    <Providers>
      <div className="space-y-6">
        <h1 className="text-2xl font-semibold">Settings</h1>
        <ConnectionSection {...s.connection} now={s.now} role={user.role} reconnect={reconnectRing} disconnect={disconnectRing} />
        {s.household && (
          <HouseholdSection
            userId={user.id}
            {...s.household}
            createInviteLink={createInviteLink}
            revokeInvite={revokeInvite}
            removeMember={removeMemberAction}
          />
        )}
        <SyncSection {...s.sync} canEdit={user.role === "owner"} />
        <AlertsSection
          overview={alerts}
          actions={{
            saveAlertSettingsAction,
            addAlertRuleAction,
            toggleAlertRuleAction,
            removeAlertRuleAction,
            addAlertChannelAction,
            toggleAlertChannelAction,
            removeAlertChannelAction,
            confirmAlertChannelAction,
            resendAlertConfirmationAction,
            sendAlertTestAction,
            sendAlertRuleTestAction,
          }}
        />
        <ApiSection {...s.api} origin={origin} createToken={createApiTokenAction} revokeToken={revokeApiTokenAction} />
        <HomeAutomationSection initial={homeAssistant} kinds={s.api.kinds} save={saveHomeAssistantAction} />
        <ReportLinksSection links={reportLinks} revoke={revokeReportLinkAction} />
        <DataSectionClient ranges={s.data.ranges} firstDay={s.data.firstDay} lastDay={s.data.lastDay} />
        <ImportSection />
        <PreferencesForm initial={s.preferences} />
        <SignalSettingsSection initial={signals} />
        <CycleSection initial={cycle} save={saveCycleSettingsAction} removeData={removeCycleDataAction} />
      </div>
    </Providers>
  );
}
