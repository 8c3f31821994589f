import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, readTokenKeyFile } from "@/lib/env.mjs";

/**
 * Secrets the app needs but a demo user should not have to configure. A configured value
 * always wins; otherwise the secret is generated on first start and kept in DATA_DIR
 * (directory 0700, file 0600), readable only by the app's user. Never generated at build
 * time (`next build` evaluates route modules), so no secret ends up in an image layer.
 */
export type SecretName = "auth-secret" | "token-encryption-key" | "webhook-verification-token";

const CONFIGURED: Record<SecretName, () => string | undefined> = {
  "auth-secret": () => env.AUTH_SECRET,
  // or kept in a file of its own (TOKEN_ENCRYPTION_KEY_FILE), away from the data directory and its backups
  "token-encryption-key": () => env.TOKEN_ENCRYPTION_KEY ?? (env.TOKEN_ENCRYPTION_KEY_FILE ? readTokenKeyFile(env.TOKEN_ENCRYPTION_KEY_FILE) : undefined),
  "webhook-verification-token": () => env.WEBHOOK_VERIFICATION_TOKEN,
};

const cache = new Map<SecretName, string>();

export function isBuildPhase(): boolean {
  return process.env.NEXT_PHASE === "phase-production-build";
}

/** Returns the secret, or undefined during `next build`. */
export function resolveSecret(name: SecretName): string | undefined {
  const configured = CONFIGURED[name]();
  if (configured) return configured;
  if (isBuildPhase()) return undefined;
  const cached = cache.get(name);
  if (cached) return cached;
  const dir = path.resolve(env.DATA_DIR);
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let value: string;
  try {
    value = fs.readFileSync(file, "utf8").trim();
  } catch {
    const fresh = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, fresh + "\n", { mode: 0o600, flag: "wx" });
      value = fresh;
    } catch {
      // another process won the race: read what it wrote
      value = fs.readFileSync(file, "utf8").trim();
    }
  }
  if (!value) throw new Error(`The secret file ${file} is empty; delete it to generate a new one.`);
  cache.set(name, value);
  return value;
}

/** Like resolveSecret but throws outside the build phase when it cannot be had. */
export function requireSecret(name: SecretName): string {
  const value = resolveSecret(name);
  if (!value) throw new Error(`Secret ${name} is not available during the build.`);
  return value;
}
