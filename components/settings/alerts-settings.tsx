"use client";

import { startTransition, useActionState, useId, useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import {
  addAlertChannelAction,
  addAlertRuleAction,
  removeAlertChannelAction,
  removeAlertRuleAction,
  saveAlertSettingsAction,
  sendAlertTestAction,
  toggleAlertChannelAction,
  toggleAlertRuleAction,
  type AlertFormState,
} from "@/lib/alerts/actions";
import type { AlertChannelView, AlertHistoryView, AlertRuleView, AlertsOverview } from "@/lib/alerts/service";
import { ALERT_CHANNEL_LABELS, ALERT_LIMITS, ALERT_RULE_LABELS, METRIC_SIDES, WEEKDAYS, type AlertChannelKind, type AlertRuleKind } from "@/lib/alerts/catalog";
import { isNumericMetric, type MetricId } from "@/lib/metrics/catalog";
import { MetricSelect } from "@/components/ui/metric-select";
import { inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";

const buttonClass =
  "inline-flex items-center justify-center rounded-lg px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60";
const primary = `${buttonClass} bg-brand-600 text-white hover:bg-brand-700`;
const secondary = `${buttonClass} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800`;
const small = "rounded-md px-2 py-1 text-xs font-medium";

/**
 * A server action run from a form's submit event: unlike `<form action>`, React does not reset
 * the form afterwards, so what the person typed stays when the server refuses it (and a
 * controlled select never drifts from its state). Forms that should start empty after success
 * are remounted with a new key instead.
 */
function useFormAction(action: (prev: AlertFormState, form: FormData) => Promise<AlertFormState>) {
  const [state, dispatch, pending] = useActionState(action, {});
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(() => dispatch(form));
  };
  return { state, onSubmit, pending };
}

function Submit({ label, pending, busy, className = primary }: { label: string; pending: string; busy: boolean; className?: string }) {
  return (
    <button type="submit" disabled={busy} aria-disabled={busy} className={className}>
      {busy ? pending : label}
    </button>
  );
}

/** A labelled field (label bound by id, so its name is the label alone), with an optional hint. */
function FieldBox({ label, hint, className, children }: { label: string; hint?: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={cn("flex min-w-0 flex-col gap-1 text-sm", className)}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children(id)}
      {hint ? <span className="text-xs text-slate-500 dark:text-slate-400">{hint}</span> : null}
    </div>
  );
}

function Status({ state, testId }: { state: AlertFormState; testId?: string }) {
  if (state.error)
    return (
      <p role="alert" data-testid={testId} className="text-sm text-rose-700 dark:text-rose-300">
        {state.error.message}
      </p>
    );
  return (
    <p role="status" data-testid={testId} className="text-sm text-slate-600 dark:text-slate-300">
      {state.message ?? ""}
    </p>
  );
}

/** A time in the browser's locale and zone (the server's rendering may differ: not a hydration error). */
function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

export function AlertsSettings({ overview }: { overview: AlertsOverview }) {
  return (
    <div className="space-y-8">
      <MessageSettings settings={overview.settings} />
      <Channels channels={overview.channels} emailAvailable={overview.emailAvailable} />
      <Rules rules={overview.rules} />
      <History history={overview.history} />
    </div>
  );
}

// -----------------------------------------------------------------------------------------

/** A browser value that never changes while the page is open. */
const subscribeNever = () => () => {};

function MessageSettings({ settings }: { settings: AlertsOverview["settings"] }) {
  const { state, onSubmit, pending } = useFormAction(saveAlertSettingsAction);
  // Not saved yet: start from this browser's zone (the server renders the stored default).
  const browserZone = useSyncExternalStore(
    subscribeNever,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    () => settings.timeZone,
  );
  const [typed, setTimeZone] = useState<string | null>(null);
  const timeZone = typed ?? (settings.saved ? settings.timeZone : browserZone);
  return (
    <form onSubmit={onSubmit} aria-labelledby="alert-messages-heading" className="space-y-3">
      <h3 id="alert-messages-heading" className="text-sm font-semibold">
        Messages
      </h3>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="includeValues" defaultChecked={settings.includeValues} className="mt-0.5" />
        <span>
          Include values
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Numbers such as your readiness score and its usual range, and your tags, go into messages only with this ticked. Without it a message
            says what happened (which metric, which side, for how many days) but no value.
          </span>
        </span>
      </label>
      <FieldBox label="Time zone" hint="Your days (“today”) and the digest’s weekday and hour." className="sm:max-w-xs">
        {(id) => <input id={id} name="timeZone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} maxLength={ALERT_LIMITS.timeZoneMaxLength} className={inputClass} />}
      </FieldBox>
      <div className="flex items-center gap-3">
        <Submit label="Save" pending="Saving…" busy={pending} />
        <Status state={state} testId="alert-settings-status" />
      </div>
    </form>
  );
}

// -----------------------------------------------------------------------------------------

function Channels({ channels, emailAvailable }: { channels: AlertChannelView[]; emailAvailable: boolean }) {
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold">Channels</h3>
      {channels.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No channel yet: add one below, then send it a test.</p>
      ) : (
        <ul data-testid="alert-channels" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {channels.map((c) => (
            <ChannelRow key={c.id} channel={c} />
          ))}
        </ul>
      )}
      {channels.length < ALERT_LIMITS.maxChannels ? (
        <AddChannel emailAvailable={emailAvailable} />
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">You have {ALERT_LIMITS.maxChannels} channels, the most there can be.</p>
      )}
    </div>
  );
}

