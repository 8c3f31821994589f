import "server-only";
import { getAlertSettings } from "@/lib/db/queries/alerts";
import { todayIn } from "@/lib/days";

// A person's today: the day in the time zone their alerts use (Settings → Alerts), the one day
// every "today" of theirs means (the state document, Today, the Day view, the cycle, the missing
// nights, Home Assistant).

/** The person's today, in the zone their alerts use. */
export async function stateToday(userId: string): Promise<{ today: string; timeZone: string }> {
  const { timeZone } = await getAlertSettings(userId);
  return { today: todayIn(timeZone), timeZone };
}
