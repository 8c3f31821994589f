// Settings of the fault-and-abuse suite: quick form (inside `npm test`) or full form (CHAOS_FULL=1).
import path from "node:path";

export const FULL = process.env.CHAOS_FULL === "1";

/** The quick figure or the full one. */
export function pick<T>(quick: T, full: T): T {
  return FULL ? full : quick;
}

/** The suite's own ports, chosen at run time (e2e/chaos/vitest.config.ts, or npm test): CHAOS_APP_PORT / CHAOS_EMULATOR_PORT. */
export const APP_PORT = Number(process.env.CHAOS_APP_PORT);
export const EMULATOR_PORT = Number(process.env.CHAOS_EMULATOR_PORT);
// localhost, not 127.0.0.1: Next normalises 127.0.0.1 in request URLs to localhost (Auth.js redirect URIs follow it).
export const APP_URL = `http://localhost:${APP_PORT}`;
export const EMULATOR_URL = `http://127.0.0.1:${EMULATOR_PORT}`;

/** Data directories of the production processes and the captured logs (git-ignored). */
export const CHAOS_DATA_DIR = path.resolve("e2e/chaos/.data");
export const CHAOS_LOG_DIR = path.join(CHAOS_DATA_DIR, "logs");

/** The OAuth client the production app uses at the emulator. */
export const CHAOS_CLIENT = {
  client_id: "ringside-chaos",
  client_secret: "ringside-chaos-secret-0123456789",
  redirect_uris: [`${APP_URL}/api/auth/callback/ring`],
  approved: true,
};

/** Secrets of the production app: the suite checks none of them ever reaches a log line. */
export const CHAOS_SECRETS = {
  AUTH_SECRET: "chaos-auth-secret-not-for-production-0123456789",
  TOKEN_ENCRYPTION_KEY: "3c".repeat(32),
  WEBHOOK_VERIFICATION_TOKEN: "chaos-webhook-verification-token-0123",
};

/** Every person the suite connects gets an address of this domain (ALLOWED_EMAILS admits it where wanted). */
export const ALLOWED_DOMAIN = "allowed.chaos.test";
