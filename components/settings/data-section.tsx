import { currentUser } from "@/lib/auth/session";
import { getMetricsOverview } from "@/lib/db/queries/metrics";
import { DataSectionClient } from "@/components/settings/data-section-client";

/** Settings → Your data: exports (CSV or JSON, any collection and range, or everything) and
 * "delete all my data". */
export async function DataSection() {
  const user = await currentUser();
  if (!user) return null;
  const overview = getMetricsOverview(user.id);
  return <DataSectionClient ranges={overview.ranges} firstDay={overview.firstDay} lastDay={overview.lastDay} />;
}
