import "server-only";
import { format } from "node:util";
import { logger } from "@/lib/log";
import { handleSignals, SHUTDOWN_DEADLINE_MS, stdioState, watchParent } from "@/lib/process.mjs";
import { stopBackgroundWork, wakeBackgroundWork } from "@/lib/server/background";
import { installDatabaseProbe } from "@/lib/http/outage";
import { pingDatabase } from "@/lib/db/prisma";
import { processSlot } from "@/lib/process-singleton";

// The server process's life (the app and the worker alike; instrumentation.ts installs it once):
// output that cannot hurt it, SIGTERM/SIGINT ending it within SHUTDOWN_DEADLINE_MS with its
// background work stopped first, and an exit when the launcher that started it is gone
// (lib/process.mjs), and the database's health probe (lib/http/outage.ts). `npm start` sets
// NEXT_MANUAL_SIG_HANDLE so that Next.js leaves the signals to this.

/** How long the background work's jobs in flight get to finish their page on a shutdown. */
const BACKGROUND_GRACE_MS = 5_000;

const installed = processSlot<true>("lifecycleInstalled");

/** Next.js's and libraries' console output goes through the logger: bounded, redacted, never throwing. */
function routeConsole(): void {
  const to =
    (level: "info" | "warn" | "error") =>
    (...args: unknown[]) =>
      logger[level]({ source: "console" }, format(...args));
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
}

export function installServerLifecycle(): void {
  if (installed.get()) return;
  installed.set(true);
  stdioState();
  if (process.env.NODE_ENV === "production") routeConsole();
  // the database's health for pages and API routes (lib/http/outage.ts); when it is back, the
  // background work looks again at once instead of at its next retry
  installDatabaseProbe(pingDatabase, wakeBackgroundWork);
  const { trigger } = handleSignals(
    async (reason) => {
      logger.info({ reason }, "ringside is stopping");
      const background = await stopBackgroundWork(BACKGROUND_GRACE_MS);
      const out = stdioState();
      logger.info({ background, droppedLines: out.stdout.dropped + out.stderr.dropped }, "ringside stopped");
      return 0;
    },
    { deadlineMs: SHUTDOWN_DEADLINE_MS },
  );
  watchParent(() => trigger("the process that started this one is gone"));
}
