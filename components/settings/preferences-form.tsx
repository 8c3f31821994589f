"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { queryKeys, type Preferences } from "@/lib/api/contract";
import { usePreferences, useUpdatePreferences } from "@/components/hooks/use-preferences";
import { Segmented } from "@/components/ui/segmented";
import { SaveStatus, SettingsSection } from "@/components/settings/settings-section";

export function PreferencesForm({ initial }: { initial: Preferences }) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!qc.getQueryData(queryKeys.preferences)) qc.setQueryData(queryKeys.preferences, initial);
  }, [qc, initial]);
  const prefs = usePreferences().data ?? initial;
  const update = useUpdatePreferences();
  return (
    <SettingsSection name="preferences" title="Preferences">
      <div className="grid gap-4 sm:grid-cols-2">
        <Setting
          label="Units"
          value={prefs.units}
          onChange={(units) => update.mutate({ units })}
          options={[
            { value: "metric", label: "Metric (km, °C)" },
            { value: "imperial", label: "Imperial (mi, °F)" },
          ]}
        />
        <Setting
          label="Theme"
          value={prefs.theme}
          onChange={(theme) => update.mutate({ theme })}
          options={[
            { value: "light", label: "Light" },
            { value: "dark", label: "Dark" },
            { value: "system", label: "System" },
          ]}
        />
      </div>
      <SaveStatus mutation={update} />
    </SettingsSection>
  );
}

/** A setting of one of a few values: its name above the choices. */
function Setting<T extends string>({ label, ...segmented }: Parameters<typeof Segmented<T>>[0]) {
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium">{label}</p>
      <Segmented label={label} {...segmented} />
    </div>
  );
}
