// `npm run emulator`: reads RING_EMULATOR_* settings, prints them, serves until SIGINT/SIGTERM
// (or until the Ringside process that started it, RINGSIDE_PARENT_PID, is gone). Output whose
// reader went away is dropped, never fatal (lib/process.mjs).
import { handleSignals, stdioState, watchParent, writeLine } from "@/lib/process.mjs";
import { configFromEnv, EmulatorConfigError, formatConfigTable } from "./config";
import { startEmulator } from "./server";

stdioState();
const say = (text: string) => writeLine("stdout", text);

async function main(): Promise<void> {
  let config;
  try {
    config = configFromEnv(process.env);
  } catch (e) {
    if (e instanceof EmulatorConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  say(`Ring service emulator settings:\n${formatConfigTable(config)}\n`);
  let running;
  try {
    running = await startEmulator(config);
  } catch (e) {
    process.stderr.write(`Could not start the ring emulator on ${config.host}:${config.port}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
  say(`Ring emulator listening on ${running.url}\n`);
  say(`Demo client: client_id=ringside-demo client_secret=ringside-demo-secret redirect_uri=http://localhost:3000/api/auth/callback/ring\n`);
  say(`Newer identity provider (developer-portal clients): issuer ${running.url}/oauth/v2/ext/oauth-anonymous\n`);

  const server = running;
  const { trigger } = handleSignals(async (reason) => {
    say(`Ring emulator stopping (${reason})\n`);
    // open connections get 3 s; the process ends then regardless
    await Promise.race([server.close(), new Promise((r) => setTimeout(r, 3_000).unref())]);
    return 0;
  });
  watchParent(() => trigger("its parent process is gone"));
}

void main();
