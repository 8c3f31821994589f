import type { Metadata } from "next";
import { ConnectionSection } from "@/components/settings/connection-section";
import { HouseholdSection } from "@/components/settings/household-section";
import { SyncSection } from "@/components/settings/sync-section";
import { DataSection } from "@/components/settings/data-section";
import { ImportSection } from "@/components/settings/import-section";
import { PreferencesSection } from "@/components/settings/preferences-section";
import { AlertsSection } from "@/components/settings/alerts-section";

export const metadata: Metadata = { title: "Settings" };

// Each section is a server component owned by its feature (connection, household, sync,
// alerts, data export/delete, preferences) and checks the signed-in person itself.
export default function SettingsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <ConnectionSection />
      <HouseholdSection />
      <SyncSection />
      <AlertsSection />
      <DataSection />
      <ImportSection />
      <PreferencesSection />
    </div>
  );
}
