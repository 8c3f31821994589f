"use client";
import { useState, useTransition } from "react";
import type { CycleSettings } from "@/lib/cycle";
import type { CycleRemoveState, CycleSettingsState } from "@/lib/api/contract-cycle";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { Button } from "@/components/ui/field";
import { SettingsSection } from "@/components/settings/settings-section";

type Key = keyof CycleSettings;

const BOXES: ReadonlyArray<{ key: Key; label: string; hint: string }> = [
  {
    key: "tracking",
    label: "Track my cycle",
    hint:
      "Off until you turn it on. Off hides every cycle view, card, API answer and alert, " +
      "and keeps none of the cycle phases the ring service sends (turning it off deletes them).",
  },
  { key: "hormonalContraception", label: "Hormonal contraception", hint: "No phase is derived while it is on (the pill, a hormonal IUD, an implant)." },
  { key: "pregnant", label: "Pregnant", hint: "No phase is derived while it is on." },
];

/**
 * Settings → Your cycle: cycle tracking and what pauses it, each saved as it is ticked, and
 * "Remove cycle data" (after a confirmation). The page hands it the settings and the actions.
 */
export function CycleSection({
  initial,
  save,
  removeData,
}: {
  initial: CycleSettings;
  save: (patch: Partial<CycleSettings>) => Promise<CycleSettingsState>;
  removeData: (confirm: "remove") => Promise<CycleRemoveState>;
}) {
  const hydrated = useHydrated();
  const [settings, setSettings] = useState(initial);
  const [status, setStatus] = useState<{ error: boolean; text: string }>({ error: false, text: "" });
  const [pending, startTransition] = useTransition();
  const toggle = (key: Key, on: boolean) => {
    const before = settings;
    setSettings({ ...settings, [key]: on });
    startTransition(async () => {
      const r = await save({ [key]: on });
      if (r.settings) setSettings(r.settings);
      else setSettings(before);
      setStatus(r.error ? { error: true, text: r.error.message } : { error: false, text: "Saved." });
    });
  };
  return (
    <SettingsSection
      id="cycle"
      name="cycle"
      title="Your cycle"
      description={
        <>
          Cycle day, phase and the next period from your own nights and the starts you log, and signals that know your phase. Only you see it: no one else in
          the household, and an API token only with the cycle kind.
        </>
      }
    >
      <fieldset className="space-y-3" disabled={!hydrated}>
        <legend className="sr-only">Cycle tracking</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          {BOXES.map((b) => (
            <div key={b.key} className="max-w-xs space-y-0.5">
              <label className="inline-flex items-center gap-2 text-sm font-medium">
                <input
                  id={`cycle-${b.key}`}
                  type="checkbox"
                  className="h-4 w-4 rounded accent-brand-600"
                  checked={settings[b.key]}
                  aria-describedby={`cycle-${b.key}-hint`}
                  onChange={(e) => toggle(b.key, e.target.checked)}
                />
                {b.label}
              </label>
              <p id={`cycle-${b.key}-hint`} className="text-xs text-slate-600 dark:text-slate-300">
                {b.hint}
              </p>
            </div>
          ))}
        </div>
      </fieldset>
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300" data-testid="cycle-settings-status" aria-busy={pending}>
        {status.error ? <span className="text-rose-700 dark:text-rose-300">{status.text}</span> : status.text}
      </p>
      <RemoveCycleData removeData={removeData} disabled={!hydrated} />
    </SettingsSection>
  );
}

function RemoveCycleData({ removeData, disabled }: { removeData: (confirm: "remove") => Promise<CycleRemoveState>; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<{ error: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const run = () =>
    startTransition(async () => {
      const r = await removeData("remove");
      setOpen(false);
      setOutcome(
        r.deleted
          ? { error: false, text: `Removed ${r.deleted.entries} entries and ${r.deleted.documents} cycle documents from the ring.` }
          : { error: true, text: r.error?.message ?? "Nothing was removed." },
      );
    });
  return (
    <div className="space-y-2 rounded-lg border border-rose-200 p-3 dark:border-rose-900/60">
      <h3 className="text-sm font-semibold text-rose-800 dark:text-rose-300">Remove cycle data</h3>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        Deletes the period starts and ends you logged and the cycle documents the ring service sent; the days derived from them go with them. Your settings
        stay.
      </p>
      {open ? (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm">This cannot be undone.</span>
          <Button variant="danger" disabled={pending} onClick={run} data-testid="cycle-remove-confirm">
            {pending ? "Removing…" : "Remove all cycle data"}
          </Button>
          <Button variant="ghost" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button
          variant="secondary"
          disabled={disabled}
          className="!border-rose-300 !text-rose-700 dark:!border-rose-800 dark:!text-rose-300"
          onClick={() => setOpen(true)}
        >
          Remove cycle data…
        </Button>
      )}
      {outcome ? (
        <p role={outcome.error ? "alert" : "status"} className={outcome.error ? "text-sm text-rose-700 dark:text-rose-300" : "text-sm"}>
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