function ChannelRow({ channel }: { channel: AlertChannelView }) {
  const { state, onSubmit: test, pending } = useFormAction(sendAlertTestAction);
  return (
    <li data-testid="alert-channel" data-kind={channel.kind} className="space-y-1 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className={cn("min-w-0", !channel.enabled && "text-slate-500 dark:text-slate-400")}>
          <span className="font-medium">{channel.label}</span> · {ALERT_CHANNEL_LABELS[channel.kind]} · <span className="break-all text-slate-600 dark:text-slate-400">{channel.target}</span>
          {channel.hasToken && <span className="text-slate-500 dark:text-slate-400"> · access token set</span>}
          {!channel.enabled && <span> · off</span>}
        </span>
        <span className="flex items-center gap-1">
          <form onSubmit={test}>
            <input type="hidden" name="id" value={channel.id} />
            <Submit label="Send a test" pending="Sending…" busy={pending} className={cn(small, "border border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800")} />
          </form>
          <form action={toggleAlertChannelAction}>
            <input type="hidden" name="id" value={channel.id} />
            <input type="hidden" name="enabled" value={String(!channel.enabled)} />
            <button type="submit" className={cn(small, "hover:bg-slate-100 dark:hover:bg-slate-800")}>
              {channel.enabled ? "Switch off" : "Switch on"}
            </button>
          </form>
          <form action={removeAlertChannelAction}>
            <input type="hidden" name="id" value={channel.id} />
            <button type="submit" className={cn(small, "text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-950")}>
              Remove
            </button>
          </form>
        </span>
      </div>
      {(state.message || state.error) && <Status state={state} testId="alert-test-status" />}
    </li>
  );
}

function AddChannel({ emailAvailable }: { emailAvailable: boolean }) {
  const { state, onSubmit, pending } = useFormAction(addAlertChannelAction);
  // a fresh form after each channel added (the outcome and a webhook's secret stay on show)
  return <AddChannelForm key={state.ok ? state.at : "form"} emailAvailable={emailAvailable} state={state} onSubmit={onSubmit} pending={pending} />;
}

