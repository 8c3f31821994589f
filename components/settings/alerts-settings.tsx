"use client";

import { useState } from "react";
import { useClientValue } from "@/components/hooks/use-hydrated";
import type { AlertChannelView, AlertHistoryView, AlertsOverview } from "@/lib/api/contract";
import { ALERT_CHANNEL_LABELS, ALERT_LIMITS, type AlertChannelKind } from "@/lib/alerts/catalog";
import { inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import {
  type AlertActions,
  FieldBox,
  ListSection,
  secondary,
  small,
  Status,
  Submit,
  SwitchAndRemove,
  TestButton,
  useFormAction,
  When,
} from "@/components/settings/alert-form-parts";
import { Rules } from "@/components/settings/alert-rules";

export function AlertsSettings({ overview, actions }: { overview: AlertsOverview; actions: AlertActions }) {
  return (
    <div className="space-y-8">
      {/* how messages go out and where, side by side on a wide screen (the section stays about two screens high) */}
      <div className="grid gap-8 xl:grid-cols-2">
        <MessageSettings settings={overview.settings} actions={actions} />
        <Channels channels={overview.channels} emailAvailable={overview.emailAvailable} actions={actions} />
      </div>
      <Rules rules={overview.rules} kinds={overview.ruleKinds} actions={actions} />
      <History history={overview.history} />
    </div>
  );
}

// -----------------------------------------------------------------------------------------

/** Minutes from midnight as a time field's value ("07:30"); empty for none. */
const clockText = (minutes: number | undefined) =>
  minutes === undefined ? "" : `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** A browser value that never changes while the page is open. */
function MessageSettings({ settings, actions }: { settings: AlertsOverview["settings"]; actions: AlertActions }) {
  const { state, onSubmit, pending } = useFormAction(actions.saveAlertSettingsAction);
  // Not saved yet: start from this browser's zone (the server renders the stored default).
  const browserZone = useClientValue(() => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC", settings.timeZone);
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
            Numbers such as your readiness score and its usual range, and your tags, go into messages only with this ticked. Without it a message says what
            happened (which metric, which side, for how many days) but no value.
          </span>
        </span>
      </label>
      <FieldBox label="Time zone" hint="Your days (“today”), the digest’s weekday and hour, and your quiet hours." className="sm:max-w-xs">
        {(id) => (
          <input
            id={id}
            name="timeZone"
            value={timeZone}
            onChange={(e) => setTimeZone(e.target.value)}
            maxLength={ALERT_LIMITS.timeZoneMaxLength}
            className={inputClass}
          />
        )}
      </FieldBox>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Quiet hours</legend>
        <div className="flex flex-wrap gap-3">
          <FieldBox label="Quiet from">
            {(id) => <input id={id} name="quietFrom" type="time" defaultValue={clockText(settings.quietHours?.from)} className={cn(inputClass, "w-32")} />}
          </FieldBox>
          <FieldBox label="Quiet until">
            {(id) => <input id={id} name="quietTo" type="time" defaultValue={clockText(settings.quietHours?.to)} className={cn(inputClass, "w-32")} />}
          </FieldBox>
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          An alert that starts in these hours waits until they end; a bedtime window that is over by then is not sent. Digests and tests go at once. Leave both
          empty for none.
        </p>
      </fieldset>
      <div className="flex items-center gap-3">
        <Submit label="Save" pending="Saving…" busy={pending} />
        <Status state={state} testId="alert-settings-status" />
      </div>
    </form>
  );
}

// -----------------------------------------------------------------------------------------

function Channels({ channels, emailAvailable, actions }: { channels: AlertChannelView[]; emailAvailable: boolean; actions: AlertActions }) {
  return (
    <ListSection
      title="Channels"
      count={channels.length}
      empty="No channel yet: add one below, then send it a test."
      testId="alert-channels"
      add={{ max: ALERT_LIMITS.maxChannels, noun: "channels", form: <AddChannel emailAvailable={emailAvailable} actions={actions} /> }}
    >
      {channels.map((c) => (
        <ChannelRow key={c.id} channel={c} actions={actions} />
      ))}
    </ListSection>
  );
}

function ChannelRow({ channel, actions }: { channel: AlertChannelView; actions: AlertActions }) {
  const { state, onSubmit: test, pending } = useFormAction(actions.sendAlertTestAction);
  return (
    <li data-testid="alert-channel" data-kind={channel.kind} className="space-y-1 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className={cn("min-w-0", !channel.enabled && "text-slate-500 dark:text-slate-400")}>
          <span className="font-medium">{channel.label}</span> · {ALERT_CHANNEL_LABELS[channel.kind]} ·{" "}
          <span className="break-all text-slate-600 dark:text-slate-400">{channel.target}</span>
          {channel.hasToken && <span className="text-slate-500 dark:text-slate-400"> · access token set</span>}
          {!channel.confirmed && <span className="text-amber-700 dark:text-amber-300"> · not confirmed yet</span>}
          {!channel.enabled && <span> · off</span>}
        </span>
        <span className="flex items-center gap-1">
          {channel.confirmed && <TestButton id={channel.id} onSubmit={test} busy={pending} />}
          <SwitchAndRemove id={channel.id} enabled={channel.enabled} toggle={actions.toggleAlertChannelAction} remove={actions.removeAlertChannelAction} />
        </span>
      </div>
      {(state.message || state.error) && <Status state={state} testId="alert-test-status" />}
      {!channel.confirmed && <ConfirmChannel id={channel.id} actions={actions} />}
    </li>
  );
}

/** An e-mail address not confirmed yet: the code it was sent, or a new one. */
function ConfirmChannel({ id, actions }: { id: string; actions: AlertActions }) {
  const confirm = useFormAction(actions.confirmAlertChannelAction);
  const resend = useFormAction(actions.resendAlertConfirmationAction);
  const shown = confirm.state.at && (!resend.state.at || confirm.state.at > resend.state.at) ? confirm.state : resend.state;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <form onSubmit={confirm.onSubmit} aria-label="Confirm the address" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="id" value={id} />
        <FieldBox label="Confirmation code">
          {(fieldId) => (
            <input id={fieldId} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={12} required className={cn(inputClass, "w-32")} />
          )}
        </FieldBox>
        <Submit label="Confirm" pending="Checking…" busy={confirm.pending} className={secondary} />
      </form>
      <form onSubmit={resend.onSubmit}>
        <input type="hidden" name="id" value={id} />
        <Submit label="Send a new code" pending="Sending…" busy={resend.pending} className={cn(small, "hover:bg-slate-100 dark:hover:bg-slate-800")} />
      </form>
      {(shown.message || shown.error) && <Status state={shown} testId="alert-confirm-status" />}
    </div>
  );
}

function AddChannel({ emailAvailable, actions }: { emailAvailable: boolean; actions: AlertActions }) {
  const { state, onSubmit, pending } = useFormAction(actions.addAlertChannelAction);
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
          {(id) => (
            <input
              id={id}
              name="label"
              maxLength={ALERT_LIMITS.labelMaxLength}
              className={inputClass}
              placeholder={kind === "ntfy" ? "Phone" : kind === "email" ? "Mail" : "Home Assistant"}
            />
          )}
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
          <FieldBox
            label="Access token (optional)"
            hint="For a protected topic; stored encrypted, sent as a bearer token, never shown again."
            className="sm:col-span-2"
          >
            {(id) => (
              <input
                id={id}
                name="token"
                type="password"
                autoComplete="off"
                maxLength={ALERT_LIMITS.tokenMaxLength}
                className={inputClass}
                placeholder="tk_…"
              />
            )}
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

const STATUS_TEXT: Record<AlertHistoryView["status"], string> = { pending: "retrying", sent: "sent", failed: "failed", cancelled: "cancelled" };
const PURPOSE_TEXT: Record<AlertHistoryView["purpose"], string> = { alert: "Alert", digest: "Digest", test: "Test" };

function History({ history }: { history: AlertHistoryView[] }) {
  return (
    // the newest messages first; a long history scrolls in its own box, so the section stays about two screens high
    <ListSection
      title="History"
      count={history.length}
      empty="Nothing sent yet."
      testId="alert-history"
      className="space-y-2 [&>ul]:max-h-[24rem] [&>ul]:overflow-y-auto [&>ul]:pr-1"
    >
      {history.map((h) => (
        <li key={h.id} data-testid="alert-history-row" data-status={h.status} data-purpose={h.purpose} className="space-y-0.5 py-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="font-medium">
              {PURPOSE_TEXT[h.purpose]}: {h.title}
            </span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              <When iso={h.sentAt ?? h.at} />
            </span>
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
              {h.status === "pending" && h.attempts === 0 ? "waiting for the quiet hours to end" : STATUS_TEXT[h.status]}
              {h.attempts > 1 ? ` after ${h.attempts} attempts` : ""}
            </span>
            {h.lastError && <span className="text-slate-500 dark:text-slate-400"> · {h.lastError}</span>}
            {h.nextAttemptAt && (
              <span className="text-slate-500 dark:text-slate-400">
                {" "}
                · {h.attempts === 0 ? "goes" : "next try"} <When iso={h.nextAttemptAt} />
              </span>
            )}
            {h.episodeEndedAt && h.purpose === "alert" && (
              <span className="text-slate-500 dark:text-slate-400">
                {" "}
                · ended <When iso={h.episodeEndedAt} />
              </span>
            )}
          </p>
        </li>
      ))}
    </ListSection>
  );
}
