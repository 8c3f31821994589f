"use client";

import { alignClock } from "@/lib/clock";

/**
 * Sets the browser's reading of the one clock (lib/clock.ts) to the server's, so "5 min ago"
 * and "today" in the browser agree with the page the server rendered. It runs while rendering,
 * before the components below it, so their first render already uses the server's time.
 */
export function ClockAlign({ serverNow }: { serverNow: number }) {
  alignClock(serverNow);
  return null;
}
