// Next.js calls register() once when a server process starts (`npm start`, `npm run demo`,
// `next dev`), before it serves a request: Ringside's background work starts here and nowhere
// else (lib/server/background.ts), after the process's lifecycle (lib/server/lifecycle.ts). Request
// code never starts anything.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // first: output, signals and the parent (lib/server/lifecycle.ts), then the background work
  const { installServerLifecycle } = await import("@/lib/server/lifecycle");
  installServerLifecycle();
  // the gate proxy.ts asks before a report's share link page is drawn (lib/report-link-gate.ts); the
  // service behind it loads at the first share link asked for, not at start (a start stays as quick as before)
  const { reportLinkGateSlot } = await import("@/lib/report-link-gate");
  reportLinkGateSlot().set(async (secret) => (await import("@/lib/services/report-links")).reportLinkGate(secret));
  const { startBackgroundWork } = await import("@/lib/server/background");
  await startBackgroundWork();
}
