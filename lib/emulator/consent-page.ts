// The emulated consent screen of both identity providers: an account e-mail, one checkbox per
// requested scope (named the way the provider spells it, labelled from providers.ts), Allow and
// Deny. It posts to the same URL (query string unchanged) with `user`, `granted_scope` and
// `decision` (Allow comes first, so pressing Enter allows). Checkboxes are named `granted_scope`; a hidden empty `granted_scope` field is
// always sent so that "every box unticked" (no scope) differs from "field absent" (all scopes).
import { escapeHtml, htmlPage } from "./errors";

export const DEFAULT_CONSENT_EMAIL = "demo@ringside.example";

export function renderConsentPage(input: {
  clientId: string;
  approved: boolean;
  scopes: ReadonlyArray<{ name: string; label: string }>;
  actionUrl: string;
  email?: string;
  error?: string;
  status?: number;
}): Response {
  const boxes = input.scopes
    .map(
      (s) =>
        `  <label><input type="checkbox" name="granted_scope" value="${escapeHtml(s.name)}" checked> ` +
        `<strong>${escapeHtml(s.name)}</strong> — ${escapeHtml(s.label)}</label>`,
    )
    .join("\n");
  const body = `<h1>Connect your ring</h1>
<p><strong>${escapeHtml(input.clientId)}</strong> wants to access your ring data.${
    input.approved ? "" : ` <span class="muted">(unapproved application: at most 10 users)</span>`
  }</p>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>\n` : ""}<form method="post" action="${escapeHtml(input.actionUrl)}">
  <label for="user">Emulated account (e-mail; created on first use)</label>
  <input type="email" id="user" name="user" required autocomplete="email" value="${escapeHtml(input.email ?? DEFAULT_CONSENT_EMAIL)}">
  <fieldset>
  <legend>Data to share</legend>
  <input type="hidden" name="granted_scope" value="">
${boxes || '  <p class="muted">No data types requested.</p>'}
  </fieldset>
  <div class="buttons">
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
  </div>
</form>
<p class="muted">Ring service emulator — nothing here leaves this machine.</p>`;
  return htmlPage(input.status ?? 200, "Authorize application", body);
}
