import type { Metadata } from "next";
import { requireUser } from "@/lib/services/auth/session";
import { visibleSettingsSections } from "@/lib/settings-sections";
import { SettingsNav } from "@/components/settings/settings-nav";
import { SettingsHashRedirect } from "@/components/settings/settings-hash-redirect";
import { SettingsSectionContent } from "@/app/(app)/settings/section-content";

export const metadata: Metadata = { title: "Settings" };

// /settings: on a phone the list of sections; on a desktop the list (the layout's side column)
// with the first section beside it. An address of the one-page Settings (/settings#alerts)
// moves on to its section.
export default async function SettingsPage() {
  const user = await requireUser();
  const sections = visibleSettingsSections(user.role);
  return (
    <>
      <SettingsHashRedirect />
      <SettingsNav sections={sections} variant="list" className="md:hidden" />
      <div className="hidden md:block">
        <SettingsSectionContent slug={sections[0]!.slug} user={user} />
      </div>
    </>
  );
}
