"use client";

// Settings → Alerts, the rules: each rule with a test of it, switching and removing, and the form
// that adds one with its kind's fields (the kinds and bounds: lib/alerts/catalog.ts).
import { useState } from "react";
import { addAlertRuleAction, removeAlertRuleAction, sendAlertRuleTestAction, toggleAlertRuleAction } from "@/lib/alerts/actions";
import type { AlertRuleView } from "@/lib/api/contract";
import { ALERT_LIMITS, ALERT_RULE_LABELS, METRIC_SIDES, WEEKDAYS, type AlertRuleKind } from "@/lib/alerts/catalog";
import { isNumericMetric, type MetricId } from "@/lib/metrics/catalog";
import { MetricSelect } from "@/components/ui/metric-select";
import { inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { FieldBox, ListSection, secondary, Status, Submit, SwitchAndRemove, TestButton, useFormAction, When } from "@/components/settings/alert-form-parts";
import { signalDocsHref } from "@/lib/signals/catalog";

export function Rules({ rules }: { rules: AlertRuleView[] }) {
  return (
    <ListSection
      title="Rules"
      count={rules.length}
      empty="No rule yet."
      testId="alert-rules"
      add={{ max: ALERT_LIMITS.maxRules, noun: "rules", form: <AddRule /> }}
    >
      {rules.map((r) => (
        <RuleRow key={r.id} rule={r} />
      ))}
    </ListSection>
  );
}

/** A rule: what it watches, whether it is happening, and a test of it, switching and removing. */
function RuleRow({ rule: r }: { rule: AlertRuleView }) {
  const { state, onSubmit: test, pending } = useFormAction(sendAlertRuleTestAction);
  return (
    <li data-testid="alert-rule" data-kind={r.kind} className="space-y-1 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className={cn(!r.enabled && "text-slate-500 dark:text-slate-400")}>
          {r.description}
          {r.active && (
            <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">happening now</span>
          )}
          {r.nextDigestAt && (
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              Next: <When iso={r.nextDigestAt} />
            </span>
          )}
          {!r.enabled && <span> · off</span>}
        </span>
        <span className="flex items-center gap-1">
          <TestButton id={r.id} onSubmit={test} busy={pending} />
          <SwitchAndRemove id={r.id} enabled={r.enabled} toggle={toggleAlertRuleAction} remove={removeAlertRuleAction} />
        </span>
      </div>
      {(state.message || state.error) && <Status state={state} testId="alert-rule-test-status" />}
    </li>
  );
}

const SIDE_LABELS: Record<(typeof METRIC_SIDES)[number], string> = { below: "below", above: "above", either: "below or above" };

function AddRule() {
  const { state, onSubmit, pending } = useFormAction(addAlertRuleAction);
  return <AddRuleForm key={state.ok ? state.at : "form"} state={state} onSubmit={onSubmit} pending={pending} />;
}

function AddRuleForm({ state, onSubmit, pending }: ReturnType<typeof useFormAction>) {
  const [kind, setKind] = useState<AlertRuleKind>("metric_out_of_range");
  const [metric, setMetric] = useState<MetricId | "">("readiness.score");
  const num = (name: string, label: string, r: { min: number; max: number; default: number }, unit: string) => (
    <FieldBox label={label} hint={unit}>
      {(id) => <input id={id} name={name} type="number" min={r.min} max={r.max} defaultValue={r.default} required className={cn(inputClass, "w-24")} />}
    </FieldBox>
  );
  return (
    <form onSubmit={onSubmit} aria-label="Add a rule" className="space-y-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/50">
      <FieldBox label="Rule" className="sm:max-w-md">
        {(id) => (
          <select id={id} name="kind" value={kind} onChange={(e) => setKind(e.target.value as AlertRuleKind)} className={inputClass}>
            {(Object.keys(ALERT_RULE_LABELS) as AlertRuleKind[]).map((k) => (
              <option key={k} value={k}>
                {ALERT_RULE_LABELS[k]}
              </option>
            ))}
          </select>
        )}
      </FieldBox>
      <div className="grid gap-3 sm:grid-cols-3">
        {kind === "metric_out_of_range" && (
          <>
            <FieldBox label="Metric">
              {(id) => (
                <>
                  <input type="hidden" name="metric" value={metric} />
                  <MetricSelect id={id} value={metric} onChange={setMetric} filter={isNumericMetric} />
                </>
              )}
            </FieldBox>
            <FieldBox label="Side of the usual range">
              {(id) => (
                <select id={id} name="side" defaultValue="below" className={inputClass}>
                  {METRIC_SIDES.map((s) => (
                    <option key={s} value={s}>
                      {SIDE_LABELS[s]}
                    </option>
                  ))}
                </select>
              )}
            </FieldBox>
            {num("days", "Days in a row", ALERT_LIMITS.metricDays, `${ALERT_LIMITS.metricDays.min}–${ALERT_LIMITS.metricDays.max}`)}
          </>
        )}
        {kind === "no_new_sleep" &&
          num("days", "Days without a new night", ALERT_LIMITS.sleepDays, `${ALERT_LIMITS.sleepDays.min}–${ALERT_LIMITS.sleepDays.max}`)}
        {kind === "connection" && num("hours", "Hours of failing sync", ALERT_LIMITS.failingHours, "A needed reconnect is told at once.")}
        {kind === "ring_battery_low" &&
          num("level", "Battery at or under", ALERT_LIMITS.batteryLow, `% (${ALERT_LIMITS.batteryLow.min}–${ALERT_LIMITS.batteryLow.max})`)}
        {kind === "ring_charged" &&
          num("level", "Charged to", ALERT_LIMITS.batteryCharged, `% (${ALERT_LIMITS.batteryCharged.min}–${ALERT_LIMITS.batteryCharged.max})`)}
        {kind === "early_warning" && (
          <FieldBox label="Tell me at">
            {(id) => (
              <select id={id} name="level" defaultValue="likely" className={inputClass}>
                <option value="likely">Likely (several markers moved together)</option>
                <option value="watch">Watch or likely (one marker moved)</option>
              </select>
            )}
          </FieldBox>
        )}
        {kind === "weekly_digest" && (
          <>
            <FieldBox label="Weekday">
              {(id) => (
                <select id={id} name="weekday" defaultValue="1" className={inputClass}>
                  {WEEKDAYS.map((d) => (
                    <option key={d.value} value={d.value}>
                      {d.label}
                    </option>
                  ))}
                </select>
              )}
            </FieldBox>
            <FieldBox label="Hour">
              {(id) => (
                <select id={id} name="hour" defaultValue="8" className={inputClass}>
                  {Array.from({ length: 24 }, (_, h) => (
                    <option key={h} value={h}>
                      {String(h).padStart(2, "0")}:00
                    </option>
                  ))}
                </select>
              )}
            </FieldBox>
          </>
        )}
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {kind === "metric_out_of_range" && "The usual range is the band on the Trends charts: your 90-day average ± 2 standard deviations."}
        {kind === "no_new_sleep" && "The ring syncs through the phone app: this reminds you to open it."}
        {kind === "connection" && "When the ring service stops accepting Ringside's access, or syncing keeps failing."}
        {kind === "weekly_digest" &&
          "The past week against the week before and your usual range, the best and worst days, your tags, the early-warning nights, and a link to Trends."}
        {kind === "ring_battery_low" &&
          "Once each time the ring runs down: its newest reading (at most three hours old) is at or under the level and it is off the charger."}
        {kind === "ring_charged" && "Once each time the ring charges: it reaches the level on the charger, so you can put it back on."}
        {kind === "bedtime_window" &&
          "Once a night, when the bedtime window the ring recommends for tonight opens; nights without a recommendation send nothing."}
        {kind === "early_warning" && (
          <>
            Temperature, resting heart rate, HRV and breathing rate against your own baseline, checked each night; quiet while rest mode is on. Not a diagnosis.{" "}
            <a className="underline" href={signalDocsHref("early-warning")}>
              How it works
            </a>
          </>
        )}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Submit label="Add rule" pending="Adding…" busy={pending} className={secondary} />
        <Status state={state} testId="alert-rule-status" />
      </div>
    </form>
  );
}
