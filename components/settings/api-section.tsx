import { SettingsSection } from "@/components/settings/settings-section";
import { format } from "date-fns";
import type { ApiTokenSummary, CreateApiTokenState, FormAction } from "@/lib/api/contract";
import type { DataKind } from "@/lib/auth/api-scopes";
import { API_TOKEN_NAME_MAX } from "@/lib/schemas/requests";
import { ApiTokenCreateForm } from "@/components/settings/api-token-create-form";
import { RevokeButton } from "@/components/settings/revoke-button";

/** Settings → API: personal access tokens for the read API and the MCP server (the page reads the list). */
export function ApiSection({
  tokens,
  kinds,
  origin,
  createToken,
  revokeToken,
}: {
  tokens: ApiTokenSummary[];
  kinds: Array<{ kind: DataKind; label: string }>;
  origin: string;
  createToken: (prev: CreateApiTokenState, form: FormData) => Promise<CreateApiTokenState>;
  revokeToken: FormAction;
}) {
  const labelOf = new Map(kinds.map((k) => [k.kind, k.label]));
  return (
    <SettingsSection
      id="api"
      name="api"
      title="API"
      description={
        <>
          Personal access tokens let your own tools read your data: a Home Assistant sensor, a notebook, or an AI assistant through Ringside&apos;s MCP server.
          A token reads only your data and only the kinds you choose, never writes, and stops working when you revoke it. The API is described at{" "}
          <a className="underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
          ; the MCP server is at <code className="text-xs">{origin}/api/mcp</code>.
        </>
      }
    >
      <ApiTokenCreateForm action={createToken} kinds={kinds} origin={origin} nameMax={API_TOKEN_NAME_MAX} />

      <div>
        <h3 className="text-sm font-semibold">Your tokens</h3>
        {tokens.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">None yet.</p>
        ) : (
          <ul data-testid="api-tokens" className="mt-1 divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {tokens.map((t) => (
              <li key={t.id} data-testid="api-token" data-token-id={t.id} className="flex flex-wrap items-start justify-between gap-3 py-2">
                <div className="min-w-0 space-y-0.5">
                  <p className="font-medium break-all">
                    {t.name} <code className="text-xs font-normal text-slate-500 dark:text-slate-400">{t.prefix}…</code>
                  </p>
                  <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="api-token-usage">
                    Created {format(new Date(t.createdAt), "d MMM yyyy")} ·{" "}
                    {t.lastUsedAt ? `last used ${format(new Date(t.lastUsedAt), "d MMM yyyy HH:mm")}` : "never used"} ·{" "}
                    {t.expiresAt ? `expires ${format(new Date(t.expiresAt), "d MMM yyyy")}` : "never expires"}
                  </p>
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    Reads: {t.kinds.length === kinds.length ? "all your data" : t.kinds.map((k) => labelOf.get(k) ?? k).join(", ")}
                  </p>
                </div>
                <RevokeButton action={revokeToken} name="id" value={t.id} label={`Revoke ${t.name}`} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </SettingsSection>
  );
}
