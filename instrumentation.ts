// Next.js calls register() once when a server process starts (`npm start`, `npm run demo`,
// `next dev`), before it serves a request: Ringside's background work starts here and nowhere
// else (lib/server/background.ts). Request code never starts anything.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundWork } = await import("@/lib/server/background");
  await startBackgroundWork();
}
