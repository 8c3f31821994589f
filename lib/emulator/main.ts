// `npm run emulator`: reads RING_EMULATOR_* settings, prints them, serves until SIGINT/SIGTERM.
import { configFromEnv, EmulatorConfigError, formatConfigTable } from "./config";
import { startEmulator } from "./server";

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
  process.stdout.write(`Ring service emulator settings:\n${formatConfigTable(config)}\n`);
  let running;
  try {
    running = await startEmulator(config);
  } catch (e) {
    process.stderr.write(`Could not start the ring emulator on ${config.host}:${config.port}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
  process.stdout.write(`Ring emulator listening on ${running.url}\n`);
  process.stdout.write(
    `Demo client: client_id=ringside-demo client_secret=ringside-demo-secret redirect_uri=http://localhost:3000/api/auth/callback/ring\n`,
  );
  process.stdout.write(`Newer identity provider (developer-portal clients): issuer ${running.url}/oauth/v2/ext/oauth-anonymous\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Ring emulator stopping (${signal})\n`);
    const force = setTimeout(() => process.exit(0), 3_000);
    force.unref();
    void running.close().then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

void main();
