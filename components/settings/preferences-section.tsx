import { currentUser } from "@/lib/auth/session";
import { getPreferences } from "@/lib/db/queries/user-data";
import { PreferencesForm } from "@/components/settings/preferences-form";

/** Settings → Preferences: units (metric/imperial) and theme (light/dark/system). */
export async function PreferencesSection() {
  const user = await currentUser();
  if (!user) return null;
  return <PreferencesForm initial={await getPreferences(user.id)} />;
}
