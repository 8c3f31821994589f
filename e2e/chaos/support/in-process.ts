// For the cases that run Ringside's sync code inside the test process against the emulator:
// pointing the app at it, and people connected with tokens the emulator minted.
import crypto from "node:crypto";
import type { Emulator } from "./emulator";
import { CHAOS_CLIENT } from "./env";
import { RING_SCOPES } from "@/lib/auth/scopes";

/** Points the in-process app at `emu` (read when lib/env.mjs is first imported), scheduler off. */
export function useEmulatorInProcess(emu: Emulator, opts: { requestTimeoutMs?: number } = {}): void {
  process.env.RING_API_BASE_URL = emu.url;
  process.env.RING_CLIENT_ID = CHAOS_CLIENT.client_id;
  process.env.RING_CLIENT_SECRET = CHAOS_CLIENT.client_secret;
  process.env.SYNC_DISABLED = "1";
  if (opts.requestTimeoutMs) process.env.RING_REQUEST_TIMEOUT_MS = String(opts.requestTimeoutMs);
}

type AppModules = { db: typeof import("@/lib/test/prisma"); tokens: typeof import("@/lib/ring/tokens") };

export type ConnectedPerson = { userId: string; accountId: string; ringUserId: string };

/**
 * A person connected with tokens the emulator minted (every scope Ringside asks for). `expiresAt` (epoch
 * seconds) is what the app believes; `emulatorTtlS` is when the emulator really expires them
 * (its configured token lifetime when not given).
 */
export async function connectMintedPerson(
  app: AppModules,
  emu: Emulator,
  opts: { tag: string; expiresAt: number; emulatorTtlS?: number; role?: "owner" | "member" },
): Promise<ConnectedPerson> {
  const email = `${opts.tag}-${crypto.randomBytes(4).toString("hex")}@example.test`;
  const issued = await emu.mintTokens({ client_id: CHAOS_CLIENT.client_id, email, scope: RING_SCOPES.join(" "), expires_in: opts.emulatorTtlS });
  const user = await app.db.db.user.create({ data: { email, role: opts.role ?? "member", ringUserId: issued.user_id } });
  const account = await app.db.db.account.create({
    data: {
      userId: user.id,
      type: "oauth",
      provider: "ring",
      providerAccountId: issued.user_id,
      access_token: app.tokens.encryptToken(issued.access_token),
      refresh_token: app.tokens.encryptToken(issued.refresh_token),
      expires_at: opts.expiresAt,
      token_type: "bearer",
      scope: issued.scope,
      status: "active",
    },
  });
  return { userId: user.id, accountId: account.id, ringUserId: issued.user_id };
}
