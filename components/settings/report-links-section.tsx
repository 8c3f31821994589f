import { format } from "date-fns";
import { SettingsSection } from "@/components/settings/settings-section";
import { RevokeButton } from "@/components/settings/revoke-button";
import type { FormAction, ReportLinkSummary } from "@/lib/api/contract";

const STATE_WORDS: Record<ReportLinkSummary["state"], string> = { open: "open", expired: "expired", revoked: "revoked" };
const when = (iso: string) => format(new Date(iso), "d MMM yyyy HH:mm");
const closing = (l: ReportLinkSummary) => (l.state === "revoked" && l.revokedAt ? `revoked ${when(l.revokedAt)}` : `expires ${when(l.expiresAt)}`);

/** Settings → Report links: the person's share links (label, period, created, expires, views, last view), each open one with "Revoke". */
export function ReportLinksSection({ links, revoke }: { links: ReportLinkSummary[]; revoke: FormAction }) {
  return (
    <SettingsSection
      id="report-links"
      name="report-links"
      title="Report links"
      description={
        <>
          Links to a report that you created on the{" "}
          <a className="underline" href="/report">
            report page
          </a>
          . Whoever has a link sees that report and its PDF, nothing else, until it expires or you revoke it; then it answers &ldquo;this link is no longer
          valid&rdquo;.
        </>
      }
    >
      {links.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">None yet.</p>
      ) : (
        <ul data-testid="report-links" className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {links.map((l) => (
            <li key={l.id} data-testid="report-link" data-link-id={l.id} className="flex flex-wrap items-start justify-between gap-3 py-2">
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium break-all">
                  {l.label ?? "Unlabelled link"}{" "}
                  <span className="text-xs font-normal text-slate-600 dark:text-slate-300">
                    {l.from} to {l.to} · {STATE_WORDS[l.state]}
                  </span>
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="report-link-usage">
                  Created {when(l.createdAt)} · {closing(l)} · {l.views === 1 ? "1 view" : `${l.views} views`}
                  {l.lastViewAt ? `, last ${when(l.lastViewAt)}` : ""}
                </p>
              </div>
              {l.state === "open" && <RevokeButton action={revoke} name="id" value={l.id} label={`Revoke ${l.label ?? "link"} (${l.from} to ${l.to})`} />}
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
