import { SettingsSection } from "@/components/settings/settings-section";
import { format } from "date-fns";
import type { CreateInviteState, FormAction } from "@/lib/api/contract";
import type { HouseholdMember, PendingInvite } from "@/lib/api/contract";
import { InviteCreateForm } from "@/components/auth/invite-create-form";
import { RevokeButton } from "@/components/settings/revoke-button";

const STATUS_TEXT: Record<string, string> = { active: "connected", needs_reconnect: "needs reconnect", disconnected: "disconnected" };

/** A member's ring connection in words: its status, or "no ring" before they connected one. */
function connectionText(status: string | null): string {
  return status ? (STATUS_TEXT[status] ?? status) : "no ring";
}

/** Settings → Household (owner only): invite links, pending invites, members. */
export function HouseholdSection({
  userId,
  invites,
  members,
  createInviteLink,
  revokeInvite,
  removeMember,
}: {
  userId: string;
  invites: PendingInvite[];
  members: HouseholdMember[];
  createInviteLink: (prev: CreateInviteState, formData: FormData) => Promise<CreateInviteState>;
  revokeInvite: FormAction;
  removeMember: FormAction;
}) {
  return (
    <SettingsSection
      name="household"
      title="Household"
      description={<>Others can join this Ringside with their own ring. Each person sees only their own data.</>}
    >
      <InviteCreateForm action={createInviteLink} />

      <div>
        <h3 className="text-sm font-semibold">Pending invites</h3>
        {invites.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">None.</p>
        ) : (
          <ul data-testid="pending-invites" className="mt-1 divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {invites.map((i) => (
              <li key={i.id} data-testid="pending-invite" data-invite-id={i.id} className="flex items-center justify-between gap-3 py-2">
                <span>
                  Created {format(i.createdAt, "d MMM yyyy HH:mm")}, expires {format(i.expiresAt, "d MMM yyyy")}
                </span>
                <RevokeButton action={revokeInvite} name="inviteId" value={i.id} />
              </li>
            ))}
          </ul>
        )}
      </div>

      <div>
        <h3 className="text-sm font-semibold">Members</h3>
        <ul data-testid="members" className="mt-1 divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {members.map((m) => (
            <li key={m.id} data-testid="member" className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="break-all">
                {m.email ?? <span className="font-mono text-xs">{m.ringUserId ?? m.id}</span>}
                {m.id === userId && <span className="text-slate-500 dark:text-slate-400"> (you)</span>}
              </span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {m.role === "owner" ? "owner" : "member"} · {connectionText(m.connectionStatus)} · since {format(m.createdAt, "d MMM yyyy")}
              </span>
              {m.role === "member" && (
                <details className="w-full text-xs">
                  <summary className="cursor-pointer text-red-700 dark:text-red-300">Remove…</summary>
                  <form action={removeMember} className="mt-1 flex flex-wrap items-center gap-2">
                    <input type="hidden" name="memberId" value={m.id} />
                    <span>Their ring access, data, API tokens, alert channels and sign-ins are deleted; they can return only with a new invite.</span>
                    <button type="submit" className="rounded-md bg-red-700 px-2 py-1 font-medium text-white hover:bg-red-800">
                      Remove this member
                    </button>
                  </form>
                </details>
              )}
            </li>
          ))}
        </ul>
      </div>
    </SettingsSection>
  );
}
