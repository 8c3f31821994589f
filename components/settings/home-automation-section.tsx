"use client";

import { useActionState } from "react";
import type { HomeAssistantSaveState, HomeAssistantSettings } from "@/lib/api/contract-home-automation";
import type { DataKind } from "@/lib/auth/api-scopes";
import { ConnectButton } from "@/components/auth/connect-button";
import { DataKindPicker } from "@/components/settings/data-kind-picker";
import { SettingsSection } from "@/components/settings/settings-section";
import { FormError } from "@/components/ui/shown-once";

/**
 * Settings → Home automation: "Publish to Home Assistant" (off until the person turns it on) and
 * the data kinds it publishes, chosen as a token's are. Self-contained: the page hands it the
 * person's settings, the kinds and the action (app/(app)/settings/actions-home-automation.ts).
 */
export function HomeAutomationSection({
  initial,
  kinds,
  save,
}: {
  initial: HomeAssistantSettings;
  kinds: ReadonlyArray<{ kind: DataKind; label: string }>;
  save: (prev: HomeAssistantSaveState, form: FormData) => Promise<HomeAssistantSaveState>;
}) {
  const [state, formAction] = useActionState(save, { settings: initial });
  const settings = state.settings ?? initial;
  return (
    <SettingsSection
      id="home-automation"
      name="home-automation"
      title="Home automation"
      description={
        <>
          With this on, a &ldquo;Ringside — you&rdquo; device appears in Home Assistant by itself (MQTT discovery), with your scores, last night, the
          ring&apos;s battery and bedtime window, updated the moment a sync brings something new. Only you can turn it on. Your values travel to the
          household&apos;s MQTT broker: anyone who may read its topics sees them, so publish only the kinds you want there.
        </>
      }
    >
      {!settings.configured && (
        <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="home-automation-not-configured">
          This Ringside has no MQTT broker yet (the owner sets <code className="text-xs">MQTT_URL</code>). Your choice is kept and takes effect once it has one.
        </p>
      )}
      {/* keyed by the outcome: a save draws the form again from what was saved */}
      <form key={state.at ?? 0} action={formAction} className="space-y-3" aria-label="Home Assistant">
        <label className="inline-flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="h-4 w-4 rounded accent-brand-600" />
          Publish to Home Assistant
        </label>
        <DataKindPicker kinds={kinds} legend="What it publishes" checked={settings.kinds} />
        <ConnectButton label="Save" pendingLabel="Saving…" variant="secondary" />
      </form>
      <FormError error={state.error} />
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300" data-testid="home-automation-status">
        {state.at && !state.error ? (settings.enabled ? "Saved: publishing to Home Assistant." : "Saved: not publishing.") : ""}
      </p>
    </SettingsSection>
  );
}
