import type { SessionUser } from "@/lib/services/auth/session";
import type { SettingsSlug } from "@/lib/settings-sections";
import { getSettingsPageData } from "@/lib/services/settings";
import { ConnectionSection } from "@/components/settings/connection-section";
import { DataSectionClient } from "@/components/settings/data-section-client";
import { HouseholdSection } from "@/components/settings/household-section";
import { ImportSection } from "@/components/settings/import-section";
import { PreferencesForm } from "@/components/settings/preferences-form";
import { SyncSection } from "@/components/settings/sync-section";
import { AlertsSection } from "@/components/settings/alerts-section";
import { ApiSection } from "@/components/settings/api-section";
import { HomeAutomationSection } from "@/components/settings/home-automation-section";
import { getHomeAssistantSettings } from "@/lib/services/home-assistant";
import { saveHomeAssistantAction } from "@/app/(app)/settings/actions-home-automation";
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
import { SettingsSection } from "@/components/settings/settings-section";

// One section of Settings (lib/settings-sections.ts declares them): it reads what the section
// shows (lib/services/settings.ts and the section's own service) and hands the section its part
// and the server actions it submits to; the sections only render.

/** The section `slug`, for `user`. */
export async function SettingsSectionContent({ slug, user }: { slug: SettingsSlug; user: SessionUser }) {
  switch (slug) {
    case "account": {
      const s = await getSettingsPageData(user);
      return <ConnectionSection {...s.connection} now={s.now} role={user.role} reconnect={reconnectRing} disconnect={disconnectRing} />;
    }
    case "household": {
      const s = await getSettingsPageData(user);
      return s.household ? (
        <HouseholdSection userId={user.id} {...s.household} createInviteLink={createInviteLink} revokeInvite={revokeInvite} removeMember={removeMemberAction} />
      ) : (
        <SettingsSection name="household" title="Household">
          <p className="text-sm text-slate-600 dark:text-slate-300">The owner of this Ringside invites others and manages the members.</p>
        </SettingsSection>
      );
    }
    case "cycle":
      return <CycleSection initial={await getCycleSettings(user.id)} save={saveCycleSettingsAction} removeData={removeCycleDataAction} />;
    case "alerts":
      return (
        <AlertsSection
          overview={await getAlertsOverview(user.id)}
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
      );
    case "signals":
      return <SignalSettingsSection initial={await getSignalSettings(user.id)} />;
    case "preferences":
      return <PreferencesForm initial={(await getSettingsPageData(user)).preferences} />;
    case "data": {
      const s = await getSettingsPageData(user);
      return (
        <div className="space-y-6">
          <DataSectionClient ranges={s.data.ranges} firstDay={s.data.firstDay} lastDay={s.data.lastDay} historyDeleted={s.historyDeleted} />
          <ImportSection />
        </div>
      );
    }
    case "api": {
      const [s, origin] = await Promise.all([getSettingsPageData(user), publicOrigin()]);
      return <ApiSection {...s.api} origin={origin} createToken={createApiTokenAction} revokeToken={revokeApiTokenAction} />;
    }
    case "home-automation": {
      const [s, homeAssistant] = await Promise.all([getSettingsPageData(user), getHomeAssistantSettings(user.id)]);
      return <HomeAutomationSection initial={homeAssistant} kinds={s.api.kinds} save={saveHomeAssistantAction} />;
    }
    case "report-links":
      return <ReportLinksSection links={await listReportLinkSummaries(user.id)} revoke={revokeReportLinkAction} />;
    case "sync": {
      const s = await getSettingsPageData(user);
      return <SyncSection {...s.sync} canEdit={user.role === "owner"} />;
    }
  }
}
