"use client";

// Settings → Alerts, the rules: each rule with a test of it, switching and removing, and the form
// that adds one with its kind's fields. The kinds, their fields and notes come from the registry
// (lib/alerts/kinds/, handed over as plain data in the overview); this file names no kind.
import { useState } from "react";
import type { AlertRuleView } from "@/lib/api/contract";
import { ALERT_LIMITS } from "@/lib/alerts/catalog";
import type { FormField, RuleKindForm } from "@/lib/alerts/kinds/define";
import { isNumericMetric, type MetricId } from "@/lib/metrics/catalog";
import { MetricSelect } from "@/components/ui/metric-select";
import { inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import {
  type AlertActions,
  FieldBox,
  ListSection,
  secondary,
  Status,
  Submit,
  SwitchAndRemove,
  TestButton,
  useFormAction,
  When,
} from "@/components/settings/alert-form-parts";

export function Rules({ rules, kinds, actions }: { rules: AlertRuleView[]; kinds: readonly RuleKindForm[]; actions: AlertActions }) {
  return (
    <ListSection
      title="Rules"
      count={rules.length}
      empty="No rule yet."
      testId="alert-rules"
      add={{ max: ALERT_LIMITS.maxRules, noun: "rules", form: <AddRule kinds={kinds} actions={actions} /> }}
    >
      {rules.map((r) => (
        <RuleRow key={r.id} rule={r} actions={actions} />
      ))}
    </ListSection>
  );
}

/** A rule: what it watches, whether it is happening, and a test of it, switching and removing. */
function RuleRow({ rule: r, actions }: { rule: AlertRuleView; actions: AlertActions }) {
  const { state, onSubmit: test, pending } = useFormAction(actions.sendAlertRuleTestAction);
  return (
    <li data-testid="alert-rule" data-kind={r.kind} className="space-y-1 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className={cn(!r.enabled && "text-slate-500 dark:text-slate-400")}>
          {r.description}
          {r.active && (
            <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">happening now</span>
          )}
          {r.nextAt && (
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              Next: <When iso={r.nextAt} />
            </span>
          )}
          {!r.enabled && <span> · off</span>}
        </span>
        <span className="flex items-center gap-1">
          <TestButton id={r.id} onSubmit={test} busy={pending} />
          <SwitchAndRemove id={r.id} enabled={r.enabled} toggle={actions.toggleAlertRuleAction} remove={actions.removeAlertRuleAction} />
        </span>
      </div>
      {(state.message || state.error) && <Status state={state} testId="alert-rule-test-status" />}
    </li>
  );
}

function AddRule({ kinds, actions }: { kinds: readonly RuleKindForm[]; actions: AlertActions }) {
  const { state, onSubmit, pending } = useFormAction(actions.addAlertRuleAction);
  return <AddRuleForm key={state.ok ? state.at : "form"} kinds={kinds} state={state} onSubmit={onSubmit} pending={pending} />;
}

function AddRuleForm({ kinds, state, onSubmit, pending }: { kinds: readonly RuleKindForm[] } & ReturnType<typeof useFormAction>) {
  const [kind, setKind] = useState(kinds[0]?.kind ?? "");
  const chosen = kinds.find((k) => k.kind === kind);
  return (
    <form onSubmit={onSubmit} aria-label="Add a rule" className="space-y-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/50">
      <FieldBox label="Rule" className="sm:max-w-md">
        {(id) => (
          <select id={id} name="kind" value={kind} onChange={(e) => setKind(e.target.value)} className={inputClass}>
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        )}
      </FieldBox>
      <div className="grid gap-3 sm:grid-cols-3">
        {chosen?.form.fields.map((f) => (
          // keyed by kind too: a field of the same name in another kind starts from its own default
          <Field key={`${kind}:${f.name}`} field={f} />
        ))}
      </div>
      {chosen && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {chosen.form.note}
          {chosen.form.link && (
            <>
              {" "}
              <a className="underline" href={chosen.form.link.href}>
                {chosen.form.link.label}
              </a>
            </>
          )}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Submit label="Add rule" pending="Adding…" busy={pending} className={secondary} />
        <Status state={state} testId="alert-rule-status" />
      </div>
    </form>
  );
}

/** One field of a kind's form, as its description says (lib/alerts/kinds/define.ts, FormField). */
function Field({ field: f }: { field: FormField }) {
  if (f.type === "number") {
    return (
      <FieldBox label={f.label} hint={f.hint}>
        {(id) => (
          <input
            id={id}
            name={f.name}
            type="number"
            min={f.range.min}
            max={f.range.max}
            defaultValue={f.range.default}
            required
            className={cn(inputClass, "w-24")}
          />
        )}
      </FieldBox>
    );
  }
  if (f.type === "select") {
    return (
      <FieldBox label={f.label}>
        {(id) => (
          <select id={id} name={f.name} defaultValue={f.default} className={inputClass}>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </FieldBox>
    );
  }
  return <MetricField name={f.name} label={f.label} initial={f.default as MetricId} />;
}

/** A metric with numbers: the picker, and its value in a hidden field of the field's name. */
function MetricField({ name, label, initial }: { name: string; label: string; initial: MetricId }) {
  const [metric, setMetric] = useState<MetricId | "">(initial);
  return (
    <FieldBox label={label}>
      {(id) => (
        <>
          <input type="hidden" name={name} value={metric} />
          <MetricSelect id={id} value={metric} onChange={setMetric} filter={isNumericMetric} />
        </>
      )}
    </FieldBox>
  );
}
