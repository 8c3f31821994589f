// The ring service's consent scopes, in Ringside's own names (the legacy provider's eight, and
// `reproductive_cycle` for the menstrual cycle's phases): each resource of the registry needs one
// (define.ts), and lib/auth/scopes.ts maps both providers' names onto these. Pure: every layer may use it.

export const RING_SCOPES = ["email", "personal", "daily", "heartrate", "workout", "tag", "session", "spo2Daily", "reproductive_cycle"] as const;
export type RingScope = (typeof RING_SCOPES)[number];
