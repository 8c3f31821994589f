// Ports and settings of the end-to-end environment. `npm test` chooses every port at run time
// and passes them in the environment (E2E_*_PORT); a direct `playwright test -c e2e` chooses
// them here, once, in the runner's process (its workers inherit the environment), so nothing
// ever depends on a fixed port being free — a demo on 3000/4010 or a second checkout's run can
// go on beside it.
import { applySuiteEnv } from "../../lib/test/suite-env.mjs";
import { freePortsSync } from "../../lib/test/processes.mjs";

const PORT_NAMES = [
  "E2E_APP_PORT",
  "E2E_EMULATOR_PORT",
  "E2E_RESTORED_PORT",
  "E2E_OTHER_PORT",
  "E2E_FRESH_PORT",
  "E2E_DEMO_APP_PORT",
  "E2E_DEMO_EMULATOR_PORT",
  "E2E_SMTP_PORT",
  "E2E_MQTT_PORT",
] as const;

const missing = PORT_NAMES.filter((name) => !process.env[name]);
if (missing.length > 0) {
  const ports = freePortsSync(missing.length);
  missing.forEach((name, i) => (process.env[name] = String(ports[i])));
}
// one clock and one seed for the app, the emulator and the specs (lib/test/suite-env.mjs)
applySuiteEnv();

const port = (name: (typeof PORT_NAMES)[number]) => Number(process.env[name]);

export const E2E_APP_PORT = port("E2E_APP_PORT");
export const E2E_EMULATOR_PORT = port("E2E_EMULATOR_PORT");
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
/** Ports of the extra instances some specs start. */
export const E2E_RESTORED_PORT = port("E2E_RESTORED_PORT");
export const E2E_OTHER_PORT = port("E2E_OTHER_PORT");
export const E2E_FRESH_PORT = port("E2E_FRESH_PORT");
/** `npm run demo` started by e2e/connect-newer-provider.spec.ts: its own app and emulator ports. */
export const E2E_DEMO_APP_PORT = port("E2E_DEMO_APP_PORT");
export const E2E_DEMO_EMULATOR_PORT = port("E2E_DEMO_EMULATOR_PORT");
/** The SMTP server e2e/alerts.spec.ts runs in the test process; the e2e app sends alert mail to it (SMTP_PORT). */
export const E2E_SMTP_PORT = port("E2E_SMTP_PORT");
/** The MQTT broker e2e/home-automation.spec.ts starts; the e2e app publishes to it (MQTT_URL) and keeps reconnecting while it is not there. */
export const E2E_MQTT_PORT = port("E2E_MQTT_PORT");
