import { withUser, parseJsonBody } from "@/lib/api/handler";
import { updatePreferencesBodySchema } from "@/lib/schemas/requests";
import { getPreferences, updatePreferences } from "@/lib/services/people";
import { servedOverHttps } from "@/lib/auth/origin";

const YEAR_S = 365 * 24 * 3600;

// GET /api/me/preferences – units (metric/imperial) and theme (light/dark/system)
export const GET = withUser(async ({ user }) => Response.json(await getPreferences(user.id)));

// PATCH /api/me/preferences – changes units and/or theme; the theme is also set as the
// `ringside-theme` cookie so the first paint of every page uses it (theme-script.tsx)
export const PATCH = withUser(async ({ user, req }) => {
  const body = await parseJsonBody(req, updatePreferencesBodySchema);
  const prefs = await updatePreferences(user.id, body);
  const res = Response.json(prefs);
  // Secure whenever this Ringside is served over https (directly or behind a proxy)
  const secure = servedOverHttps(req) ? "; Secure" : "";
  res.headers.append("set-cookie", `ringside-theme=${prefs.theme}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax${secure}`);
  return res;
});
