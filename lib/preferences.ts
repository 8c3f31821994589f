// A person's preferences, declared once: the values stored in User.units and User.theme
// (lib/db/queries/preferences.ts) and accepted by the API (lib/schemas/requests.ts). Pure: every
// layer may use it, the browser and the MCP stdio process included.

export const UNITS = ["metric", "imperial"] as const;
export const THEMES = ["light", "dark", "system"] as const;
export type Preferences = { units: (typeof UNITS)[number]; theme: (typeof THEMES)[number] };
