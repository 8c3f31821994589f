"use client";
import { useState } from "react";
import type { SignalSettings } from "@/lib/api/contract";
import { WEEKDAYS } from "@/lib/alerts/catalog";
import { signalDocsHref, SLEEP_NEED_LIMITS } from "@/lib/signals/catalog";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { useSignalSettings, useUpdateSignalSettings } from "@/components/hooks/use-signals";
import { Button, inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { SaveStatus, SettingsSection } from "@/components/settings/settings-section";

/** Settings → Signals: the sleep need sleep debt is measured against, and the free days of social jet lag. */
export function SignalSettingsSection({ initial }: { initial: SignalSettings }) {
  const settings = useSignalSettings(initial).data;
  const update = useUpdateSignalSettings();
  const hydrated = useHydrated();
  const [need, setNeed] = useState(settings.sleepNeedMinutes === null ? "" : String(settings.sleepNeedMinutes / 60));
  const saveNeed = () => {
    const h = need.trim() === "" ? null : Number(need);
    update.mutate({ sleepNeedMinutes: h === null || !Number.isFinite(h) ? null : Math.round(h * 60) });
  };
  const toggleDay = (d: number, on: boolean) => update.mutate({ freeDays: on ? [...settings.freeDays, d] : settings.freeDays.filter((x) => x !== d) });
  return (
    <SettingsSection
      id="signals"
      name="signals"
      testId="signal-settings"
      title="Signals"
      description={
        <>
          What the explained signals measure you against.{" "}
          <a href={signalDocsHref("sleep-debt")} className="underline decoration-dotted underline-offset-2">
            How they work
          </a>
        </>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <form
          className="space-y-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            saveNeed();
          }}
        >
          <label htmlFor="sleep-need" className="text-sm font-medium">
            Sleep need (hours)
          </label>
          <div className="flex items-center gap-2">
            <input
              id="sleep-need"
              type="number"
              inputMode="decimal"
              step={0.25}
              min={SLEEP_NEED_LIMITS.min / 60}
              max={SLEEP_NEED_LIMITS.max / 60}
              placeholder="estimated"
              value={need}
              onChange={(e) => setNeed(e.target.value)}
              className={cn(inputClass, "w-28")}
            />
            <Button type="submit" disabled={!hydrated || update.isPending}>
              Save need
            </Button>
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Empty: estimated from your nights, where more sleep stops raising your readiness (8 h until there are enough).
          </p>
        </form>
        <fieldset id="free-days" className="space-y-1.5">
          <legend className="text-sm font-medium">Free days (social jet lag)</legend>
          <div className="flex flex-wrap gap-x-3 gap-y-1">
            {WEEKDAYS.map((d) => (
              <label key={d.value} className="inline-flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-600"
                  checked={settings.freeDays.includes(d.value)}
                  onChange={(e) => toggleDay(d.value, e.target.checked)}
                />
                {d.label.slice(0, 3)}
              </label>
            ))}
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">The night before a free day counts as a free night.</p>
        </fieldset>
      </div>
      <SaveStatus mutation={update} />
    </SettingsSection>
  );
}
