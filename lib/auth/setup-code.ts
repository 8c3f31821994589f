import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { isBuildPhase } from "@/lib/secrets";
import { countOwners } from "@/lib/db/queries/users";
import { processSlot } from "@/lib/process-singleton";

/**
 * The one-time setup code that lets the first person become the owner. On a fresh instance
 * reachable from a network, whoever connected first used to become its owner; now, outside
 * demo mode and unless ALLOWED_EMAILS names them, that first person must enter this code on the
 * sign-in page. It is generated on first start into the data directory (file 0600, like the
 * other generated secrets), printed in the server log at every start until it is used, carried
 * through the ring's consent in an httpOnly cookie, checked when the sign-in is admitted, and
 * deleted when the owner is created.
 */

export const SETUP_CODE_COOKIE = "ringside-setup-code";
export const SETUP_CODE_COOKIE_MAX_AGE_S = 60 * 60;

/** Unambiguous characters (no 0/O, 1/I/L, U); 12 of them carry about 59 bits. */
const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";
const LENGTH = 12;

function codeFile(): string {
  return path.join(path.resolve(env.DATA_DIR), "setup-code");
}

/** As typed: case, spaces and dashes do not matter; anything else makes it no code (null). */
export function normalizeSetupCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 64) return null;
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  return code.length > 0 && code.length <= 32 && /^[A-Z0-9]+$/.test(code) ? code : null;
}

/** "ABCD-EFGH-JKMN" */
export function formatSetupCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

function generate(): string {
  let out = "";
  while (out.length < LENGTH) {
    for (const b of crypto.randomBytes(LENGTH)) {
      // rejection sampling keeps every character equally likely
      if (b < 240 && out.length < LENGTH) out += ALPHABET[b % ALPHABET.length];
    }
  }
  return out;
}

/** The stored code, created when there is none (never during the build). */
export function readOrCreateSetupCode(): string | null {
  if (isBuildPhase()) return null;
  const file = codeFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    return normalizeSetupCode(fs.readFileSync(file, "utf8"));
  } catch {
    const fresh = generate();
    try {
      fs.writeFileSync(file, fresh + "\n", { mode: 0o600, flag: "wx" });
      return fresh;
    } catch {
      return normalizeSetupCode(fs.readFileSync(file, "utf8")); // another process won the race
    }
  }
}

/** The stored code, without creating one. */
function storedSetupCode(): string | null {
  try {
    return normalizeSetupCode(fs.readFileSync(codeFile(), "utf8"));
  } catch {
    return null;
  }
}

/** Whether `given` is the stored code ("missing" when nothing was entered). */
export function checkSetupCode(given: string | null | undefined): "ok" | "missing" | "wrong" {
  const code = normalizeSetupCode(given);
  if (!code) return "missing";
  const stored = storedSetupCode();
  if (!stored) return "wrong";
  const a = crypto.createHash("sha256").update(code).digest();
  const b = crypto.createHash("sha256").update(stored).digest();
  return crypto.timingSafeEqual(a, b) ? "ok" : "wrong";
}

/** Deletes the code (the owner exists now). */
export function consumeSetupCode(): void {
  fs.rmSync(codeFile(), { force: true });
}

/** Whether the first connect needs the code here (not in demo mode). */
export function isSetupCodeRequired(): boolean {
  return !env.RINGSIDE_DEMO;
}

/** Once per process, though Next bundles this module into several route chunks. */
const announced = processSlot<true>("setupCodeAnnounced");

/**
 * Prints the code once per process while the instance has no owner (called at start-up:
 * `npm start` asks /api/health as soon as the server listens; and when the sign-in page is shown).
 */
export async function announceSetupCode(): Promise<void> {
  if (announced.get() || !isSetupCodeRequired() || isBuildPhase()) return;
  announced.set(true);
  try {
    if ((await countOwners()) > 0) return;
    const code = readOrCreateSetupCode();
    if (!code) return;
    const allowed = env.ALLOWED_EMAILS.length > 0 ? " (people listed in ALLOWED_EMAILS need no code)" : "";
    logger.warn(
      { event: "setup_code" },
      `Ringside has no owner yet. To become its owner, open the sign-in page, ` +
        `enter the setup code ${formatSetupCode(code)} and connect your ring${allowed}. The code works once.`,
    );
  } catch (err) {
    announced.set(undefined);
    logger.error({ error: err instanceof Error ? err.name : "error" }, "could not prepare the setup code");
  }
}
