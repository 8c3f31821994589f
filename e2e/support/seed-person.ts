// Creates a connected, signed-in person in the e2e app's database without the OAuth round trip
// (that flow has its own specs: connect-ring, connect-newer-provider): the emulator account and
// tokens from its control API, then the app's User, Account (tokens encrypted with the app's
// key) and Session rows through the app's own modules. Run in its own process, because those
// modules are server-only:
//
//   DATABASE_URL=… TOKEN_ENCRYPTION_KEY=… node --conditions=react-server --import tsx \
//     e2e/support/seed-person.ts '{"email":"…","role":"owner","person":{"data_key":"…","wear":"always"},"emulatorUrl":"…","clientId":"…"}'
//
// Prints {"userId","ringUserId","email","sessionToken"}. The spec then asks the app for
// "Sync now" (a real backfill from the emulator) and sets the session cookie.
import crypto from "node:crypto";
import { clock } from "@/lib/clock";
import type { TestPerson } from "./emulator-control";

type Input = { email: string; role: "owner" | "member"; person: TestPerson; scope?: string; emulatorUrl: string; clientId: string };

/**
 * Auth.js checks a session's expiry against the machine's clock (not Ringside's, which a run
 * pins): a seeded session is valid until the end of time, and the spec's cookie lasts for the
 * browser's session.
 */
const NEVER = new Date("9999-12-31T00:00:00Z");

async function control<T>(emulatorUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${emulatorUrl}/_emulator${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`emulator ${path} → ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function main(input: Input) {
  const user = await control<{ user_id: string }>(input.emulatorUrl, "/users", { email: input.email, ...input.person });
  const tokens = await control<{ access_token: string; refresh_token: string; expires_in: number; scope: string }>(input.emulatorUrl, "/tokens", {
    client_id: input.clientId,
    user_id: user.user_id,
    ...(input.scope ? { scope: input.scope } : {}),
  });
  const { createUser } = await import("@/lib/db/queries/users");
  const { createAccount } = await import("@/lib/db/queries/accounts");
  const { encryptToken } = await import("@/lib/ring/crypto");
  const { normalizeScopes } = await import("@/lib/auth/scopes");
  const { db } = await import("@/lib/test/prisma");
  const created = await createUser({ name: input.email, email: input.email, image: null, emailVerified: null, role: input.role, ringUserId: user.user_id });
  await createAccount({
    userId: created.id,
    type: "oauth",
    provider: "ring",
    providerAccountId: user.user_id,
    accessToken: encryptToken(tokens.access_token),
    refreshToken: encryptToken(tokens.refresh_token),
    expiresAt: Math.floor(clock.now() / 1000) + tokens.expires_in,
    tokenType: "bearer",
    scope: normalizeScopes(tokens.scope).join(" "),
  });
  const sessionToken = crypto.randomBytes(32).toString("hex");
  await db.session.create({ data: { sessionToken, userId: created.id, expires: NEVER } });
  await db.$disconnect();
  return { userId: created.id, ringUserId: user.user_id, email: input.email, sessionToken };
}

main(JSON.parse(process.argv[2] ?? "{}") as Input)
  .then((r) => {
    process.stdout.write(JSON.stringify(r) + "\n");
    process.exit(0);
  })
  .catch((e: unknown) => {
    process.stderr.write(String((e as Error)?.stack ?? e) + "\n");
    process.exit(1);
  });
