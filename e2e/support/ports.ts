// Ports and settings of the end-to-end environment (separate from `npm run demo`'s 3000/4010).
export const E2E_APP_PORT = Number(process.env.E2E_APP_PORT ?? 3210);
export const E2E_EMULATOR_PORT = Number(process.env.E2E_EMULATOR_PORT ?? 4210);
export const E2E_APP_URL = `http://localhost:${E2E_APP_PORT}`;
export const E2E_EMULATOR_URL = `http://localhost:${E2E_EMULATOR_PORT}`;
export const E2E_CLIENT = {
  client_id: "ringside-e2e",
  client_secret: "ringside-e2e-secret",
  redirect_uris: [`${E2E_APP_URL}/api/auth/callback/ring`],
  approved: true,
};
/** 32-byte key in hex: the e2e app encrypts tokens with it, so specs can decrypt to check revocation. */
export const E2E_TOKEN_KEY = "5f".repeat(32);
export const E2E_DATA_DIR = "e2e/.data";
/** Ports of the extra instances some specs start (after the app's own port, so a second checkout moves them too). */
export const E2E_RESTORED_PORT = E2E_APP_PORT + 2;
export const E2E_OTHER_PORT = E2E_APP_PORT + 3;
export const E2E_FRESH_PORT = E2E_APP_PORT + 4;
/** `npm run demo` started by e2e/connect-newer-provider.spec.ts: its own app and emulator ports. */
export const E2E_DEMO_APP_PORT = E2E_APP_PORT + 7;
export const E2E_DEMO_EMULATOR_PORT = E2E_EMULATOR_PORT + 7;
/** The SMTP server e2e/alerts.spec.ts runs in the test process; the e2e app sends alert mail to it (SMTP_PORT). */
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? E2E_APP_PORT + 8);
