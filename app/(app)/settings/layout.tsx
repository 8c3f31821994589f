import type { ReactNode } from "react";
import { requireUser } from "@/lib/services/auth/session";
import { visibleSettingsSections } from "@/lib/settings-sections";
import { SettingsNav } from "@/components/settings/settings-nav";
import { Providers } from "@/app/providers";

// Settings: the section list (lib/settings-sections.ts) as a side column beside the section on a
// desktop; on a phone /settings is the list and each section a page of its own.
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <Providers>
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">Settings</h1>
        <div className="md:grid md:grid-cols-[12rem_minmax(0,1fr)] md:items-start md:gap-6">
          <SettingsNav sections={visibleSettingsSections(user.role)} variant="side" className="hidden md:sticky md:top-4 md:block" />
          <div className="min-w-0 space-y-4">{children}</div>
        </div>
      </div>
    </Providers>
  );
}
