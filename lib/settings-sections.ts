// The sections of Settings, declared once: each one's address (/settings/<slug>), title, what it
// holds, and the anchors of its fields. The section list (a side column on a desktop, a list page
// on a phone), the routes, the links elsewhere that lead to a setting and the redirect of the old
// one-page addresses (/settings#alerts) all derive from this list; its order is the list's.
// Pure data, safe in the browser.

export type SettingsSectionDef = {
  /** the address: /settings/<slug> */
  slug: string;
  title: string;
  /** one line in the list */
  description: string;
  /** only the owner of this Ringside sees it in the list */
  ownerOnly?: boolean;
  /**
   * The anchors of the section's fields (ids on the page), the section's own old anchor first:
   * /settings#<anchor> of the one-page Settings lands here.
   */
  anchors: readonly string[];
};

export const SETTINGS_SECTIONS = [
  {
    slug: "account",
    title: "You and your ring",
    description: "The ring account, what it shares with Ringside, reconnect and disconnect.",
    anchors: ["connection"],
  },
  {
    slug: "household",
    title: "Household",
    description: "Invite others to this Ringside; pending invites and members.",
    ownerOnly: true,
    anchors: ["household"],
  },
  {
    slug: "cycle",
    title: "Your cycle",
    description: "Track my cycle, hormonal contraception, pregnancy; remove cycle data.",
    anchors: ["cycle", "cycle-tracking", "cycle-hormonalContraception", "cycle-pregnant"],
  },
  {
    slug: "alerts",
    title: "Alerts",
    description: "Messages, quiet hours, channels, rules and what was sent.",
    anchors: ["alerts"],
  },
  {
    slug: "signals",
    title: "Signals",
    description: "The sleep need sleep debt is measured against, and your free days.",
    anchors: ["signals", "sleep-need", "free-days"],
  },
  {
    slug: "preferences",
    title: "Preferences",
    description: "Units and theme.",
    anchors: ["preferences"],
  },
  {
    slug: "data",
    title: "Your data",
    description: "Export, import, and delete all your data.",
    anchors: ["data", "import"],
  },
  {
    slug: "api",
    title: "API and assistants",
    description: "Personal access tokens for your own tools and AI assistants (MCP).",
    anchors: ["api", "api-token-name"],
  },
  {
    slug: "home-automation",
    title: "Home automation",
    description: "Your readiness, sleep and battery in Home Assistant, over MQTT.",
    anchors: ["home-automation"],
  },
  {
    slug: "report-links",
    title: "Report links",
    description: "The share links of your reports: views, expiry, revoke.",
    anchors: ["report-links"],
  },
  {
    slug: "sync",
    title: "Sync",
    description: "Data source, poll interval and webhooks.",
    anchors: ["sync", "data-family", "poll-minutes"],
  },
] as const satisfies readonly SettingsSectionDef[];

export type SettingsSlug = (typeof SETTINGS_SECTIONS)[number]["slug"];
/** A section of the list, its slug one of the declared ones. */
export type SettingsSectionEntry = SettingsSectionDef & { slug: SettingsSlug };
const ENTRIES: readonly SettingsSectionEntry[] = SETTINGS_SECTIONS;

/** The address of a section, and of one of its fields: settingsHref("signals", "sleep-need") → "/settings/signals#sleep-need". */
export function settingsHref(slug: SettingsSlug, anchor?: string): string {
  return `/settings/${slug}${anchor ? `#${anchor}` : ""}`;
}

export function settingsSection(slug: string): SettingsSectionEntry | null {
  return ENTRIES.find((s) => s.slug === slug) ?? null;
}

/** The sections a person sees in the list: the owner all, a member those not for the owner only. */
export function visibleSettingsSections(role: "owner" | "member"): SettingsSectionEntry[] {
  return ENTRIES.filter((s) => role === "owner" || !s.ownerOnly);
}

/**
 * Where an anchor of the one-page Settings lives now: /settings#signals → /settings/signals,
 * /settings#sleep-need → /settings/signals#sleep-need (null: no section has it).
 */
export function settingsHrefForAnchor(anchor: string): string | null {
  const a = anchor.replace(/^#/, "");
  if (!a) return null;
  const s = ENTRIES.find((x) => x.slug === a || x.anchors.includes(a));
  if (!s) return null;
  return a === s.slug || a === s.anchors[0] ? settingsHref(s.slug) : settingsHref(s.slug, a);
}