function AddChannelForm({ emailAvailable, state, onSubmit, pending }: { emailAvailable: boolean } & ReturnType<typeof useFormAction>) {
  const [kind, setKind] = useState<AlertChannelKind>("ntfy");
  return (
    <form onSubmit={onSubmit} aria-label="Add a channel" className="space-y-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/50">
      <div className="grid gap-3 sm:grid-cols-2">
        <FieldBox label="Channel">
          {(id) => (
            <select id={id} name="kind" value={kind} onChange={(e) => setKind(e.target.value as AlertChannelKind)} className={inputClass}>
              <option value="ntfy">ntfy (phone notifications)</option>
              <option value="email" disabled={!emailAvailable}>
                E-mail{emailAvailable ? "" : " (not set up on this Ringside)"}
              </option>
              <option value="webhook">Webhook (Home Assistant, scripts)</option>
            </select>
          )}
        </FieldBox>
        <FieldBox label="Name (optional)">
          {(id) => <input id={id} name="label" maxLength={ALERT_LIMITS.labelMaxLength} className={inputClass} placeholder={kind === "ntfy" ? "Phone" : kind === "email" ? "Mail" : "Home Assistant"} />}
        </FieldBox>
        {kind === "email" ? (
          <FieldBox label="Send to" className="sm:col-span-2">
            {(id) => <input id={id} name="recipient" type="email" required maxLength={ALERT_LIMITS.emailMaxLength} className={inputClass} />}
          </FieldBox>
        ) : (
          <FieldBox label={kind === "ntfy" ? "Topic URL" : "Webhook URL"} className="sm:col-span-2">
            {(id) => (
              <input
                id={id}
                name="url"
                type="url"
                required
                maxLength={ALERT_LIMITS.urlMaxLength}
                className={inputClass}
                placeholder={kind === "ntfy" ? "https://ntfy.sh/a-long-unguessable-topic" : "https://homeassistant.local:8123/api/webhook/…"}
              />
            )}
          </FieldBox>
        )}
        {kind === "ntfy" && (
          <FieldBox label="Access token (optional)" hint="For a protected topic; stored encrypted, sent as a bearer token, never shown again." className="sm:col-span-2">
            {(id) => <input id={id} name="token" type="password" autoComplete="off" maxLength={ALERT_LIMITS.tokenMaxLength} className={inputClass} placeholder="tk_…" />}
          </FieldBox>
        )}
        {kind === "webhook" && (
          <p className="text-xs text-slate-500 dark:text-slate-400 sm:col-span-2">
            Ringside signs every post with a secret made for this channel, shown once after you add it (README, “Alerts”, says how to check it).
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Submit label="Add channel" pending="Adding…" busy={pending} className={secondary} />
        <Status state={state} testId="alert-channel-status" />
      </div>
      {state.secret && (
        <div className="space-y-1 rounded-md bg-white p-3 text-sm dark:bg-slate-900">
          <p>Signing secret of this webhook, shown only now. Put it in your receiver:</p>
          <code data-testid="webhook-secret" className="block break-all rounded bg-slate-100 px-2 py-1 text-xs dark:bg-slate-800">
            {state.secret}
          </code>
        </div>
      )}
    </form>
  );
}

// -----------------------------------------------------------------------------------------

function Rules({ rules }: { rules: AlertRuleView[] }) {
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold">Rules</h3>
      {rules.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No rule yet.</p>
      ) : (
        <ul data-testid="alert-rules" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {rules.map((r) => (
            <li key={r.id} data-testid="alert-rule" data-kind={r.kind} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className={cn(!r.enabled && "text-slate-500 dark:text-slate-400")}>
                {r.description}
                {r.active && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">happening now</span>}
                {r.nextDigestAt && <span className="block text-xs text-slate-500 dark:text-slate-400">Next: <When iso={r.nextDigestAt} /></span>}
                {!r.enabled && <span> · off</span>}
              </span>
              <span className="flex items-center gap-1">
                <form action={toggleAlertRuleAction}>
                  <input type="hidden" name="id" value={r.id} />
                  <input type="hidden" name="enabled" value={String(!r.enabled)} />
                  <button type="submit" className={cn(small, "hover:bg-slate-100 dark:hover:bg-slate-800")}>
                    {r.enabled ? "Switch off" : "Switch on"}
                  </button>
                </form>
                <form action={removeAlertRuleAction}>
                  <input type="hidden" name="id" value={r.id} />
                  <button type="submit" className={cn(small, "text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-950")}>
                    Remove
                  </button>
                </form>
              </span>
            </li>
          ))}
        </ul>
      )}
      {rules.length < ALERT_LIMITS.maxRules ? <AddRule /> : <p className="text-sm text-slate-500 dark:text-slate-400">You have {ALERT_LIMITS.maxRules} rules, the most there can be.</p>}
    </div>
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
        {kind === "no_new_sleep" && num("days", "Days without a new night", ALERT_LIMITS.sleepDays, `${ALERT_LIMITS.sleepDays.min}–${ALERT_LIMITS.sleepDays.max}`)}
        {kind === "connection" && num("hours", "Hours of failing sync", ALERT_LIMITS.failingHours, "A needed reconnect is told at once.")}
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
        {kind === "weekly_digest" && "The past week against the week before and your usual range, the best and worst days, your tags, and a link to Trends."}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Submit label="Add rule" pending="Adding…" busy={pending} className={secondary} />
        <Status state={state} testId="alert-rule-status" />
      </div>
    </form>
  );
}

// -----------------------------------------------------------------------------------------

const STATUS_TEXT: Record<AlertHistoryView["status"], string> = { pending: "retrying", sent: "sent", failed: "failed", cancelled: "cancelled" };
const PURPOSE_TEXT: Record<AlertHistoryView["purpose"], string> = { alert: "Alert", digest: "Digest", test: "Test" };

function History({ history }: { history: AlertHistoryView[] }) {
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">History</h3>
      {history.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">Nothing sent yet.</p>
      ) : (
        <ul data-testid="alert-history" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {history.map((h) => (
            <li key={h.id} data-testid="alert-history-row" data-status={h.status} data-purpose={h.purpose} className="space-y-0.5 py-2">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium">
                  {PURPOSE_TEXT[h.purpose]}: {h.title}
                </span>
                <span className="text-xs text-slate-500 dark:text-slate-400"><When iso={h.sentAt ?? h.at} /></span>
              </div>
              <details className="text-xs text-slate-600 dark:text-slate-400">
                <summary className="cursor-pointer">Why, and what was sent</summary>
                <p className="mt-1 whitespace-pre-wrap break-words">{h.body}</p>
              </details>
              <p className="text-xs">
                <span>
                  {h.channel} ({h.channelKind})
                </span>{" "}
                ·{" "}
                <span data-testid="alert-history-status" className={h.status === "failed" ? "text-rose-700 dark:text-rose-300" : undefined}>
                  {STATUS_TEXT[h.status]}
                  {h.attempts > 1 ? ` after ${h.attempts} attempts` : ""}
                </span>
                {h.lastError && <span className="text-slate-500 dark:text-slate-400"> · {h.lastError}</span>}
                {h.nextAttemptAt && <span className="text-slate-500 dark:text-slate-400"> · next try <When iso={h.nextAttemptAt} /></span>}
                {h.episodeEndedAt && h.purpose === "alert" && <span className="text-slate-500 dark:text-slate-400"> · ended <When iso={h.episodeEndedAt} /></span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
