import Link from "next/link";
import type { SettingsPageData } from "@/lib/api/contract";
import { SyncSettingsForm } from "@/components/sync/sync-settings-form";

const MODE_TEXT = {
  off: "Off: PUBLIC_URL is not set, so Ringside polls the ring service instead.",
  pending: "Being set up: Ringside subscribes at the ring service shortly after start.",
  partial: "Partly active: some subscriptions are missing; Ringside polls meanwhile and keeps trying.",
  active: "Active: the ring service tells Ringside about new data within about a minute.",
} as const;

/** Settings → Sync: data family, poll interval, webhook subscription state. */
export function SyncSection({ dataFamily, pollMinutes, webhooks: hooks, canEdit }: SettingsPageData["sync"] & { canEdit: boolean }) {
  return (
    <section
      aria-labelledby="sync-heading"
      data-testid="sync-section"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 sm:p-6"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="sync-heading" className="text-lg font-semibold">
          Sync
        </h2>
        <Link href="/sync" className="text-sm underline">
          Progress and freshness
        </Link>
      </div>
      <SyncSettingsForm dataFamily={dataFamily} pollMinutes={pollMinutes} canEdit={canEdit} />
      <div className="space-y-1 text-sm" data-testid="webhook-state" data-mode={hooks.mode}>
        <h3 className="font-medium">Webhooks</h3>
        <p>{MODE_TEXT[hooks.mode]}</p>
        {hooks.mode !== "off" && (
          <p className="text-slate-600 dark:text-slate-400">
            {hooks.active} of {hooks.expected} subscriptions active
            {hooks.nextExpiry && <> · first expiry {new Date(hooks.nextExpiry).toLocaleDateString()}, renewed a week before</>} · callback{" "}
            <code className="break-all">{hooks.callbackUrl}</code>
          </p>
        )}
        {hooks.errors.length > 0 && (
          <ul className="list-disc pl-5 text-red-700 dark:text-red-300">
            {hooks.errors.slice(0, 5).map((e) => (
              <li key={`${e.eventType}:${e.dataType}`}>
                {e.dataType} / {e.eventType}: {e.error ?? "not active"}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
