"use server";

import { signInWithRing } from "@/lib/auth";

/** Starts "Connect your ring" (authorization-code flow with PKCE and state) and lands on the dashboard. */
export async function connectRing(): Promise<void> {
  await signInWithRing("/");
}
