import "server-only";
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import { createInvite, findUsableInviteByHash } from "@/lib/db/queries/invites";

/** Invite links: /invite/<secret>. The secret is 32 random bytes; only its sha256 is stored. */

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** httpOnly cookie that carries an opened invite into the Connect round trip. */
export const INVITE_COOKIE = "ringside-invite";
export const INVITE_COOKIE_MAX_AGE_S = 60 * 60;

const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;

export function hashInviteSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

export function isWellFormedInviteSecret(secret: string): boolean {
  return SECRET_RE.test(secret);
}

export async function issueInvite(createdById: string, now = clock.now()): Promise<{ id: string; secret: string; expiresAt: Date }> {
  const secret = crypto.randomBytes(32).toString("base64url");
  const invite = await createInvite({ createdById, tokenHash: hashInviteSecret(secret), expiresAt: new Date(now + INVITE_TTL_MS) });
  return { id: invite.id, secret, expiresAt: invite.expiresAt };
}

/** The usable invite for a secret from a link or cookie, or null. */
export async function findUsableInvite(secret: string | null | undefined) {
  if (!secret || !isWellFormedInviteSecret(secret)) return null;
  return findUsableInviteByHash(hashInviteSecret(secret));
}

export function inviteLink(origin: string, secret: string): string {
  return `${origin.replace(/\/+$/, "")}/invite/${secret}`;
}
