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
        <div className="space-y-1.5">
          <p id="units-label" className="text-sm font-medium">
            Units
          </p>
          <Segmented
            label="Units"
            value={prefs.units}
            onChange={(units) => update.mutate({ units })}
            options={[
              { value: "metric", label: "Metric (km, °C)" },
              { value: "imperial", label: "Imperial (mi, °F)" },
            ]}
          />
        </div>
        <div className="space-y-1.5">
          <p className="text-sm font-medium">Theme</p>
          <Segmented
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
      </div>
      <SaveStatus mutation={update} />
    </SettingsSection>
  );
}
