import type { AlertsOverview } from "@/lib/api/contract";
import { AlertsSettings } from "@/components/settings/alerts-settings";
import type { AlertActions } from "@/components/settings/alert-form-parts";

/** Settings → Alerts: message settings, channels, rules and the history of what was sent (the page reads the overview and passes the actions). */
export function AlertsSection({ overview, actions }: { overview: AlertsOverview; actions: AlertActions }) {
  return (
    <section
      id="alerts"
      aria-labelledby="alerts-heading"
      data-testid="alerts-section"
      className="space-y-6 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 sm:p-6"
    >
      <div>
        <h2 id="alerts-heading" className="text-lg font-semibold">
          Alerts
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Ringside tells you when something needs your attention, and sends a weekly digest, through ntfy, e-mail or a webhook (Home Assistant or any script).
          Each alert is sent once while its condition lasts, to every channel that is switched on.
        </p>
      </div>
      <AlertsSettings overview={overview} actions={actions} />
    </section>
  );
}
